// src/ops/simd/block_means.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway, the same sums in plain loops.
#include "src/ops/simd/block_means.hpp"

#include <stdexcept>
#include <string>

// Compiled once, though foreach_target.h includes this file again per target.
#ifndef IMGPAR_SIMD_BLOCK_MEANS_PLAIN
#define IMGPAR_SIMD_BLOCK_MEANS_PLAIN
namespace imgpar::simd {

template <typename T>
BlockDividerOf<T> BlockDividerOf<T>::of(int d) {
    if (d < 1 || static_cast<std::uint32_t>(d) > kMaxDivisor)
        throw std::invalid_argument("BlockDivider: d out of 1.." + std::to_string(kMaxDivisor));
    BlockDividerOf div;
    div.d = static_cast<Lane>(d);
    div.half = static_cast<Lane>(d / 2);
    if (d == 1) return div;
    int l = 0;
    while ((std::uint64_t{1} << l) < static_cast<std::uint64_t>(d)) ++l;  // ceil(log2 d)
    div.magic = static_cast<Lane>((std::uint64_t{1} << kLaneBits) * ((std::uint64_t{1} << l) - d) / d + 1);
    div.shift = l - 1;
    return div;
}
template struct BlockDividerOf<std::uint8_t>;
template struct BlockDividerOf<std::uint16_t>;

namespace {

// The plain loops: the vector code's tails and the whole of a build without
// Highway.
template <typename T, typename Lane>
void column_sums_from(const T* const* rows, int fy, std::size_t s0, std::size_t n, Lane* acc) {
    for (std::size_t s = s0; s < n; ++s) {
        std::uint32_t sum = 0;
        for (int t = 0; t < fy; ++t) sum += rows[t][s];
        acc[s] = static_cast<Lane>(sum);
    }
}

template <typename T, typename Lane>
void row_means_from(const Lane* acc, int C, int fx, const BlockDividerOf<T>& div, std::size_t j0, std::size_t count,
                    T* out) {
    for (std::size_t j = j0; j < count; ++j) {
        const Lane* block = acc + j * static_cast<std::size_t>(fx) * C;
        for (int c = 0; c < C; ++c) {
            std::uint32_t sum = 0;
            for (int i = 0; i < fx; ++i) sum += block[i * C + c];
            out[j * C + c] = div.mean(sum);
        }
    }
}

template <typename T>
void pair_means_from(const T* const* rows, int fy, int C, const BlockDividerOf<T>& div, std::size_t j0,
                     std::size_t count, T* out) {
    for (std::size_t j = j0; j < count; ++j)
        for (int c = 0; c < C; ++c) {
            std::uint32_t sum = 0;
            for (int t = 0; t < fy; ++t) sum += rows[t][2 * j * C + c] + rows[t][(2 * j + 1) * C + c];
            out[j * C + c] = div.mean(sum);
        }
}

}  // namespace
}  // namespace imgpar::simd
#endif  // IMGPAR_SIMD_BLOCK_MEANS_PLAIN

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/block_means.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The upper halves of the lanes' products: one instruction for 16-bit
// lanes; for 32-bit lanes, the 64-bit products of the even lanes and of the
// odd ones shifted down, their upper halves put back in place.
template <class D>
HWY_INLINE hn::Vec<D> mul_high(D d, hn::Vec<D> a, hn::Vec<D> b) {
    if constexpr (sizeof(hn::TFromD<D>) == 2) {
        (void)d;
        return hn::MulHigh(a, b);
    } else {
#if HWY_TARGET == HWY_SCALAR
        return hn::Set(d, static_cast<std::uint32_t>((std::uint64_t{hn::GetLane(a)} * hn::GetLane(b)) >> 32));
#else
        const hn::Repartition<std::uint64_t, D> d64;
        const auto odd = [&](hn::Vec<D> v) { return hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, v))); };
        const auto even_products = hn::MulEven(a, b), odd_products = hn::MulEven(odd(a), odd(b));
        return hn::OddEven(hn::BitCast(d, odd_products), hn::BitCast(d, hn::ShiftRight<32>(even_products)));
#endif
    }
}

template <class DL, typename T>
HWY_INLINE hn::Vec<DL> means(DL dl, hn::Vec<DL> v, const BlockDividerOf<T>& div) {
    if (div.d == 1) return v;
    const auto u = hn::Add(v, hn::Set(dl, div.half));
    const auto t = mul_high(dl, u, hn::Set(dl, div.magic));
    return hn::ShiftRightSame(hn::Add(t, hn::ShiftRight<1>(hn::Sub(u, t))), div.shift);
}

// Means (at most the sample's maximum) into samples: through signed lanes,
// which DemoteTo takes on every target.
template <class DT, class VL>
HWY_INLINE hn::Vec<DT> to_samples(DT dt, VL v) {
    const hn::Rebind<hwy::MakeSigned<hwy::MakeWide<hn::TFromD<DT>>>, DT> di;
    return hn::DemoteTo(dt, hn::BitCast(di, v));
}

