// src/ops/simd/resize_columns.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway, the same sums in plain loops.
#include "src/ops/simd/resize_columns.hpp"

#include <algorithm>

#include "src/ops/resize_math.hpp"

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/resize_columns.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The sums of [s0, s0 + len) (len a multiple of the lanes) into acc, tap by
// tap over a block short enough to stay in L1, so each tap streams one row.
template <class D32>
HWY_INLINE void block_sums(D32 d32, const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t s0,
                           std::size_t len, std::int32_t* HWY_RESTRICT acc) {
    const hn::Rebind<std::uint8_t, D32> d8;
    const std::size_t lanes = hn::Lanes(d32);
    const auto load = [&](int t, std::size_t s) { return hn::PromoteTo(d32, hn::LoadU(d8, rows[t] + s0 + s)); };
    const auto first = hn::Set(d32, w[0]);
    for (std::size_t s = 0; s < len; s += lanes) hn::Store(hn::Mul(first, load(0, s)), d32, acc + s);
    for (int t = 1; t < taps; ++t) {
        const auto wt = hn::Set(d32, w[t]);
        for (std::size_t s = 0; s < len; s += lanes)
            hn::Store(hn::Add(hn::Mul(wt, load(t, s)), hn::Load(d32, acc + s)), d32, acc + s);
    }
}

// Every full vector of [0, n) through block_sums and finish; returns where
// the lanes that do not fill a vector start.
template <class Finish>
HWY_INLINE std::size_t columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n,
                               const Finish& finish) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t lanes = hn::Lanes(d32);
    constexpr std::size_t kBlock = 2048;  // 8 KB of sums
    HWY_ALIGN std::int32_t acc[kBlock];
    const std::size_t full = n / lanes * lanes;
    for (std::size_t s0 = 0; s0 < full; s0 += kBlock) {
        const std::size_t len = std::min(kBlock, full - s0);
        block_sums(d32, w, taps, rows, s0, len, acc);
        for (std::size_t s = 0; s < len; s += lanes) finish(s0 + s, hn::Load(d32, acc + s));
    }
    return full;
}

void ColumnsToI16(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, int shift,
                  std::int16_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::int16_t, decltype(d32)> d16;
    const auto half = hn::Set(d32, shift ? 1 << (shift - 1) : 0);
    const std::size_t tail = columns(w, taps, rows, n, [&](std::size_t s, hn::Vec<decltype(d32)> v) {
        // Arithmetic shift: floor for negative sums, as first_pass_value.
        hn::StoreU(hn::DemoteTo(d16, hn::ShiftRightSame(hn::Add(v, half), shift)), d16, out + s);
    });
    for (std::size_t s = tail; s < n; ++s) out[s] = static_cast<std::int16_t>(column_value(w, taps, rows, s, shift));
}

void RowsOfI16(const std::int32_t* w, int taps, const std::int16_t* first, std::size_t stride, std::size_t n,
               std::int32_t* sums) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::int16_t, decltype(d32)> d16;
    const std::size_t lanes = hn::Lanes(d32);
    const std::size_t full = n / lanes * lanes;
    for (std::size_t s = 0; s < full; s += lanes) {
        auto acc = hn::Zero(d32);
        for (int t = 0; t < taps; ++t)
            acc = hn::Add(acc, hn::Mul(hn::Set(d32, w[t]), hn::PromoteTo(d32, hn::LoadU(d16, first + t * stride + s))));
        hn::StoreU(acc, d32, sums + s);
    }
    for (std::size_t s = full; s < n; ++s) sums[s] = row_sum(w, taps, first, stride, s);
}

void ColumnsToI32(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t tail =
        columns(w, taps, rows, n, [&](std::size_t s, hn::Vec<decltype(d32)> v) { hn::StoreU(v, d32, out + s); });
    for (std::size_t s = tail; s < n; ++s) out[s] = column_sum(w, taps, rows, s);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(ColumnsToI16);
HWY_EXPORT(ColumnsToI32);
HWY_EXPORT(RowsOfI16);

void resize_rows(const std::int32_t* w, int taps, const std::int16_t* first, std::size_t stride, std::size_t n,
                 std::int32_t* sums) {
    HWY_DYNAMIC_DISPATCH(RowsOfI16)(w, taps, first, stride, n, sums);
}

void resize_columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, int shift,
                    std::int16_t* out) {
    HWY_DYNAMIC_DISPATCH(ColumnsToI16)(w, taps, rows, n, shift, out);
}
void resize_columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(ColumnsToI32)(w, taps, rows, n, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same sums, one lane at a time

namespace imgpar::simd {

void resize_columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, int shift,
                    std::int16_t* out) {
    for (std::size_t s = 0; s < n; ++s) out[s] = static_cast<std::int16_t>(column_value(w, taps, rows, s, shift));
}
void resize_columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out) {
    for (std::size_t s = 0; s < n; ++s) out[s] = column_sum(w, taps, rows, s);
}
void resize_rows(const std::int32_t* w, int taps, const std::int16_t* first, std::size_t stride, std::size_t n,
                 std::int32_t* sums) {
    for (std::size_t s = 0; s < n; ++s) sums[s] = row_sum(w, taps, first, stride, s);
}

}  // namespace imgpar::simd
#endif
