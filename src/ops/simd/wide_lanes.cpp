// src/ops/simd/wide_lanes.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), the contract's
// functions for every pixel.
#include "src/ops/simd/wide_lanes.hpp"

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/wide_lanes.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// unpremultiply_wide(p, a) in 32-bit lanes: the float quotient and one
// integer correction (why it is exact: wide_lanes.hpp). D = max(2a, 1) keeps
// the quotient finite where a is 0, whose lanes are 0 anyway.
template <class D32>
HWY_INLINE hn::Vec<D32> unpremultiply(D32 d32, hn::Vec<D32> p, hn::Vec<D32> a) {
    const hn::Rebind<float, D32> df;
    const auto zero = hn::Zero(d32);
    const auto num = hn::Add(hn::Mul(p, hn::Set(d32, 510)), a);
    const auto den = hn::Max(hn::Add(a, a), hn::Set(d32, 1));
    const auto quotient = hn::Div(hn::ConvertTo(df, num), hn::ConvertTo(df, den));
    auto q = hn::ConvertTo(d32, hn::Min(quotient, hn::Set(df, 256.0f)));
    const auto r = hn::Sub(num, hn::Mul(q, den));
    q = hn::Add(q, hn::VecFromMask(d32, hn::Lt(r, zero)));                              // -1 where r < 0
    q = hn::Sub(q, hn::VecFromMask(d32, hn::Gt(r, hn::Sub(den, hn::Set(d32, 1)))));     // +1 where r >= D
    return hn::IfThenZeroElse(hn::Eq(a, zero), hn::Min(q, hn::Set(d32, 255)));
}

// unpremultiply_wide(p, 255 a) for alpha bytes a, given r = 1 / (2a) in float
// (one division per pixel for all its lanes): the quotient is (2p + a) / (2a),
// taken as trunc((2p + a + 1/4) * r) (why it is exact: wide_lanes.hpp).
template <class D32>
HWY_INLINE hn::Vec<D32> unpremultiply_by_byte(D32 d32, hn::Vec<D32> p, hn::Vec<D32> a, hn::Vec<hn::Rebind<float, D32>> r) {
    const hn::Rebind<float, D32> df;
    const auto num = hn::Add(hn::ConvertTo(df, hn::Add(hn::Add(p, p), a)), hn::Set(df, 0.25f));
    const auto q = hn::ConvertTo(d32, hn::Min(hn::Mul(num, r), hn::Set(df, 255.0f)));
    return hn::IfThenZeroElse(hn::Eq(a, hn::Zero(d32)), q);
}

// alpha_byte: (A + 127) / 255 as a multiply and shift, exact for A + 127 <
// 65536 (the test goes through every A), and below 2^31 on the way.
template <class D32>
HWY_INLINE hn::Vec<D32> alpha_bytes(D32 d32, hn::Vec<D32> a) {
    return hn::ShiftRight<23>(hn::Mul(hn::Add(a, hn::Set(d32, 127)), hn::Set(d32, 32897)));
}

// unsharp_output_wide(x, b, amount_q8, threshold_level): floor_div by 256 is
// the arithmetic shift.
template <class D32>
HWY_INLINE hn::Vec<D32> unsharp(D32 d32, hn::Vec<D32> x, hn::Vec<D32> b, const KeptAlpha& k) {
    const auto d = hn::Sub(x, b);
    const auto ad = hn::Abs(d);
    const auto keep = hn::Lt(hn::Add(ad, ad), hn::Set(d32, 255 * k.threshold_level));
    const auto moved = hn::ShiftRight<8>(hn::Add(hn::Mul(hn::Set(d32, k.amount_q8), d), hn::Set(d32, 128)));
    const auto v = hn::Min(hn::Max(hn::Add(x, moved), hn::Zero(d32)), hn::Set(d32, kWideTop));
    return hn::IfThenElse(keep, x, v);
}

template <bool kWithAlpha>
HWY_INLINE void four_channel_lanes(const std::uint8_t* src, std::size_t pixels, std::uint16_t* out, std::size_t& x) {
    const hn::ScalableTag<std::uint16_t> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> du8;
    const std::size_t lanes = hn::Lanes(d16);
    for (; x + lanes <= pixels; x += lanes) {
        hn::Vec<decltype(du8)> r, g, b, a;
        hn::LoadInterleaved4(du8, src + 4 * x, r, g, b, a);
        const auto a16 = hn::PromoteTo(d16, a);
        const auto pr = hn::Mul(hn::PromoteTo(d16, r), a16);
        const auto pg = hn::Mul(hn::PromoteTo(d16, g), a16);
        const auto pb = hn::Mul(hn::PromoteTo(d16, b), a16);
        if (kWithAlpha)
            hn::StoreInterleaved4(pr, pg, pb, hn::Mul(a16, hn::Set(d16, 255)), d16, out + 4 * x);
        else
            hn::StoreInterleaved3(pr, pg, pb, d16, out + 3 * x);
    }
}

