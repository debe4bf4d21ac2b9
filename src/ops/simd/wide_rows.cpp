// src/ops/simd/wide_rows.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), the contract's
// functions for every sample.
#include "src/ops/simd/wide_rows.hpp"

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/wide_rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// min(top, floor(sqrt(gx^2 + gy^2) / d + 1/2)) in double lanes (exact: see
// wide_rows.hpp). The products are exact, so a fused multiply-add changes
// nothing; nor does it in q, whose product by 1 / d is exact.
template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<std::int32_t, DF>> magnitude(DF df, hn::Vec<hn::Rebind<std::int32_t, DF>> gx,
                                                           hn::Vec<hn::Rebind<std::int32_t, DF>> gy, double inv_d) {
    const hn::Rebind<std::int32_t, DF> di;
    const auto x = hn::PromoteTo(df, gx), y = hn::PromoteTo(df, gy);
    const auto m = hn::MulAdd(x, x, hn::Mul(y, y));
    const auto q = hn::MulAdd(hn::Sqrt(m), hn::Set(df, inv_d), hn::Set(df, 0.5));
    return hn::DemoteTo(di, hn::Min(q, hn::Set(df, static_cast<double>(kWideTop))));
}

// Weights of the operator pair: gx = [-A 0 A; -B 0 B; -A 0 A], gy its
// transpose. Lanes as many as the double vector's.
template <int A, int B>
HWY_INLINE void gradient_rows(const std::uint16_t* const* rows, std::size_t K, std::size_t full, double inv_d,
                              std::int32_t* HWY_RESTRICT out) {
    const hn::ScalableTag<double> df;
    const hn::Rebind<std::int32_t, decltype(df)> d32;
    const hn::Rebind<std::uint16_t, decltype(df)> du16;
    const std::size_t lanes = hn::Lanes(df);
    const auto load = [&](const std::uint16_t* p) { return hn::PromoteTo(d32, hn::LoadU(du16, p)); };
    const auto times = [&](int w, hn::Vec<decltype(d32)> v) {
        if (w == 1) return v;
        if (w == 2) return hn::Add(v, v);
        return hn::Mul(hn::Set(d32, w), v);
    };
    const std::uint16_t *a = rows[0], *b = rows[1], *c = rows[2];
    const std::size_t K2 = 2 * K;
    for (std::size_t t = 0; t < full; t += lanes) {
        const auto a0 = load(a + t), a1 = load(a + t + K), a2 = load(a + t + K2);
        const auto c0 = load(c + t), c1 = load(c + t + K), c2 = load(c + t + K2);
        const auto b0 = load(b + t), b2 = load(b + t + K2);
        const auto gx = hn::Add(times(A, hn::Add(hn::Sub(a2, a0), hn::Sub(c2, c0))), times(B, hn::Sub(b2, b0)));
        const auto gy = hn::Add(times(A, hn::Add(hn::Sub(c0, a0), hn::Sub(c2, a2))), times(B, hn::Sub(c1, a1)));
        hn::StoreU(magnitude(df, gx, gy, inv_d), d32, out + t);
    }
}

HWY_INLINE void laplacian_rows(const std::uint16_t* const* rows, std::size_t K, std::size_t full, std::int32_t* HWY_RESTRICT out) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint16_t, decltype(d32)> du16;
    const std::size_t lanes = hn::Lanes(d32);
    const auto load = [&](const std::uint16_t* p) { return hn::PromoteTo(d32, hn::LoadU(du16, p)); };
    const std::uint16_t *a = rows[0], *b = rows[1], *c = rows[2];
    const auto top = hn::Set(d32, kWideTop);
    for (std::size_t t = 0; t < full; t += lanes) {
        const auto around = hn::Add(hn::Add(load(a + t + K), load(c + t + K)), hn::Add(load(b + t), load(b + t + 2 * K)));
        const auto l = hn::Sub(around, hn::ShiftLeft<2>(load(b + t + K)));
        hn::StoreU(hn::Min(hn::Abs(l), top), d32, out + t);
    }
}

