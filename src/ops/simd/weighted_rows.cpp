// src/ops/simd/weighted_rows.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), the same sums in
// plain loops.
#include "src/ops/simd/weighted_rows.hpp"

#include <algorithm>

#include "src/ops/filter_math.hpp"

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/weighted_rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The sums of out[t0, t0 + len) (len a multiple of the vector's lanes),
// rounded, handed to store(t, vector). Term by term over a block short
// enough to stay in L1, so each term streams through one or two rows: term
// after term for each vector instead would read from 2r + 1 rows at once,
// more streams than the prefetchers follow (measured: 3x slower at r = 60).
// Samples widen to 32 bits as they load; symmetric taps add rows i and
// 2r - i before the one multiply they share.
template <class D32, typename T, class Store>
HWY_INLINE void block_sums(D32 d32, const WeightedRows& w, const T* const* rows, std::size_t t0, std::size_t len,
                           std::int32_t* HWY_RESTRICT acc, const Store& store) {
    const hn::Rebind<T, D32> dt;
    const std::size_t lanes = hn::Lanes(d32);
    const int r = w.radius;
    const auto load = [&](int i, std::size_t t) { return hn::PromoteTo(d32, hn::LoadU(dt, rows[i] + t0 + t)); };
    const auto centre = hn::Set(d32, w.taps[r]);
    for (std::size_t t = 0; t < len; t += lanes) hn::Store(hn::Mul(centre, load(r, t)), d32, acc + t);
    for (int i = 0; i < r; ++i) {
        if (w.symmetric) {
            const auto tap = hn::Set(d32, w.taps[i]);
            for (std::size_t t = 0; t < len; t += lanes)
                hn::Store(hn::Add(hn::Load(d32, acc + t), hn::Mul(tap, hn::Add(load(i, t), load(2 * r - i, t)))), d32, acc + t);
            continue;
        }
        for (const int k : {i, 2 * r - i}) {
            const auto tap = hn::Set(d32, w.taps[k]);
            for (std::size_t t = 0; t < len; t += lanes)
                hn::Store(hn::Add(hn::Load(d32, acc + t), hn::Mul(tap, load(k, t))), d32, acc + t);
        }
    }
    const auto add = hn::Set(d32, w.add);
    for (std::size_t t = 0; t < len; t += lanes) store(t0 + t, hn::ShiftRightSame(hn::Add(hn::Load(d32, acc + t), add), w.shift));
}

// Every full vector of [0, n) through block_sums, the rest one lane at a time.
template <typename T, typename Out, class Store>
HWY_INLINE void all_sums(const WeightedRows& w, const T* const* rows, std::size_t n, Out* out, const Store& store) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t lanes = hn::Lanes(d32);
    constexpr std::size_t kBlock = 1024;  // 4 KB of sums
    HWY_ALIGN std::int32_t acc[kBlock];
    const std::size_t full = n / lanes * lanes;
    for (std::size_t t0 = 0; t0 < full; t0 += kBlock) block_sums(d32, w, rows, t0, std::min(kBlock, full - t0), acc, store);
    for (std::size_t t = full; t < n; ++t) out[t] = static_cast<Out>(weighted_lane(w, rows, t));
}