// The sums of adjacent pairs of lanes of [lo, hi): lane k is lane 2k plus
// lane 2k + 1 of the two vectors side by side.
#if HWY_TARGET != HWY_SCALAR  // one lane has no pairs
template <class DL>
HWY_INLINE hn::Vec<DL> pair_sums(DL dl, hn::Vec<DL> lo, hn::Vec<DL> hi) {
    return hn::Add(hn::ConcatEven(dl, hi, lo), hn::ConcatOdd(dl, hi, lo));
}
#endif

template <typename T, typename Lane>
void ColumnSums(const T* const* rows, int fy, std::size_t n, Lane* acc) {
    const hn::ScalableTag<Lane> dl;
    const hn::Rebind<T, decltype(dl)> dt;
    const std::size_t lanes = hn::Lanes(dl);
    const std::size_t full = n / lanes * lanes;
    for (std::size_t s = 0; s < full; s += lanes) {
        auto sum = hn::PromoteTo(dl, hn::LoadU(dt, rows[0] + s));
        for (int t = 1; t < fy; ++t) sum = hn::Add(sum, hn::PromoteTo(dl, hn::LoadU(dt, rows[t] + s)));
        hn::StoreU(sum, dl, acc + s);
    }
    column_sums_from(rows, fy, full, n, acc);
}

// Vectors for one channel (fx 1 or 2) and for three (fx 2, one plane per
// channel); other layouts and factors take the plain loops, their outputs
// being fewer per input sample.
template <typename T, typename Lane>
void RowMeans(const Lane* acc, int C, int fx, const BlockDividerOf<T>& div, std::size_t count, T* out) {
    const hn::ScalableTag<Lane> dl;
    const hn::Rebind<T, decltype(dl)> dt;
    const std::size_t lanes = hn::Lanes(dl);
    const std::size_t full = count / lanes * lanes;
    std::size_t done = 0;
    if (fx == 1) {
        const std::size_t n = count * C, whole = n / lanes * lanes;
        for (std::size_t s = 0; s < whole; s += lanes)
            hn::StoreU(to_samples(dt, means(dl, hn::LoadU(dl, acc + s), div)), dt, out + s);
        return row_means_from(acc, 1, 1, div, whole, n, out);
    }
#if HWY_TARGET != HWY_SCALAR
    if (fx == 2 && C == 1) {
        for (std::size_t j = 0; j < full; j += lanes) {
            const auto v = pair_sums(dl, hn::LoadU(dl, acc + 2 * j), hn::LoadU(dl, acc + 2 * j + lanes));
            hn::StoreU(to_samples(dt, means(dl, v, div)), dt, out + j);
        }
        done = full;
    } else if (fx == 2 && C == 3) {
        for (std::size_t j = 0; j < full; j += lanes) {
            hn::Vec<decltype(dl)> r0, g0, b0, r1, g1, b1;
            hn::LoadInterleaved3(dl, acc + 6 * j, r0, g0, b0);
            hn::LoadInterleaved3(dl, acc + 6 * j + 3 * lanes, r1, g1, b1);
            hn::StoreInterleaved3(to_samples(dt, means(dl, pair_sums(dl, r0, r1), div)),
                                  to_samples(dt, means(dl, pair_sums(dl, g0, g1), div)),
                                  to_samples(dt, means(dl, pair_sums(dl, b0, b1), div)), dt, out + 3 * j);
        }
        done = full;
    }
#else
    (void)full;
#endif
    row_means_from(acc, C, fx, div, done, count, out);
}

template <typename T>
void PairMeans(const T* const* rows, int fy, int C, const BlockDividerOf<T>& div, std::size_t count, T* out) {
    std::size_t done = 0;
#if HWY_TARGET != HWY_SCALAR
    using Lane = typename BlockLanes<T>::Lane;
    constexpr int kBits = 8 * sizeof(T);
    const hn::ScalableTag<T> dt;
    const hn::Repartition<Lane, decltype(dt)> dl;  // a lane: two neighbours' samples
    const hn::Rebind<T, decltype(dl)> half;        // a sample per wide lane
    const std::size_t step = hn::Lanes(dl);        // output pixels per vector
    const std::size_t full = count / step * step;
    const auto low = hn::Set(dl, static_cast<Lane>((Lane{1} << kBits) - 1));
    const auto pairs = [&](hn::Vec<decltype(dt)> v) {
        const auto w = hn::BitCast(dl, v);
        return hn::Add(hn::And(w, low), hn::ShiftRight<kBits>(w));
    };
    if (C == 1) {
        for (std::size_t j = 0; j < full; j += step) {
            auto sum = pairs(hn::LoadU(dt, rows[0] + 2 * j));
            for (int t = 1; t < fy; ++t) sum = hn::Add(sum, pairs(hn::LoadU(dt, rows[t] + 2 * j)));
            hn::StoreU(to_samples(half, means(dl, sum, div)), half, out + j);
        }
        done = full;
    } else if (C == 3) {
        for (std::size_t j = 0; j < full; j += step) {
            auto r = hn::Zero(dl), g = r, b = r;
            for (int t = 0; t < fy; ++t) {
                hn::Vec<decltype(dt)> rt, gt, bt;
                hn::LoadInterleaved3(dt, rows[t] + 6 * j, rt, gt, bt);
                r = hn::Add(r, pairs(rt));
                g = hn::Add(g, pairs(gt));
                b = hn::Add(b, pairs(bt));
            }
            hn::StoreInterleaved3(to_samples(half, means(dl, r, div)), to_samples(half, means(dl, g, div)),
                                  to_samples(half, means(dl, b, div)), half, out + 3 * j);
        }
        done = full;
    }
#endif
    pair_means_from(rows, fy, C, div, done, count, out);
}