template <bool kWithAlpha>
HWY_INLINE void two_channel_lanes(const std::uint8_t* src, std::size_t pixels, std::uint16_t* out, std::size_t& x) {
    const hn::ScalableTag<std::uint16_t> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> du8;
    const std::size_t lanes = hn::Lanes(d16);
    for (; x + lanes <= pixels; x += lanes) {
        hn::Vec<decltype(du8)> g, a;
        hn::LoadInterleaved2(du8, src + 2 * x, g, a);
        const auto a16 = hn::PromoteTo(d16, a);
        const auto p = hn::Mul(hn::PromoteTo(d16, g), a16);
        if (kWithAlpha)
            hn::StoreInterleaved2(p, hn::Mul(a16, hn::Set(d16, 255)), d16, out + 2 * x);
        else
            hn::StoreU(p, d16, out + x);
    }
}

// luma601 of the P lanes needs 32 bits (77 * 65025 > 2^16).
HWY_INLINE void luma_lanes(const std::uint8_t* src, std::size_t pixels, std::uint16_t* out, std::size_t& x) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> du8;
    const hn::Rebind<std::uint16_t, decltype(d32)> du16;
    const std::size_t lanes = hn::Lanes(d32);
    for (; x + lanes <= pixels; x += lanes) {
        hn::Vec<decltype(du8)> r, g, b, a;
        hn::LoadInterleaved4(du8, src + 4 * x, r, g, b, a);
        const auto a32 = hn::PromoteTo(d32, a);
        const auto pr = hn::Mul(hn::PromoteTo(d32, r), a32);
        const auto pg = hn::Mul(hn::PromoteTo(d32, g), a32);
        const auto pb = hn::Mul(hn::PromoteTo(d32, b), a32);
        auto l = hn::Add(hn::Mul(pr, hn::Set(d32, 77)), hn::Mul(pg, hn::Set(d32, 150)));
        l = hn::Add(l, hn::Add(hn::Mul(pb, hn::Set(d32, 29)), hn::Set(d32, 128)));
        hn::StoreU(hn::DemoteTo(du16, hn::ShiftRight<8>(l)), du16, out + x);
    }
}

void WideLanesRow(WideLanes lanes, const std::uint8_t* src, int channels, std::size_t pixels, std::uint16_t* out) {
    std::size_t x = 0;
    if (lanes == WideLanes::Luma)
        luma_lanes(src, pixels, out, x);
    else if (channels == 4)
        lanes == WideLanes::WithAlpha ? four_channel_lanes<true>(src, pixels, out, x)
                                      : four_channel_lanes<false>(src, pixels, out, x);
    else
        lanes == WideLanes::WithAlpha ? two_channel_lanes<true>(src, pixels, out, x)
                                      : two_channel_lanes<false>(src, pixels, out, x);
    const int count = wide_lane_count(lanes, channels);
    for (; x < pixels; ++x) wide_pixel_lanes(lanes, src + x * channels, channels, out + x * count);
}

// The values are in the output's layout already (a lane per byte): each
// lane's A is the last lane of its pixel, spread over the pixel's lanes
// (Broadcast<3> per 128-bit block, one RGBA pixel; DupOdd for gray+alpha).
void FilteredRowBytes(const std::int32_t* values, int channels, std::size_t pixels, std::uint8_t* out) {
    std::size_t x = 0;
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> du8;
    const std::size_t lanes = hn::Lanes(d32);
    if (lanes % 4 == 0) {
        const auto last = hn::Set(d32, channels - 1);
        const auto is_alpha = hn::Eq(hn::And(hn::Iota(d32, 0), last), last);
        const std::size_t n = pixels * static_cast<std::size_t>(channels), full = n / lanes * lanes;
        for (std::size_t t = 0; t < full; t += lanes) {
            const auto v = hn::LoadU(d32, values + t);
            const auto a = channels == 4 ? hn::Broadcast<3>(v) : hn::DupOdd(v);
            const auto alpha = alpha_bytes(d32, a);
            const auto colour = hn::IfThenZeroElse(hn::Eq(alpha, hn::Zero(d32)), unpremultiply(d32, v, a));
            hn::StoreU(hn::DemoteTo(du8, hn::IfThenElse(is_alpha, alpha, colour)), du8, out + t);
        }
        x = full / static_cast<std::size_t>(channels);
    }
#endif
    for (; x < pixels; ++x) filtered_pixel_bytes(values + x * channels, channels, out + x * channels);
}