#if HWY_TARGET != HWY_SCALAR
// The short symmetric kernels of the 8-bit image's Gaussian (radius up to
// 8: sigma up to about 2.7) in 16-bit lanes, twice as many per
// vector as block_sums' 32-bit ones. The terms, pair sums of mirrored rows
// (at most 2 * 2040, a 16-bit integer) and the centre row, are interleaved
// two by two so one widening multiply-add (x86: pmaddwd) adds two terms'
// products into 32 bits, where the sum is exact as the contract requires.
// Interleaving and the final narrowing both work per 128-bit block, so the
// lanes come out in order (the tests check every compiled target).
template <int R, class D16, typename T, class Store>
HWY_INLINE void pairwise_sums(D16 d16, const WeightedRows& w, const T* const* rows, std::size_t len, const Store& store) {
    constexpr int kTerms = R + 1, kPairs = (kTerms + 1) / 2;
    const hn::Repartition<std::int32_t, D16> d32;
    const hn::Repartition<std::uint32_t, D16> du32;
    const hn::Rebind<T, D16> dt;
    const hn::Rebind<std::uint16_t, D16> du16;
    const std::size_t lanes = hn::Lanes(d16);
    // Locals, not loads through w: the stores below could alias w's memory,
    // which would reload every tap and row pointer for each vector.
    const T* row[2 * R + 1];
    for (int i = 0; i <= 2 * R; ++i) row[i] = rows[i];
    std::uint32_t tap_pair[kPairs];  // the taps of terms 2p and 2p + 1 in alternate 16-bit lanes
    for (int p = 0; p < kPairs; ++p) {
        const std::uint32_t lo = static_cast<std::uint16_t>(w.taps[2 * p]);
        const std::uint32_t hi = 2 * p + 1 <= R ? static_cast<std::uint16_t>(w.taps[2 * p + 1]) : 0u;
        tap_pair[p] = lo | (hi << 16);
    }
    const int shift = w.shift;
    const auto add = hn::Set(d32, w.add);
    const auto load = [&](int i, std::size_t t) {
        if constexpr (sizeof(T) == 1)
            return hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(dt, row[i] + t)));
        else
            return hn::BitCast(d16, hn::LoadU(dt, row[i] + t));
    };
    // Term i: rows i and 2R - i (i < R), or the centre row (i == R).
    const auto term = [&](int i, std::size_t t) { return i < R ? hn::Add(load(i, t), load(2 * R - i, t)) : load(R, t); };
    for (std::size_t t = 0; t < len; t += lanes) {
        auto lo = hn::Zero(d32), hi = hn::Zero(d32), lo_odd = hn::Zero(d32), hi_odd = hn::Zero(d32);
        for (int p = 0; p < kPairs; ++p) {
            const auto a = term(2 * p, t);
            const auto b = 2 * p + 1 <= R ? term(2 * p + 1, t) : hn::Zero(d16);
            const auto taps = hn::BitCast(d16, hn::Set(du32, tap_pair[p]));
            lo = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveLower(d16, a, b), taps, lo, lo_odd);
            hi = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveUpper(d16, a, b), taps, hi, hi_odd);
        }
        lo = hn::ShiftRightSame(hn::Add(hn::RearrangeToOddPlusEven(lo, lo_odd), add), shift);
        hi = hn::ShiftRightSame(hn::Add(hn::RearrangeToOddPlusEven(hi, hi_odd), add), shift);
        store(t, hn::ReorderDemote2To(d16, lo, hi));
    }
}

// pairwise_sums with the radius a constant, so the terms unroll.
template <class D16, typename T, class Store>
HWY_INLINE bool pairwise_radius(D16 d16, const WeightedRows& w, const T* const* rows, std::size_t len, const Store& store) {
    switch (w.radius) {
        case 1: pairwise_sums<1>(d16, w, rows, len, store); return true;
        case 2: pairwise_sums<2>(d16, w, rows, len, store); return true;
        case 3: pairwise_sums<3>(d16, w, rows, len, store); return true;
        case 4: pairwise_sums<4>(d16, w, rows, len, store); return true;
        case 5: pairwise_sums<5>(d16, w, rows, len, store); return true;
        case 6: pairwise_sums<6>(d16, w, rows, len, store); return true;
        case 7: pairwise_sums<7>(d16, w, rows, len, store); return true;
        case 8: pairwise_sums<8>(d16, w, rows, len, store); return true;
        default: return false;
    }
}
#endif

// The 8-bit image's Gaussian rows through pairwise_sums where it applies
// (store16 takes 16-bit sums in order), else through all_sums (store32).
// Returns where the vectors stopped: out[t] from there on holds the plain
// sum, which unsharp replaces.
template <typename T, typename Out, class Store16, class Store32>
HWY_INLINE std::size_t narrow_sums(const WeightedRows& w, const T* const* rows, std::size_t n, Out* out,
                                   const Store16& store16, const Store32& store32) {
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<std::int16_t> d16;
    const std::size_t full = n / hn::Lanes(d16) * hn::Lanes(d16);
    if (w.symmetric && pairwise_radius(d16, w, rows, full, store16)) {
        for (std::size_t t = full; t < n; ++t) out[t] = static_cast<Out>(weighted_lane(w, rows, t));
        return full;
    }
#else
    (void)store16;
#endif
    all_sums(w, rows, n, out, store32);
    const hn::ScalableTag<std::int32_t> d32;
    return n / hn::Lanes(d32) * hn::Lanes(d32);
}

template <typename T>
HWY_INLINE void rows_to_u16(const WeightedRows& w, const T* const* rows, std::size_t n, std::uint16_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint16_t, decltype(d32)> d16;
    all_sums(w, rows, n, out, [&](std::size_t t, hn::Vec<decltype(d32)> v) { hn::StoreU(hn::DemoteTo(d16, v), d16, out + t); });
}