// Each instantiation by name, for HWY_EXPORT.
void ColumnSums8(const std::uint8_t* const* rows, int fy, std::size_t n, std::uint16_t* acc) {
    ColumnSums(rows, fy, n, acc);
}
void ColumnSums16(const std::uint16_t* const* rows, int fy, std::size_t n, std::uint32_t* acc) {
    ColumnSums(rows, fy, n, acc);
}
void RowMeans8(const std::uint16_t* acc, int C, int fx, const BlockDivider& div, std::size_t count, std::uint8_t* out) {
    RowMeans(acc, C, fx, div, count, out);
}
void RowMeans16(const std::uint32_t* acc, int C, int fx, const BlockDivider16& div, std::size_t count,
                std::uint16_t* out) {
    RowMeans(acc, C, fx, div, count, out);
}
void PairMeans8(const std::uint8_t* const* rows, int fy, int C, const BlockDivider& div, std::size_t count,
                std::uint8_t* out) {
    PairMeans(rows, fy, C, div, count, out);
}
void PairMeans16(const std::uint16_t* const* rows, int fy, int C, const BlockDivider16& div, std::size_t count,
                 std::uint16_t* out) {
    PairMeans(rows, fy, C, div, count, out);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(ColumnSums8);
HWY_EXPORT(ColumnSums16);
HWY_EXPORT(RowMeans8);
HWY_EXPORT(RowMeans16);
HWY_EXPORT(PairMeans8);
HWY_EXPORT(PairMeans16);

void block_column_sums(const std::uint8_t* const* rows, int fy, std::size_t n, std::uint16_t* acc) {
    HWY_DYNAMIC_DISPATCH(ColumnSums8)(rows, fy, n, acc);
}
void block_column_sums(const std::uint16_t* const* rows, int fy, std::size_t n, std::uint32_t* acc) {
    HWY_DYNAMIC_DISPATCH(ColumnSums16)(rows, fy, n, acc);
}
void block_row_means(const std::uint16_t* acc, int channels, int fx, const BlockDivider& div, std::size_t count,
                     std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(RowMeans8)(acc, channels, fx, div, count, out);
}
void block_row_means(const std::uint32_t* acc, int channels, int fx, const BlockDivider16& div, std::size_t count,
                     std::uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(RowMeans16)(acc, channels, fx, div, count, out);
}
void block_pair_means(const std::uint8_t* const* rows, int fy, int channels, const BlockDivider& div, std::size_t count,
                      std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(PairMeans8)(rows, fy, channels, div, count, out);
}
void block_pair_means(const std::uint16_t* const* rows, int fy, int channels, const BlockDivider16& div,
                      std::size_t count, std::uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(PairMeans16)(rows, fy, channels, div, count, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway

namespace imgpar::simd {

void block_column_sums(const std::uint8_t* const* rows, int fy, std::size_t n, std::uint16_t* acc) {
    column_sums_from(rows, fy, 0, n, acc);
}
void block_column_sums(const std::uint16_t* const* rows, int fy, std::size_t n, std::uint32_t* acc) {
    column_sums_from(rows, fy, 0, n, acc);
}
void block_row_means(const std::uint16_t* acc, int channels, int fx, const BlockDivider& div, std::size_t count,
                     std::uint8_t* out) {
    row_means_from(acc, channels, fx, div, 0, count, out);
}
void block_row_means(const std::uint32_t* acc, int channels, int fx, const BlockDivider16& div, std::size_t count,
                     std::uint16_t* out) {
    row_means_from(acc, channels, fx, div, 0, count, out);
}
void block_pair_means(const std::uint8_t* const* rows, int fy, int channels, const BlockDivider& div, std::size_t count,
                      std::uint8_t* out) {
    pair_means_from(rows, fy, channels, div, 0, count, out);
}
void block_pair_means(const std::uint16_t* const* rows, int fy, int channels, const BlockDivider16& div,
                      std::size_t count, std::uint16_t* out) {
    pair_means_from(rows, fy, channels, div, 0, count, out);
}

}  // namespace imgpar::simd
#endif
