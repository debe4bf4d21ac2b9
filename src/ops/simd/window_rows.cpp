// src/ops/simd/window_rows.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), the same values in
// plain loops.
#include "src/ops/simd/window_rows.hpp"

// The plain loops both builds use (the vector code for its tails), defined
// once: foreach_target.h includes this file again per target.
#ifndef IMGPAR_SIMD_WINDOW_ROWS_PLAIN
#define IMGPAR_SIMD_WINDOW_ROWS_PLAIN
namespace imgpar::simd {
namespace {

inline void slide_lanes(const std::uint8_t* enter, const std::uint8_t* leave, std::size_t x0, std::size_t x1,
                        std::uint32_t* sums, std::uint32_t* squares) {
    for (std::size_t x = x0; x < x1; ++x) {
        const std::uint32_t e = enter[x], l = leave[x];
        sums[x] += e - l;
        if (squares) squares[x] += e * e - l * l;
    }
}

inline void running_lanes(const std::uint32_t* columns, int r, std::size_t x0, std::size_t x1, std::uint32_t* out) {
    std::uint32_t sum = out[x0 - 1];
    for (std::size_t x = x0; x < x1; ++x) out[x] = sum += columns[x + r] - columns[x - r - 1];
}

inline void mean_lanes(const std::uint32_t* sums, const std::uint8_t* v, std::size_t x0, std::size_t x1,
                       std::int32_t n, int offset, std::uint8_t* out) {
    for (std::size_t x = x0; x < x1; ++x) out[x] = static_cast<std::uint8_t>(mean_decision(sums[x], v[x], n, offset));
}

inline void level_lanes(const std::uint32_t* sums, const std::uint32_t* squares, const std::uint8_t* v,
                        std::size_t x0, std::size_t x1, const AdaptiveParams& p, std::uint8_t* out) {
    for (std::size_t x = x0; x < x1; ++x) out[x] = static_cast<std::uint8_t>(adaptive_decision_fast(v[x], sums[x], squares[x], p));
}

}  // namespace
}  // namespace imgpar::simd
#endif  // IMGPAR_SIMD_WINDOW_ROWS_PLAIN

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/window_rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// 32-bit lanes, their samples loaded as quarter-width byte vectors.
using DU32 = hn::ScalableTag<std::uint32_t>;
using DI32 = hn::RebindToSigned<DU32>;
using D8 = hn::Rebind<std::uint8_t, DU32>;

void SlideColumns(const std::uint8_t* enter, const std::uint8_t* leave, std::size_t n, std::uint32_t* sums,
                  std::uint32_t* squares) {
    const DU32 d;
    const D8 d8;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t x = 0;
    for (; x + lanes <= n; x += lanes) {
        const auto e = hn::PromoteTo(d, hn::LoadU(d8, enter + x));
        const auto l = hn::PromoteTo(d, hn::LoadU(d8, leave + x));
        hn::StoreU(hn::Add(hn::LoadU(d, sums + x), hn::Sub(e, l)), d, sums + x);
        if (squares)
            hn::StoreU(hn::Add(hn::LoadU(d, squares + x), hn::Sub(hn::Mul(e, e), hn::Mul(l, l))), d, squares + x);
    }
    slide_lanes(enter, leave, x, n, sums, squares);
}

void RunningWindowSums(const std::uint32_t* columns, int r, std::size_t x0, std::size_t x1, std::uint32_t* out) {
    const DU32 d;
    const DI32 di;
    const std::size_t lanes = hn::Lanes(d);
    const auto iota = hn::Iota(di, 0);
    const auto last = hn::IndicesFromVec(d, hn::Set(di, static_cast<std::int32_t>(lanes - 1)));
    std::size_t x = x0;
    if (x + lanes <= x1) {
        auto carry = hn::Set(d, out[x0 - 1]);
        for (; x + lanes <= x1; x += lanes) {
            auto v = hn::Sub(hn::LoadU(d, columns + x + r), hn::LoadU(d, columns + x - r - 1));
            for (std::size_t k = 1; k < lanes; k *= 2) {
                const auto shift = hn::Sub(iota, hn::Set(di, static_cast<std::int32_t>(k)));
                const auto from = hn::IndicesFromVec(d, hn::Max(shift, hn::Zero(di)));
                const auto has = hn::RebindMask(d, hn::Gt(shift, hn::Set(di, -1)));
                v = hn::Add(v, hn::IfThenElseZero(has, hn::TableLookupLanes(v, from)));
            }
            v = hn::Add(v, carry);
            hn::StoreU(v, d, out + x);
            carry = hn::TableLookupLanes(v, last);
        }
    }
    running_lanes(columns, r, x, x1, out);
}

