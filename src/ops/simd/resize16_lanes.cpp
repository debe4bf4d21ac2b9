// src/ops/simd/resize16_lanes.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway, the same integers in plain loops.
#include "src/ops/simd/resize16_lanes.hpp"

#include <algorithm>
#include <vector>

#include "src/ops/resize_math.hpp"

// Compiled once, though foreach_target.h includes this file again per target.
#ifndef IMGPAR_SIMD_RESIZE16_LANES_PLAIN
#define IMGPAR_SIMD_RESIZE16_LANES_PLAIN
namespace imgpar::simd {
namespace {

// The plain loops, in 64-bit integers: the vector code's tails and the
// whole of a build without Highway.
void columns_from(const std::int32_t* w, int taps, const std::uint16_t* const* rows, std::size_t s0, std::size_t n,
                  int shift, std::int32_t* out) {
    for (std::size_t s = s0; s < n; ++s) {
        std::int64_t sum = shift ? std::int64_t{1} << (shift - 1) : 0;
        for (int t = 0; t < taps; ++t) sum += static_cast<std::int64_t>(w[t]) * rows[t][s];
        out[s] = static_cast<std::int32_t>(floor_shift<std::int64_t>(sum, shift));
    }
}

// Sums [s0, column) of one output pixel into rounded samples.
void rows_from(const std::int32_t* w, int taps, const std::int32_t* first, std::size_t column, std::size_t s0,
               const ExactDivider& divider, std::uint16_t* out) {
    for (std::size_t s = s0; s < column; ++s) {
        std::int64_t sum = 0;
        for (int t = 0; t < taps; ++t) sum += static_cast<std::int64_t>(w[t]) * first[t * column + s];
        out[s] = static_cast<std::uint16_t>(resize_output(sum, divider, 65535));
    }
}

// Each output pixel's samples from `sums` (rounded, the band's order) to
// their rows.
void scatter(const std::uint16_t* sums, std::size_t column, int channels, std::size_t j, std::uint16_t* const* out) {
    const std::size_t C = static_cast<std::size_t>(channels), rows = column / C;
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < C; ++c) out[r][j * C + c] = sums[r * C + c];
}

// The band's outputs with `make(first, w, live, sums)` rounding one output
// pixel's column of sums.
template <class Make>
void band_from(const std::int32_t* start, const std::int32_t* weight, int taps, int in, int count,
               const std::int32_t* band, std::size_t column, int channels, std::uint16_t* const* out, const Make& make) {
    std::vector<std::uint16_t> sums(column);
    for (int j = 0; j < count; ++j) {
        const int first = start[j], live = std::min(taps, in - first);
        make(band + static_cast<std::size_t>(first) * column, weight + static_cast<std::size_t>(j) * taps, live, sums.data());
        scatter(sums.data(), column, channels, static_cast<std::size_t>(j), out);
    }
}

}  // namespace
}  // namespace imgpar::simd
#endif  // IMGPAR_SIMD_RESIZE16_LANES_PLAIN

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/resize16_lanes.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Four vectors of sums at a time, every tap added in registers (the taps'
// rows stream side by side; the 8-bit pass's sums in an L1 block cost a
// load and a store a tap more), then rounded as first_pass_value16.
void Columns16(const std::int32_t* w, int taps, const std::uint16_t* const* rows, std::size_t n, int shift,
               std::int32_t* out) {
    const hn::ScalableTag<double> df;
    const hn::Rebind<std::int32_t, decltype(df)> di32;
    const hn::Rebind<std::uint16_t, decltype(df)> du16;
    const std::size_t lanes = hn::Lanes(df);
    const auto half = hn::Set(df, shift ? static_cast<double>(std::int64_t{1} << (shift - 1)) : 0.0);
    const auto scale = hn::Set(df, 1.0 / static_cast<double>(std::int64_t{1} << shift));  // a power of two: exact
    const auto load = [&](int t, std::size_t s) {
        return hn::PromoteTo(df, hn::PromoteTo(di32, hn::LoadU(du16, rows[t] + s)));
    };
    const auto store = [&](hn::Vec<decltype(df)> v, std::size_t s) {
        hn::StoreU(hn::DemoteTo(di32, hn::Floor(hn::Mul(hn::Add(v, half), scale))), di32, out + s);
    };
    std::size_t s = 0;
    for (; s + 4 * lanes <= n; s += 4 * lanes) {
        auto a0 = hn::Zero(df), a1 = a0, a2 = a0, a3 = a0;
        for (int t = 0; t < taps; ++t) {
            const auto wt = hn::Set(df, static_cast<double>(w[t]));
            a0 = hn::MulAdd(wt, load(t, s), a0);
            a1 = hn::MulAdd(wt, load(t, s + lanes), a1);
            a2 = hn::MulAdd(wt, load(t, s + 2 * lanes), a2);
            a3 = hn::MulAdd(wt, load(t, s + 3 * lanes), a3);
        }
        store(a0, s);
        store(a1, s + lanes);
        store(a2, s + 2 * lanes);
        store(a3, s + 3 * lanes);
    }
    for (; s + lanes <= n; s += lanes) {
        auto a = hn::Zero(df);
        for (int t = 0; t < taps; ++t) a = hn::MulAdd(hn::Set(df, static_cast<double>(w[t])), load(t, s), a);
        store(a, s);
    }
    columns_from(w, taps, rows, s, n, shift, out);
}

// clamp(round(sum / d), 0, 65535) of exact sums: the sum clamped to
// [0, 65536 d] first (the result is the same: 0 at or below 0, 65535 from
// 65535.5 d up), then q = floor(m / 2d) with m = 2 sum + d. A power of two
// d (every plan without area) is a multiply and a floor: floor((v + d / 2)
// / d), exact. Any other d is estimated with 1 / (2d) and corrected: q 2d
// and (q + 1) 2d stay below 2^53, so the comparisons are exact.
template <bool kPowerOfTwo, class DF>
HWY_INLINE hn::Vec<DF> rounded(DF df, hn::Vec<DF> sum, double d) {
    const auto v = hn::Min(hn::Max(sum, hn::Zero(df)), hn::Set(df, 65536.0 * d));
    if constexpr (kPowerOfTwo) {
        const auto q = hn::Floor(hn::Mul(hn::Add(v, hn::Set(df, d / 2)), hn::Set(df, 1.0 / d)));
        return hn::Min(q, hn::Set(df, 65535.0));
    } else {
        const auto two_d = hn::Set(df, 2 * d), one = hn::Set(df, 1.0);
        const auto m = hn::Add(hn::Add(v, v), hn::Set(df, d));
        auto q = hn::Floor(hn::Mul(m, hn::Set(df, 1.0 / (2 * d))));
        q = hn::IfThenElse(hn::Gt(hn::Mul(q, two_d), m), hn::Sub(q, one), q);
        q = hn::IfThenElse(hn::Le(hn::Mul(hn::Add(q, one), two_d), m), hn::Add(q, one), q);
        return hn::Min(q, hn::Set(df, 65535.0));
    }
}

template <bool kPowerOfTwo>
void band(const std::int32_t* start, const std::int32_t* weight, int taps, int in, int count, const std::int32_t* band,
          std::size_t column, int channels, std::uint64_t d, std::uint16_t* const* out) {
    const hn::ScalableTag<double> df;
    const hn::Rebind<std::int32_t, decltype(df)> di32;
    const hn::Rebind<std::uint16_t, decltype(df)> du16;
    const std::size_t lanes = hn::Lanes(df);
    const std::size_t full = column / lanes * lanes;
    const double dd = static_cast<double>(d);
    const ExactDivider divider = ExactDivider::of(d);
    band_from(start, weight, taps, in, count, band, column, channels, out,
              [&](const std::int32_t* first, const std::int32_t* w, int live, std::uint16_t* sums) {
                  for (std::size_t s = 0; s < full; s += lanes) {
                      auto acc = hn::Zero(df);
                      for (int t = 0; t < live; ++t)
                          acc = hn::MulAdd(hn::Set(df, static_cast<double>(w[t])),
                                           hn::PromoteTo(df, hn::LoadU(di32, first + t * column + s)), acc);
                      hn::StoreU(hn::DemoteTo(du16, hn::DemoteTo(di32, rounded<kPowerOfTwo>(df, acc, dd))), du16, sums + s);
                  }
                  rows_from(w, live, first, column, full, divider, sums);
              });
}

void Band16(const std::int32_t* start, const std::int32_t* weight, int taps, int in, int count,
            const std::int32_t* band_samples, std::size_t column, int channels, std::uint64_t d,
            std::uint16_t* const* out) {
    if ((d & (d - 1)) == 0)
        band<true>(start, weight, taps, in, count, band_samples, column, channels, d, out);
    else
        band<false>(start, weight, taps, in, count, band_samples, column, channels, d, out);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(Columns16);
HWY_EXPORT(Band16);

void resize_columns16(const std::int32_t* w, int taps, const std::uint16_t* const* rows, std::size_t n, int shift,
                      std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(Columns16)(w, taps, rows, n, shift, out);
}
void resize_band16(const std::int32_t* start, const std::int32_t* weight, int taps, int in, int count,
                   const std::int32_t* band, std::size_t column, int channels, std::uint64_t d,
                   std::uint16_t* const* out) {
    HWY_DYNAMIC_DISPATCH(Band16)(start, weight, taps, in, count, band, column, channels, d, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same integers, one lane at a time

namespace imgpar::simd {

void resize_columns16(const std::int32_t* w, int taps, const std::uint16_t* const* rows, std::size_t n, int shift,
                      std::int32_t* out) {
    columns_from(w, taps, rows, 0, n, shift, out);
}
void resize_band16(const std::int32_t* start, const std::int32_t* weight, int taps, int in, int count,
                   const std::int32_t* band, std::size_t column, int channels, std::uint64_t d,
                   std::uint16_t* const* out) {
    const ExactDivider divider = ExactDivider::of(d);
    band_from(start, weight, taps, in, count, band, column, channels, out,
              [&](const std::int32_t* first, const std::int32_t* w, int live, std::uint16_t* sums) {
                  rows_from(w, live, first, column, 0, divider, sums);
              });
}

}  // namespace imgpar::simd
#endif