void RowsU8ToU16(const WeightedRows& w, const std::uint8_t* const* rows, std::size_t n, std::uint16_t* out) {
    const hn::ScalableTag<std::int16_t> d16;
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint16_t, decltype(d32)> d16_32;
    narrow_sums(
        w, rows, n, out, [&](std::size_t t, hn::Vec<decltype(d16)> v) { hn::StoreU(v, d16, reinterpret_cast<std::int16_t*>(out + t)); },
        [&](std::size_t t, hn::Vec<decltype(d32)> v) { hn::StoreU(hn::DemoteTo(d16_32, v), d16_32, out + t); });
}
void RowsU16ToU16(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint16_t* out) {
    rows_to_u16(w, rows, n, out);
}
void RowsU16ToI32(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    all_sums(w, rows, n, out, [&](std::size_t t, hn::Vec<decltype(d32)> v) { hn::StoreU(v, d32, out + t); });
}

void RowsU16ToU8(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint8_t* out) {
    const hn::ScalableTag<std::int16_t> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> d8_16;
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> d8;
    narrow_sums(
        w, rows, n, out, [&](std::size_t t, hn::Vec<decltype(d16)> v) { hn::StoreU(hn::DemoteTo(d8_16, v), d8_16, out + t); },
        [&](std::size_t t, hn::Vec<decltype(d32)> v) { hn::StoreU(hn::DemoteTo(d8, v), d8, out + t); });
}

// unsharp_output in lanes: floor_div(a, 256) is an arithmetic shift by 8,
// and the threshold test selects the source sample.
void UnsharpU16ToU8(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, const UnsharpRows& u,
                    std::uint8_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> d8;
    const auto amount = hn::Set(d32, u.amount_q8), level = hn::Set(d32, u.threshold_level);
    const auto half = hn::Set(d32, 128), zero = hn::Zero(d32), top = hn::Set(d32, 255);
    const auto unsharp = [&](std::size_t t, hn::Vec<decltype(d32)> blurred) {
        const auto x = hn::PromoteTo(d32, hn::LoadU(d8, u.x + t));
        const auto d = hn::Sub(x, blurred);
        const auto sharpened = hn::Add(x, hn::ShiftRight<8>(hn::Add(hn::Mul(amount, d), half)));
        const auto kept = hn::Lt(hn::Add(hn::Abs(d), hn::Abs(d)), level);
        const auto v = hn::IfThenElse(kept, x, hn::Min(hn::Max(sharpened, zero), top));
        hn::StoreU(hn::DemoteTo(d8, v), d8, out + t);
    };
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<std::int16_t> d16;
    const hn::Half<decltype(d16)> d16_half;
    const auto unsharp16 = [&](std::size_t t, hn::Vec<decltype(d16)> blurred) {
        unsharp(t, hn::PromoteTo(d32, hn::LowerHalf(d16_half, blurred)));
        unsharp(t + hn::Lanes(d32), hn::PromoteTo(d32, hn::UpperHalf(d16_half, blurred)));
    };
#else
    const auto unsharp16 = [](std::size_t, auto) {};
#endif
    // The scalar tail wrote the blur; the unsharp value replaces it.
    for (std::size_t t = narrow_sums(w, rows, n, out, unsharp16, unsharp); t < n; ++t)
        out[t] = static_cast<std::uint8_t>(unsharp_output(u.x[t], weighted_lane(w, rows, t), u.amount_q8, u.threshold_level));
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(RowsU8ToU16);
HWY_EXPORT(RowsU16ToU16);
HWY_EXPORT(RowsU16ToI32);
HWY_EXPORT(RowsU16ToU8);
HWY_EXPORT(UnsharpU16ToU8);

void weighted_rows(const WeightedRows& w, const std::uint8_t* const* rows, std::size_t n, std::uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(RowsU8ToU16)(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(RowsU16ToU16)(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(RowsU16ToI32)(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(RowsU16ToU8)(w, rows, n, out);
}
void unsharp_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, const UnsharpRows& u,
                  std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(UnsharpU16ToU8)(w, rows, n, u, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same sums, one lane at a time

namespace imgpar::simd {
namespace {

template <typename T, typename Out>
void plain_rows(const WeightedRows& w, const T* const* rows, std::size_t n, Out* out) {
    for (std::size_t t = 0; t < n; ++t) out[t] = static_cast<Out>(weighted_lane(w, rows, t));
}

}  // namespace

void weighted_rows(const WeightedRows& w, const std::uint8_t* const* rows, std::size_t n, std::uint16_t* out) {
    plain_rows(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint16_t* out) {
    plain_rows(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    plain_rows(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint8_t* out) {
    plain_rows(w, rows, n, out);
}
void unsharp_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, const UnsharpRows& u,
                  std::uint8_t* out) {
    for (std::size_t t = 0; t < n; ++t)
        out[t] = static_cast<std::uint8_t>(unsharp_output(u.x[t], weighted_lane(w, rows, t), u.amount_q8, u.threshold_level));
}

}  // namespace imgpar::simd
#endif