void MeanDecisionRow(const std::uint32_t* sums, const std::uint8_t* v, std::size_t count, std::int32_t n, int offset,
                     std::uint8_t* out) {
    const DI32 d;
    const hn::Rebind<std::uint8_t, DI32> d8;
    const std::size_t lanes = hn::Lanes(d);
    const auto vn = hn::Set(d, n);
    const auto voffset = hn::Set(d, offset);
    const auto zero = hn::Zero(d);
    const auto top = hn::Set(d, 256);
    const auto one = hn::Set(d, 1);
    const auto white = hn::Set(d, 255);
    std::size_t x = 0;
    for (; x + lanes <= count; x += lanes) {
        const auto t = hn::Min(hn::Max(hn::Add(hn::PromoteTo(d, hn::LoadU(d8, v + x)), voffset), zero), top);
        const auto twice_sum = hn::ShiftLeft<1>(hn::BitCast(d, hn::LoadU(DU32(), sums + x)));
        const auto bound = hn::Mul(vn, hn::Sub(hn::ShiftLeft<1>(t), one));
        hn::StoreU(hn::DemoteTo(d8, hn::IfThenElseZero(hn::Lt(twice_sum, bound), white)), d8, out + x);
    }
    mean_lanes(sums, v, x, count, n, offset, out);
}

#if HWY_TARGET == HWY_SCALAR
void LevelDecisionRow(const std::uint32_t* sums, const std::uint32_t* squares, const std::uint8_t* v,
                      std::size_t count, const AdaptiveParams& p, std::uint8_t* out) {
    level_lanes(sums, squares, v, 0, count, p, out);
}
#else
// adaptive_decision_fast's estimate, lane by lane. The variance's numerator
// n * squares - sum^2 is exact in doubles (both terms are integers below
// 2^53 for windows up to 257), so narrowing it to float rounds once, as the
// scalar code's conversion from 64-bit integers does.
void LevelDecisionRow(const std::uint32_t* sums, const std::uint32_t* squares, const std::uint8_t* v,
                      std::size_t count, const AdaptiveParams& p, std::uint8_t* out) {
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Half<decltype(di)> dih;
    const hn::Half<decltype(df)> dfh;
    const hn::Repartition<double, decltype(df)> dd;
    const hn::Rebind<std::uint8_t, decltype(df)> d8;
    const std::size_t lanes = hn::Lanes(df);
    const auto n = hn::Set(dd, static_cast<double>(p.n));
    const auto two32 = hn::Set(dd, 4294967296.0);
    // Exact n * squares - sum^2 of half the lanes; squares above 2^31 read
    // as negative 32-bit integers and get 2^32 back.
    const auto spread = [&](hn::Vec<decltype(dih)> sum, hn::Vec<decltype(dih)> squares_bits) {
        const auto s = hn::PromoteTo(dd, sum);
        auto q = hn::PromoteTo(dd, squares_bits);
        q = hn::IfThenElse(hn::Lt(q, hn::Zero(dd)), hn::Add(q, two32), q);
        return hn::DemoteTo(dfh, hn::Sub(hn::Mul(n, q), hn::Mul(s, s)));
    };
    const auto inv_n = hn::Set(df, p.inv_n), inv_n2 = hn::Set(df, p.inv_n2), inv_r = hn::Set(df, p.inv_r);
    const float k_single = p.k_single;
    const auto k = hn::Set(df, k_single), abs_k = hn::Set(df, k_single < 0 ? -k_single : k_single);
    const auto one = hn::Set(df, 1.0f), tolerance = hn::Set(df, 64.0f / 16777216.0f), zero = hn::Zero(df);
    const auto white = hn::Set(di, 255);
    const bool niblack = p.method == AdaptiveMethod::Niblack;
    std::size_t x = 0;
    for (; x + lanes <= count; x += lanes) {
        const auto sum = hn::LoadU(di, reinterpret_cast<const std::int32_t*>(sums + x));  // below 2^31
        const auto squares_bits = hn::LoadU(di, reinterpret_cast<const std::int32_t*>(squares + x));
        const auto numerator = hn::Combine(df, spread(hn::UpperHalf(dih, sum), hn::UpperHalf(dih, squares_bits)),
                                           spread(hn::LowerHalf(dih, sum), hn::LowerHalf(dih, squares_bits)));
        const auto m = hn::Mul(hn::ConvertTo(df, sum), inv_n);
        const auto s = hn::Sqrt(hn::Max(hn::Mul(numerator, inv_n2), zero));
        hn::Vec<decltype(df)> level, bound;
        if (niblack) {
            level = hn::Sub(m, hn::Mul(k, s));
            bound = hn::Mul(tolerance, hn::Add(m, hn::Mul(abs_k, s)));
        } else {
            const auto t = hn::Mul(s, inv_r);
            level = hn::Mul(m, hn::Add(one, hn::Mul(k, hn::Sub(t, one))));
            bound = hn::Mul(hn::Mul(tolerance, m), hn::Add(one, hn::Mul(abs_k, hn::Add(t, one))));
        }
        const auto d = hn::Sub(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, v + x))), level);
        const auto above = hn::Gt(d, bound);
        const auto below = hn::Lt(d, hn::Neg(bound));
        hn::StoreU(hn::DemoteTo(d8, hn::IfThenElseZero(hn::RebindMask(di, above), white)), d8, out + x);
        if (!hn::AllTrue(df, hn::Or(above, below))) level_lanes(sums, squares, v, x, x + lanes, p, out);
    }
    level_lanes(sums, squares, v, x, count, p, out);
}
#endif

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(SlideColumns);
HWY_EXPORT(MeanDecisionRow);
HWY_EXPORT(RunningWindowSums);
HWY_EXPORT(LevelDecisionRow);

