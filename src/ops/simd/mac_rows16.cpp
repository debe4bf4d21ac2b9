// src/ops/simd/mac_rows16.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time: the widening 32-bit multiply (pmulld and wider) is what a
// baseline x86-64 build cannot vectorise by itself. Without Highway
// (IMGPAR_HAVE_HWY undefined), the same sums in a plain loop.
#include "src/ops/simd/mac_rows16.hpp"

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/mac_rows16.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void MacU16(std::uint32_t* HWY_RESTRICT acc, const std::uint16_t* HWY_RESTRICT q, std::uint32_t t, std::size_t n) {
    const hn::ScalableTag<std::uint32_t> d32;
    const hn::Rebind<std::uint16_t, decltype(d32)> d16;
    const std::size_t lanes = hn::Lanes(d32);
    const auto vt = hn::Set(d32, t);
    std::size_t k = 0;
    for (; k + lanes <= n; k += lanes) {
        const auto v = hn::PromoteTo(d32, hn::LoadU(d16, q + k));
        hn::StoreU(hn::Add(hn::LoadU(d32, acc + k), hn::Mul(vt, v)), d32, acc + k);
    }
    for (; k < n; ++k) acc[k] += t * q[k];
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(MacU16);

void mac_row(std::uint32_t* acc, const std::uint16_t* q, std::uint32_t t, std::size_t n) {
    HWY_DYNAMIC_DISPATCH(MacU16)(acc, q, t, n);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same sums, one lane at a time

namespace imgpar::simd {

void mac_row(std::uint32_t* acc, const std::uint16_t* q, std::uint32_t t, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) acc[k] += t * q[k];
}

}  // namespace imgpar::simd
#endif