// Kept alpha, `kLanes` lanes per pixel from `kChannels` source bytes.
template <int kLanes, int kChannels, bool kUnsharp>
HWY_INLINE void kept_vectors(const KeptAlpha& k, const std::int32_t* values, const std::uint8_t* src, std::size_t pixels,
                             std::uint8_t* out, std::size_t& x) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> du8;
    const std::size_t lanes = hn::Lanes(d32);
    for (; x + lanes <= pixels; x += lanes) {
        hn::Vec<decltype(du8)> s[4];
        if (kChannels == 4)
            hn::LoadInterleaved4(du8, src + 4 * x, s[0], s[1], s[2], s[3]);
        else
            hn::LoadInterleaved2(du8, src + 2 * x, s[0], s[1]);
        const auto a8 = s[kChannels - 1];
        const auto a = hn::PromoteTo(d32, a8);
        hn::Vec<decltype(d32)> p[3];
        if (kLanes == 3)
            hn::LoadInterleaved3(d32, values + 3 * x, p[0], p[1], p[2]);
        else
            p[0] = hn::LoadU(d32, values + x);
        const hn::Rebind<float, decltype(d32)> df;
        const auto r = hn::Div(hn::Set(df, 1.0f), hn::ConvertTo(df, hn::Max(hn::Add(a, a), hn::Set(d32, 1))));
        hn::Vec<decltype(du8)> o[3];
        for (int c = 0; c < kLanes; ++c) {
            if (kUnsharp) p[c] = unsharp(d32, hn::Mul(hn::PromoteTo(d32, s[c]), a), p[c], k);
            o[c] = hn::DemoteTo(du8, unpremultiply_by_byte(d32, p[c], a, r));
        }
        if (kLanes == 3)
            hn::StoreInterleaved4(o[0], o[1], o[2], a8, du8, out + 4 * x);
        else
            hn::StoreInterleaved2(o[0], a8, du8, out + 2 * x);
    }
}

void KeptRowBytes(const KeptAlpha& k, const std::int32_t* values, const std::uint8_t* src, std::size_t pixels,
                  std::uint8_t* out) {
    std::size_t x = 0;
    if (k.lanes == 3)
        k.unsharp ? kept_vectors<3, 4, true>(k, values, src, pixels, out, x) : kept_vectors<3, 4, false>(k, values, src, pixels, out, x);
    else if (k.channels == 4)
        kept_vectors<1, 4, false>(k, values, src, pixels, out, x);  // gray edges
    else
        k.unsharp ? kept_vectors<1, 2, true>(k, values, src, pixels, out, x) : kept_vectors<1, 2, false>(k, values, src, pixels, out, x);
    const std::size_t L = static_cast<std::size_t>(k.lanes), C = static_cast<std::size_t>(k.channels);
    for (; x < pixels; ++x) kept_pixel_bytes(k, values + x * L, src + x * C, out + x * (L + 1));
}

void UnpremultiplyLanes(const std::int32_t* p, const std::int32_t* a_wide, std::size_t n, std::int32_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t lanes = hn::Lanes(d32);
    std::size_t t = 0;
    for (; t + lanes <= n; t += lanes)
        hn::StoreU(unpremultiply(d32, hn::LoadU(d32, p + t), hn::LoadU(d32, a_wide + t)), d32, out + t);
    for (; t < n; ++t) out[t] = unpremultiply_wide(p[t], a_wide[t]);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(WideLanesRow);
HWY_EXPORT(FilteredRowBytes);
HWY_EXPORT(KeptRowBytes);
HWY_EXPORT(UnpremultiplyLanes);

void wide_lanes_row(WideLanes lanes, const std::uint8_t* src, int channels, std::size_t pixels, std::uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(WideLanesRow)(lanes, src, channels, pixels, out);
}
void filtered_row_bytes(const std::int32_t* values, int channels, std::size_t pixels, std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(FilteredRowBytes)(values, channels, pixels, out);
}
void kept_row_bytes(const KeptAlpha& k, const std::int32_t* values, const std::uint8_t* src, std::size_t pixels,
                    std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(KeptRowBytes)(k, values, src, pixels, out);
}
void unpremultiply_lanes(const std::int32_t* p, const std::int32_t* a_wide, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(UnpremultiplyLanes)(p, a_wide, n, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the contract's functions, one pixel at a time

namespace imgpar::simd {

void wide_lanes_row(WideLanes lanes, const std::uint8_t* src, int channels, std::size_t pixels, std::uint16_t* out) {
    const int count = wide_lane_count(lanes, channels);
    for (std::size_t x = 0; x < pixels; ++x) wide_pixel_lanes(lanes, src + x * channels, channels, out + x * count);
}
void filtered_row_bytes(const std::int32_t* values, int channels, std::size_t pixels, std::uint8_t* out) {
    for (std::size_t x = 0; x < pixels; ++x) filtered_pixel_bytes(values + x * channels, channels, out + x * channels);
}
void kept_row_bytes(const KeptAlpha& k, const std::int32_t* values, const std::uint8_t* src, std::size_t pixels,
                    std::uint8_t* out) {
    const std::size_t L = static_cast<std::size_t>(k.lanes), C = static_cast<std::size_t>(k.channels);
    for (std::size_t x = 0; x < pixels; ++x) kept_pixel_bytes(k, values + x * L, src + x * C, out + x * (L + 1));
}
void unpremultiply_lanes(const std::int32_t* p, const std::int32_t* a_wide, std::size_t n, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t) out[t] = unpremultiply_wide(p[t], a_wide[t]);
}

}  // namespace imgpar::simd
#endif