void slide_columns(const std::uint8_t* enter, const std::uint8_t* leave, std::size_t n, std::uint32_t* sums,
                   std::uint32_t* squares) {
    HWY_DYNAMIC_DISPATCH(SlideColumns)(enter, leave, n, sums, squares);
}
void running_window_sums(const std::uint32_t* columns, int r, std::size_t x0, std::size_t x1, std::uint32_t* out) {
    HWY_DYNAMIC_DISPATCH(RunningWindowSums)(columns, r, x0, x1, out);
}
void mean_decision_row(const std::uint32_t* sums, const std::uint8_t* v, std::size_t count, std::int32_t n,
                       int offset, std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(MeanDecisionRow)(sums, v, count, n, offset, out);
}
void level_decision_row(const std::uint32_t* sums, const std::uint32_t* squares, const std::uint8_t* v,
                        std::size_t count, const AdaptiveParams& p, std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(LevelDecisionRow)(sums, squares, v, count, p, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same values, one lane at a time

namespace imgpar::simd {

void slide_columns(const std::uint8_t* enter, const std::uint8_t* leave, std::size_t n, std::uint32_t* sums,
                   std::uint32_t* squares) {
    slide_lanes(enter, leave, 0, n, sums, squares);
}
void running_window_sums(const std::uint32_t* columns, int r, std::size_t x0, std::size_t x1, std::uint32_t* out) {
    running_lanes(columns, r, x0, x1, out);
}
void mean_decision_row(const std::uint32_t* sums, const std::uint8_t* v, std::size_t count, std::int32_t n,
                       int offset, std::uint8_t* out) {
    mean_lanes(sums, v, 0, count, n, offset, out);
}
void level_decision_row(const std::uint32_t* sums, const std::uint32_t* squares, const std::uint8_t* v,
                        std::size_t count, const AdaptiveParams& p, std::uint8_t* out) {
    level_lanes(sums, squares, v, 0, count, p, out);
}

}  // namespace imgpar::simd
#endif
