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

inline void mean_lanes(const std::uint32_t* sums, const std::uint8_t* v, std::size_t x0, std::size_t x1,
                       std::int32_t n, int offset, std::uint8_t* out) {
    for (std::size_t x = x0; x < x1; ++x) out[x] = static_cast<std::uint8_t>(mean_decision(sums[x], v[x], n, offset));
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

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(SlideColumns);
HWY_EXPORT(MeanDecisionRow);

void slide_columns(const std::uint8_t* enter, const std::uint8_t* leave, std::size_t n, std::uint32_t* sums,
                   std::uint32_t* squares) {
    HWY_DYNAMIC_DISPATCH(SlideColumns)(enter, leave, n, sums, squares);
}
void mean_decision_row(const std::uint32_t* sums, const std::uint8_t* v, std::size_t count, std::int32_t n,
                       int offset, std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(MeanDecisionRow)(sums, v, count, n, offset, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same values, one lane at a time

namespace imgpar::simd {

void slide_columns(const std::uint8_t* enter, const std::uint8_t* leave, std::size_t n, std::uint32_t* sums,
                   std::uint32_t* squares) {
    slide_lanes(enter, leave, 0, n, sums, squares);
}
void mean_decision_row(const std::uint32_t* sums, const std::uint8_t* v, std::size_t count, std::int32_t n,
                       int offset, std::uint8_t* out) {
    mean_lanes(sums, v, 0, count, n, offset, out);
}

}  // namespace imgpar::simd
#endif
