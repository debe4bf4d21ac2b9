// src/ops/simd/block_means.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway, the same sums in plain loops.
#include "src/ops/simd/block_means.hpp"

#include <stdexcept>

// Compiled once, though foreach_target.h includes this file again per target.
#ifndef IMGPAR_SIMD_BLOCK_MEANS_PLAIN
#define IMGPAR_SIMD_BLOCK_MEANS_PLAIN
namespace imgpar::simd {

BlockDivider BlockDivider::of(int d) {
    if (d < 1 || d > 256) throw std::invalid_argument("BlockDivider: d out of 1..256");
    BlockDivider div;
    div.d = static_cast<std::uint16_t>(d);
    div.half = static_cast<std::uint16_t>(d / 2);
    if (d == 1) return div;
    int l = 0;
    while ((1 << l) < d) ++l;  // ceil(log2 d)
    div.magic = static_cast<std::uint16_t>((std::uint32_t{1} << 16) * ((1u << l) - d) / d + 1);
    div.shift = l - 1;
    return div;
}

namespace {

// The plain loops: the vector code's tails and the whole of a build without
// Highway.
void column_sums_from(const std::uint8_t* const* rows, int fy, std::size_t s0, std::size_t n, std::uint16_t* acc) {
    for (std::size_t s = s0; s < n; ++s) {
        unsigned sum = 0;
        for (int t = 0; t < fy; ++t) sum += rows[t][s];
        acc[s] = static_cast<std::uint16_t>(sum);
    }
}

void row_means_from(const std::uint16_t* acc, int C, int fx, const BlockDivider& div, std::size_t j0, std::size_t count,
                    std::uint8_t* out) {
    for (std::size_t j = j0; j < count; ++j) {
        const std::uint16_t* block = acc + j * static_cast<std::size_t>(fx) * C;
        for (int c = 0; c < C; ++c) {
            std::uint32_t sum = 0;
            for (int i = 0; i < fx; ++i) sum += block[i * C + c];
            out[j * C + c] = div.mean(sum);
        }
    }
}

void pair_means_from(const std::uint8_t* const* rows, int fy, int C, const BlockDivider& div, std::size_t j0,
                     std::size_t count, std::uint8_t* out) {
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

template <class D16>
HWY_INLINE hn::Vec<D16> means(D16 d16, hn::Vec<D16> v, const BlockDivider& div) {
    if (div.d == 1) return v;
    const auto u = hn::Add(v, hn::Set(d16, div.half));
    const auto t = hn::MulHigh(u, hn::Set(d16, div.magic));
    return hn::ShiftRightSame(hn::Add(t, hn::ShiftRight<1>(hn::Sub(u, t))), div.shift);
}

// Means (at most 255) into bytes: through signed lanes, which DemoteTo
// takes on every target.
template <class D8, class V16>
HWY_INLINE hn::Vec<D8> to_bytes(D8 d8, V16 v) {
    const hn::Rebind<std::int16_t, D8> di16;
    return hn::DemoteTo(d8, hn::BitCast(di16, v));
}

// The sums of adjacent pairs of lanes of [lo, hi): lane k is lane 2k plus
// lane 2k + 1 of the two vectors side by side.
#if HWY_TARGET != HWY_SCALAR  // one lane has no pairs
template <class D16>
HWY_INLINE hn::Vec<D16> pair_sums(D16 d16, hn::Vec<D16> lo, hn::Vec<D16> hi) {
    return hn::Add(hn::ConcatEven(d16, hi, lo), hn::ConcatOdd(d16, hi, lo));
}
#endif

void ColumnSums(const std::uint8_t* const* rows, int fy, std::size_t n, std::uint16_t* acc) {
    const hn::ScalableTag<std::uint16_t> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> d8;
    const std::size_t lanes = hn::Lanes(d16);
    const std::size_t full = n / lanes * lanes;
    for (std::size_t s = 0; s < full; s += lanes) {
        auto sum = hn::PromoteTo(d16, hn::LoadU(d8, rows[0] + s));
        for (int t = 1; t < fy; ++t) sum = hn::Add(sum, hn::PromoteTo(d16, hn::LoadU(d8, rows[t] + s)));
        hn::StoreU(sum, d16, acc + s);
    }
    column_sums_from(rows, fy, full, n, acc);
}

// Vectors for one channel (fx 1 or 2) and for three (fx 2, one plane per
// channel); other layouts and factors take the plain loops, their outputs
// being fewer per input sample.
void RowMeans(const std::uint16_t* acc, int C, int fx, const BlockDivider& div, std::size_t count, std::uint8_t* out) {
    const hn::ScalableTag<std::uint16_t> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> d8;
    const std::size_t lanes = hn::Lanes(d16);
    const std::size_t full = count / lanes * lanes;
    std::size_t done = 0;
    if (fx == 1) {
        const std::size_t n = count * C, whole = n / lanes * lanes;
        for (std::size_t s = 0; s < whole; s += lanes)
            hn::StoreU(to_bytes(d8, means(d16, hn::LoadU(d16, acc + s), div)), d8, out + s);
        return row_means_from(acc, 1, 1, div, whole, n, out);
    }
#if HWY_TARGET != HWY_SCALAR
    if (fx == 2 && C == 1) {
        for (std::size_t j = 0; j < full; j += lanes) {
            const auto v = pair_sums(d16, hn::LoadU(d16, acc + 2 * j), hn::LoadU(d16, acc + 2 * j + lanes));
            hn::StoreU(to_bytes(d8, means(d16, v, div)), d8, out + j);
        }
        done = full;
    } else if (fx == 2 && C == 3) {
        for (std::size_t j = 0; j < full; j += lanes) {
            hn::Vec<decltype(d16)> r0, g0, b0, r1, g1, b1;
            hn::LoadInterleaved3(d16, acc + 6 * j, r0, g0, b0);
            hn::LoadInterleaved3(d16, acc + 6 * j + 3 * lanes, r1, g1, b1);
            hn::StoreInterleaved3(to_bytes(d8, means(d16, pair_sums(d16, r0, r1), div)),
                                  to_bytes(d8, means(d16, pair_sums(d16, g0, g1), div)),
                                  to_bytes(d8, means(d16, pair_sums(d16, b0, b1), div)), d8, out + 3 * j);
        }
        done = full;
    }
#else
    (void)full;
#endif
    row_means_from(acc, C, fx, div, done, count, out);
}

void PairMeans(const std::uint8_t* const* rows, int fy, int C, const BlockDivider& div, std::size_t count,
               std::uint8_t* out) {
    std::size_t done = 0;
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<std::uint8_t> d8;
    const hn::Repartition<std::uint16_t, decltype(d8)> d16;  // a lane: two neighbours' bytes
    const hn::Rebind<std::uint8_t, decltype(d16)> half;      // a byte per 16-bit lane
    const std::size_t step = hn::Lanes(d16);                 // output pixels per vector
    const std::size_t full = count / step * step;
    const auto low = hn::Set(d16, 0xFF);
    const auto pairs = [&](hn::Vec<decltype(d8)> v) {
        const auto w = hn::BitCast(d16, v);
        return hn::Add(hn::And(w, low), hn::ShiftRight<8>(w));
    };
    if (C == 1) {
        for (std::size_t j = 0; j < full; j += step) {
            auto sum = pairs(hn::LoadU(d8, rows[0] + 2 * j));
            for (int t = 1; t < fy; ++t) sum = hn::Add(sum, pairs(hn::LoadU(d8, rows[t] + 2 * j)));
            hn::StoreU(to_bytes(half, means(d16, sum, div)), half, out + j);
        }
        done = full;
    } else if (C == 3) {
        for (std::size_t j = 0; j < full; j += step) {
            auto r = hn::Zero(d16), g = r, b = r;
            for (int t = 0; t < fy; ++t) {
                hn::Vec<decltype(d8)> rt, gt, bt;
                hn::LoadInterleaved3(d8, rows[t] + 6 * j, rt, gt, bt);
                r = hn::Add(r, pairs(rt));
                g = hn::Add(g, pairs(gt));
                b = hn::Add(b, pairs(bt));
            }
            hn::StoreInterleaved3(to_bytes(half, means(d16, r, div)), to_bytes(half, means(d16, g, div)),
                                  to_bytes(half, means(d16, b, div)), half, out + 3 * j);
        }
        done = full;
    }
#endif
    pair_means_from(rows, fy, C, div, done, count, out);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(ColumnSums);
HWY_EXPORT(RowMeans);
HWY_EXPORT(PairMeans);

void block_pair_means(const std::uint8_t* const* rows, int fy, int channels, const BlockDivider& div, std::size_t count,
                      std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(PairMeans)(rows, fy, channels, div, count, out);
}

void block_column_sums(const std::uint8_t* const* rows, int fy, std::size_t n, std::uint16_t* acc) {
    HWY_DYNAMIC_DISPATCH(ColumnSums)(rows, fy, n, acc);
}
void block_row_means(const std::uint16_t* acc, int channels, int fx, const BlockDivider& div, std::size_t count,
                     std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(RowMeans)(acc, channels, fx, div, count, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway

namespace imgpar::simd {

void block_column_sums(const std::uint8_t* const* rows, int fy, std::size_t n, std::uint16_t* acc) {
    column_sums_from(rows, fy, 0, n, acc);
}
void block_row_means(const std::uint16_t* acc, int channels, int fx, const BlockDivider& div, std::size_t count,
                     std::uint8_t* out) {
    row_means_from(acc, channels, fx, div, 0, count, out);
}
void block_pair_means(const std::uint8_t* const* rows, int fy, int channels, const BlockDivider& div, std::size_t count,
                      std::uint8_t* out) {
    pair_means_from(rows, fy, channels, div, 0, count, out);
}

}  // namespace imgpar::simd
#endif