void WideEdgeRows(EdgeOperator op, const std::uint16_t* const* rows, int channels, std::size_t n, std::int32_t* out) {
    const std::size_t K = static_cast<std::size_t>(channels);
    std::size_t full = 0;
    if (op == EdgeOperator::Laplacian) {
        const std::size_t lanes = hn::Lanes(hn::ScalableTag<std::int32_t>());
        full = n / lanes * lanes;
        laplacian_rows(rows, K, full, out);
    } else {
        const std::size_t lanes = hn::Lanes(hn::ScalableTag<double>());
        full = n / lanes * lanes;
        if (op == EdgeOperator::Sobel)
            gradient_rows<1, 2>(rows, K, full, 1.0 / 4, out);
        else
            gradient_rows<3, 10>(rows, K, full, 1.0 / 16, out);
    }
    for (std::size_t t = full; t < n; ++t) out[t] = wide_edge_lane(op, rows, channels, t);
}

void WideEdgeMagnitudes(EdgeOperator op, const std::int32_t* gx, const std::int32_t* gy, std::size_t n, std::int32_t* out) {
    const hn::ScalableTag<double> df;
    const hn::Rebind<std::int32_t, decltype(df)> d32;
    const std::size_t lanes = hn::Lanes(df), full = n / lanes * lanes;
    const double inv_d = op == EdgeOperator::Scharr ? 1.0 / 16 : 1.0 / 4;
    for (std::size_t t = 0; t < full; t += lanes)
        hn::StoreU(magnitude(df, hn::LoadU(d32, gx + t), hn::LoadU(d32, gy + t), inv_d), d32, out + t);
    for (std::size_t t = full; t < n; ++t) out[t] = edge_output_wide(op, gx[t], gy[t]);
}

// custom_value of a double vector of exact sums (custom_rows.cpp's
// round_sums_double: the same operations, so the same bits).
template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<std::int32_t, DF>> rounded(DF df, const CustomRows& c, hn::Vec<DF> s) {
    const hn::Rebind<std::int32_t, DF> di;
    const auto v = hn::Add(hn::Div(s, hn::Set(df, c.denominator)), hn::Set(df, c.offset));
    const auto clamped = hn::Min(hn::Max(hn::Add(v, hn::Set(df, 0.5)), hn::Zero(df)), hn::Set(df, static_cast<double>(c.top)));
    return hn::DemoteTo(di, clamped);
}

// 32-bit sums of out[t, t + 4 * lanes), four accumulators in registers (as
// custom_rows' four_vectors), then rounded in double lanes in place.
HWY_INLINE void int32_sums(const CustomRows& c, const std::uint16_t* const* rows, std::size_t full, std::int32_t* HWY_RESTRICT out) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint16_t, decltype(d32)> du16;
    const std::size_t lanes = hn::Lanes(d32);
    const auto load = [&](const std::uint16_t* p) { return hn::PromoteTo(d32, hn::LoadU(du16, p)); };
    std::size_t t = 0;
    for (; t + 4 * lanes <= full; t += 4 * lanes) {
        auto s0 = hn::Zero(d32), s1 = hn::Zero(d32), s2 = hn::Zero(d32), s3 = hn::Zero(d32);
        for (std::size_t k = 0; k < c.tap_count; ++k) {
            const CustomTap& tap = c.taps[k];
            const std::uint16_t* p = rows[tap.row] + tap.offset + t;
            const auto w = hn::Set(d32, tap.weight);
            s0 = hn::Add(s0, hn::Mul(w, load(p)));
            s1 = hn::Add(s1, hn::Mul(w, load(p + lanes)));
            s2 = hn::Add(s2, hn::Mul(w, load(p + 2 * lanes)));
            s3 = hn::Add(s3, hn::Mul(w, load(p + 3 * lanes)));
        }
        hn::StoreU(s0, d32, out + t);
        hn::StoreU(s1, d32, out + t + lanes);
        hn::StoreU(s2, d32, out + t + 2 * lanes);
        hn::StoreU(s3, d32, out + t + 3 * lanes);
    }
    for (; t < full; t += lanes) {
        auto s = hn::Zero(d32);
        for (std::size_t k = 0; k < c.tap_count; ++k)
            s = hn::Add(s, hn::Mul(hn::Set(d32, c.taps[k].weight), load(rows[c.taps[k].row] + c.taps[k].offset + t)));
        hn::StoreU(s, d32, out + t);
    }
    const hn::ScalableTag<double> df;  // half the 32-bit lanes: full is a multiple of both
    const hn::Rebind<std::int32_t, decltype(df)> dh;
    for (std::size_t u = 0; u < full; u += hn::Lanes(df))
        hn::StoreU(rounded(df, c, hn::PromoteTo(df, hn::LoadU(dh, out + u))), dh, out + u);
}

