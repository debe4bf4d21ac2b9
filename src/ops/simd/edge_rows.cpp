// src/ops/simd/edge_rows.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), edge_lane for every
// sample.
#include "src/ops/simd/edge_rows.hpp"

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/edge_rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// round_sqrt_div_u8(m, d) for d a power of two: sqrt(m) * (1 / d) is exact
// after the square root, so contracting the multiply and the add into one
// fused operation (as compilers may) changes nothing. The conversion to int
// truncates, which is floor for these non-negative values.
template <class D32>
HWY_INLINE hn::Vec<D32> magnitude(D32 d32, hn::Vec<D32> m, float inv_d) {
    const hn::Rebind<float, D32> df;
    const auto q = hn::Mul(hn::Sqrt(hn::ConvertTo(df, m)), hn::Set(df, inv_d));
    return hn::Min(hn::ConvertTo(d32, hn::Add(q, hn::Set(df, 0.5f))), hn::Set(d32, 255));
}

// Weights of the operator pair: gx = [-A 0 A; -B 0 B; -A 0 A], gy its
// transpose; 1 / D the magnitude's divisor.
template <int A, int B>
HWY_INLINE void gradient_rows(const std::uint8_t* const* rows, std::size_t K, std::size_t full, float inv_d,
                              std::int32_t* HWY_RESTRICT out) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> du8;
    const std::size_t lanes = hn::Lanes(d32);
    const auto load = [&](const std::uint8_t* p) { return hn::PromoteTo(d32, hn::LoadU(du8, p)); };
    const auto times = [&](int w, hn::Vec<decltype(d32)> v) {
        if (w == 1) return v;
        if (w == 2) return hn::Add(v, v);
        return hn::Mul(hn::Set(d32, w), v);
    };
    const std::uint8_t *a = rows[0], *b = rows[1], *c = rows[2];
    const std::size_t K2 = 2 * K;
    for (std::size_t t = 0; t < full; t += lanes) {
        const auto a0 = load(a + t), a1 = load(a + t + K), a2 = load(a + t + K2);
        const auto c0 = load(c + t), c1 = load(c + t + K), c2 = load(c + t + K2);
        const auto b0 = load(b + t), b2 = load(b + t + K2);
        const auto gx = hn::Add(times(A, hn::Add(hn::Sub(a2, a0), hn::Sub(c2, c0))), times(B, hn::Sub(b2, b0)));
        const auto gy = hn::Add(times(A, hn::Add(hn::Sub(c0, a0), hn::Sub(c2, a2))), times(B, hn::Sub(c1, a1)));
        const auto m = hn::Add(hn::Mul(gx, gx), hn::Mul(gy, gy));
        hn::StoreU(magnitude(d32, m, inv_d), d32, out + t);
    }
}

void LaplacianRows(const std::uint8_t* const* rows, std::size_t K, std::size_t full, std::int32_t* HWY_RESTRICT out) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> du8;
    const std::size_t lanes = hn::Lanes(d32);
    const auto load = [&](const std::uint8_t* p) { return hn::PromoteTo(d32, hn::LoadU(du8, p)); };
    const std::uint8_t *a = rows[0], *b = rows[1], *c = rows[2];
    const auto top = hn::Set(d32, 255);
    for (std::size_t t = 0; t < full; t += lanes) {
        const auto around = hn::Add(hn::Add(load(a + t + K), load(c + t + K)), hn::Add(load(b + t), load(b + t + 2 * K)));
        const auto l = hn::Sub(around, hn::ShiftLeft<2>(load(b + t + K)));
        hn::StoreU(hn::Min(hn::Abs(l), top), d32, out + t);
    }
}

void EdgeRows(EdgeOperator op, const std::uint8_t* const* rows, int channels, std::size_t n, std::int32_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t lanes = hn::Lanes(d32);
    const std::size_t full = n / lanes * lanes, K = static_cast<std::size_t>(channels);
    switch (op) {
        case EdgeOperator::Sobel: gradient_rows<1, 2>(rows, K, full, 1.0f / 4, out); break;
        case EdgeOperator::Scharr: gradient_rows<3, 10>(rows, K, full, 1.0f / 16, out); break;
        case EdgeOperator::Laplacian: LaplacianRows(rows, K, full, out); break;
    }
    for (std::size_t t = full; t < n; ++t) out[t] = edge_lane(op, rows, channels, t);
}

void EdgeMagnitudes(const std::int32_t* m, std::size_t n, int d, std::int32_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t lanes = hn::Lanes(d32);
    const std::size_t full = n / lanes * lanes;
    const float inv_d = 1.0f / static_cast<float>(d);
    for (std::size_t t = 0; t < full; t += lanes) hn::StoreU(magnitude(d32, hn::LoadU(d32, m + t), inv_d), d32, out + t);
    for (std::size_t t = full; t < n; ++t) out[t] = round_sqrt_div_u8(m[t], d);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(EdgeRows);
HWY_EXPORT(EdgeMagnitudes);

void edge_rows(EdgeOperator op, const std::uint8_t* const* rows, int channels, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(EdgeRows)(op, rows, channels, n, out);
}
void edge_magnitudes(const std::int32_t* m, std::size_t n, int d, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(EdgeMagnitudes)(m, n, d, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the contract's functions, one sample at a time

namespace imgpar::simd {

void edge_rows(EdgeOperator op, const std::uint8_t* const* rows, int channels, std::size_t n, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t) out[t] = edge_lane(op, rows, channels, t);
}
void edge_magnitudes(const std::int32_t* m, std::size_t n, int d, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t) out[t] = round_sqrt_div_u8(m[t], d);
}

}  // namespace imgpar::simd
#endif