// Sums in double lanes (exact: wide_rows.hpp), two accumulators, rounded at once.
HWY_INLINE void double_sums(const CustomRows& c, const std::uint16_t* const* rows, std::size_t full, std::int32_t* HWY_RESTRICT out) {
    const hn::ScalableTag<double> df;
    const hn::Rebind<std::int32_t, decltype(df)> d32;
    const hn::Rebind<std::uint16_t, decltype(df)> du16;
    const std::size_t lanes = hn::Lanes(df);
    const auto load = [&](const std::uint16_t* p) { return hn::PromoteTo(df, hn::PromoteTo(d32, hn::LoadU(du16, p))); };
    std::size_t t = 0;
    for (; t + 2 * lanes <= full; t += 2 * lanes) {
        auto s0 = hn::Zero(df), s1 = hn::Zero(df);
        for (std::size_t k = 0; k < c.tap_count; ++k) {
            const CustomTap& tap = c.taps[k];
            const std::uint16_t* p = rows[tap.row] + tap.offset + t;
            const auto w = hn::Set(df, static_cast<double>(tap.weight));
            s0 = hn::MulAdd(w, load(p), s0);
            s1 = hn::MulAdd(w, load(p + lanes), s1);
        }
        hn::StoreU(rounded(df, c, s0), d32, out + t);
        hn::StoreU(rounded(df, c, s1), d32, out + t + lanes);
    }
    for (; t < full; t += lanes) {
        auto s = hn::Zero(df);
        for (std::size_t k = 0; k < c.tap_count; ++k)
            s = hn::MulAdd(hn::Set(df, static_cast<double>(c.taps[k].weight)), load(rows[c.taps[k].row] + c.taps[k].offset + t), s);
        hn::StoreU(rounded(df, c, s), d32, out + t);
    }
}

void WideCustomRows(const CustomRows& c, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    std::size_t full = 0;
#if HWY_TARGET != HWY_SCALAR  // one lane: no half vector for the rounding
    if (wide_sums_fit_int32(c)) {
        const std::size_t lanes = hn::Lanes(hn::ScalableTag<std::int32_t>());
        full = n / lanes * lanes;
        int32_sums(c, rows, full, out);
    } else
#endif
    {
        const std::size_t lanes = hn::Lanes(hn::ScalableTag<double>());
        full = n / lanes * lanes;
        double_sums(c, rows, full, out);
    }
    for (std::size_t t = full; t < n; ++t)
        out[t] = custom_value(static_cast<double>(wide_custom_lane_sum(c, rows, t)), c.denominator, c.offset, c.top);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(WideEdgeRows);
HWY_EXPORT(WideEdgeMagnitudes);
HWY_EXPORT(WideCustomRows);

void wide_edge_rows(EdgeOperator op, const std::uint16_t* const* rows, int channels, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(WideEdgeRows)(op, rows, channels, n, out);
}
void wide_edge_magnitudes(EdgeOperator op, const std::int32_t* gx, const std::int32_t* gy, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(WideEdgeMagnitudes)(op, gx, gy, n, out);
}
void wide_custom_rows(const CustomRows& c, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(WideCustomRows)(c, rows, n, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the contract's functions, one sample at a time

namespace imgpar::simd {

void wide_edge_rows(EdgeOperator op, const std::uint16_t* const* rows, int channels, std::size_t n, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t) out[t] = wide_edge_lane(op, rows, channels, t);
}
void wide_edge_magnitudes(EdgeOperator op, const std::int32_t* gx, const std::int32_t* gy, std::size_t n, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t) out[t] = edge_output_wide(op, gx[t], gy[t]);
}
void wide_custom_rows(const CustomRows& c, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t)
        out[t] = custom_value(static_cast<double>(wide_custom_lane_sum(c, rows, t)), c.denominator, c.offset, c.top);
}

}  // namespace imgpar::simd
#endif
