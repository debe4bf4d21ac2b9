// src/ops/simd/custom_rows.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), the same sums and
// custom_value in plain loops.
#include "src/ops/simd/custom_rows.hpp"

#include <algorithm>
#include <cstring>

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/custom_rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// custom_value in double lanes: q = S / denominator and v = q + offset as
// filter_math.hpp computes them, then clamp(floor(v + 0.5), 0, top). That is
// custom_value's result for every v: where v >= 0 it is the same formula, and
// where v < 0 custom_value's ceil(v - 0.5) is at most 0, clamped to 0, as is
// floor(v + 0.5) <= 0. Clamping v + 0.5 to [0, top] before truncating to int
// gives the same integer as clamping its floor.
HWY_INLINE void round_sums_double(const CustomRows& c, const std::int32_t* sums, std::size_t len, std::int32_t* out) {
    const hn::ScalableTag<double> df;
    const hn::Rebind<std::int32_t, decltype(df)> di;
    const auto denominator = hn::Set(df, c.denominator), offset = hn::Set(df, c.offset);
    const auto zero = hn::Zero(df), half = hn::Set(df, 0.5), top = hn::Set(df, static_cast<double>(c.top));
    for (std::size_t t = 0; t < len; t += hn::Lanes(df)) {
        const auto s = hn::PromoteTo(df, hn::LoadU(di, sums + t));
        const auto v = hn::Add(hn::Div(s, denominator), offset);
        hn::StoreU(hn::DemoteTo(di, hn::Min(hn::Max(hn::Add(v, half), zero), top)), di, out + t);
    }
}

// The float candidate of choose_rounding. Not inlined: choose_rounding
// checks this very code, whatever a compiler would fuse or reorder inlined.
HWY_NOINLINE void round_sums_float(const CustomRows& c, const std::int32_t* sums, std::size_t len, std::int32_t* out) {
    const hn::ScalableTag<float> df;
    const hn::Rebind<std::int32_t, decltype(df)> di;
    const auto inverse = hn::Set(df, static_cast<float>(1.0 / c.denominator));
    const auto offset = hn::Set(df, static_cast<float>(c.offset));
    const auto zero = hn::Zero(df), half = hn::Set(df, 0.5f), top = hn::Set(df, static_cast<float>(c.top));
    for (std::size_t t = 0; t < len; t += hn::Lanes(df)) {
        const auto v = hn::MulAdd(hn::ConvertTo(df, hn::LoadU(di, sums + t)), inverse, offset);
        hn::StoreU(hn::ConvertTo(di, hn::Min(hn::Max(hn::Add(v, half), zero), top)), di, out + t);
    }
}

// len: a multiple of the int32 vector's lanes.
HWY_INLINE void round_sums(const CustomRows& c, const std::int32_t* sums, std::size_t len, std::int32_t* out) {
    if (c.float_rounding)
        round_sums_float(c, sums, len, out);
    else
        round_sums_double(c, sums, len, out);
}

bool ChooseRounding(CustomRows& c, std::int32_t smin, std::int32_t smax) {
    c.float_rounding = false;
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t lanes = hn::Lanes(d32);
    constexpr std::size_t kChunk = 4096;  // a multiple of every target's lanes
    HWY_ALIGN std::int32_t sums[kChunk];
    HWY_ALIGN std::int32_t got[kChunk];
    CustomRows candidate = c;
    for (std::int64_t s0 = smin; s0 <= smax; s0 += kChunk) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(kChunk, smax - s0 + 1));
        const std::size_t padded = (n + lanes - 1) / lanes * lanes;
        for (std::size_t t = 0; t < padded; ++t) sums[t] = static_cast<std::int32_t>(s0 + static_cast<std::int64_t>(std::min(t, n - 1)));
        round_sums_float(candidate, sums, padded, got);
        for (std::size_t t = 0; t < n; ++t)
            if (got[t] != custom_value(static_cast<double>(sums[t]), c.denominator, c.offset, c.top)) return false;
    }
    c.float_rounding = true;
    return true;
}

// Sums of out[t, t + 4 * lanes): four accumulators in registers, every tap
// added to all four, so each tap's weight is set once per 4 vectors and the
// sums never leave registers until rounded.
HWY_INLINE void four_vectors(const CustomRows& c, const std::uint8_t* const* rows, std::size_t t,
                             std::int32_t* HWY_RESTRICT sums) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> du8;
    const std::size_t lanes = hn::Lanes(d32);
    auto s0 = hn::Zero(d32), s1 = hn::Zero(d32), s2 = hn::Zero(d32), s3 = hn::Zero(d32);
    for (std::size_t k = 0; k < c.tap_count; ++k) {
        const CustomTap& tap = c.taps[k];
        const std::uint8_t* p = rows[tap.row] + tap.offset + t;
        const auto w = hn::Set(d32, tap.weight);
        s0 = hn::Add(s0, hn::Mul(w, hn::PromoteTo(d32, hn::LoadU(du8, p))));
        s1 = hn::Add(s1, hn::Mul(w, hn::PromoteTo(d32, hn::LoadU(du8, p + lanes))));
        s2 = hn::Add(s2, hn::Mul(w, hn::PromoteTo(d32, hn::LoadU(du8, p + 2 * lanes))));
        s3 = hn::Add(s3, hn::Mul(w, hn::PromoteTo(d32, hn::LoadU(du8, p + 3 * lanes))));
    }
    hn::StoreU(s0, d32, sums);
    hn::StoreU(s1, d32, sums + lanes);
    hn::StoreU(s2, d32, sums + 2 * lanes);
    hn::StoreU(s3, d32, sums + 3 * lanes);
}

HWY_INLINE void one_vector(const CustomRows& c, const std::uint8_t* const* rows, std::size_t t,
                           std::int32_t* HWY_RESTRICT sums) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint8_t, decltype(d32)> du8;
    auto s = hn::Zero(d32);
    for (std::size_t k = 0; k < c.tap_count; ++k) {
        const CustomTap& tap = c.taps[k];
        s = hn::Add(s, hn::Mul(hn::Set(d32, tap.weight), hn::PromoteTo(d32, hn::LoadU(du8, rows[tap.row] + tap.offset + t))));
    }
    hn::StoreU(s, d32, sums);
}

// A row of out: sums four vectors at a time (four), then one (one), rounded
// in place once; the last samples one lane at a time (lane_sum).
template <typename Row, class Four, class One, class LaneSum>
HWY_INLINE void custom_row(const CustomRows& c, const Row* const* rows, std::size_t n, std::int32_t* out, const Four& four,
                           const One& one, const LaneSum& lane_sum) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t lanes = hn::Lanes(d32);
    const std::size_t full = n / lanes * lanes;
    std::size_t t = 0;
    for (; t + 4 * lanes <= full; t += 4 * lanes) four(c, rows, t, out + t);
    for (; t < full; t += lanes) one(c, rows, t, out + t);
    round_sums(c, out, full, out);  // in place, once per row
    for (; t < n; ++t) out[t] = custom_value(static_cast<double>(lane_sum(c, rows, t)), c.denominator, c.offset, c.top);
}

void CustomRowsImpl(const CustomRows& c, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out) {
    custom_row(c, rows, n, out, four_vectors, one_vector, custom_lane_sum);
}

#if HWY_TARGET != HWY_SCALAR
// The pair taps' sums of out[t, t + 4 * lanes), as four_vectors: each pair
// row vector holds (s[x], s[x + channels]) per 32-bit lane, and one widening
// multiply-add by (w0, w1) adds both taps' products into the lane. sum1
// collects what targets other than x86 keep apart until the end.
HWY_INLINE void four_pair_vectors(const CustomRows& c, const std::int16_t* const* rows, std::size_t t,
                                  std::int32_t* HWY_RESTRICT sums) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Repartition<std::int16_t, decltype(d32)> d16;
    const std::size_t lanes = hn::Lanes(d32);
    auto s0 = hn::Zero(d32), s1 = hn::Zero(d32), s2 = hn::Zero(d32), s3 = hn::Zero(d32);
    auto e0 = hn::Zero(d32), e1 = hn::Zero(d32), e2 = hn::Zero(d32), e3 = hn::Zero(d32);
    for (std::size_t k = 0; k < c.pair_count; ++k) {
        const CustomPairTap& tap = c.pairs[k];
        const std::int16_t* p = rows[tap.row] + 2 * (tap.offset + t);
        std::int32_t packed;
        std::memcpy(&packed, tap.weights, sizeof packed);  // lane 2m: weights[0], lane 2m + 1: weights[1]
        const auto w = hn::BitCast(d16, hn::Set(d32, packed));
        s0 = hn::ReorderWidenMulAccumulate(d32, hn::LoadU(d16, p), w, s0, e0);
        s1 = hn::ReorderWidenMulAccumulate(d32, hn::LoadU(d16, p + 2 * lanes), w, s1, e1);
        s2 = hn::ReorderWidenMulAccumulate(d32, hn::LoadU(d16, p + 4 * lanes), w, s2, e2);
        s3 = hn::ReorderWidenMulAccumulate(d32, hn::LoadU(d16, p + 6 * lanes), w, s3, e3);
    }
    hn::StoreU(hn::RearrangeToOddPlusEven(s0, e0), d32, sums);
    hn::StoreU(hn::RearrangeToOddPlusEven(s1, e1), d32, sums + lanes);
    hn::StoreU(hn::RearrangeToOddPlusEven(s2, e2), d32, sums + 2 * lanes);
    hn::StoreU(hn::RearrangeToOddPlusEven(s3, e3), d32, sums + 3 * lanes);
}

HWY_INLINE void one_pair_vector(const CustomRows& c, const std::int16_t* const* rows, std::size_t t,
                                std::int32_t* HWY_RESTRICT sums) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Repartition<std::int16_t, decltype(d32)> d16;
    auto s = hn::Zero(d32), e = hn::Zero(d32);
    for (std::size_t k = 0; k < c.pair_count; ++k) {
        const CustomPairTap& tap = c.pairs[k];
        std::int32_t packed;
        std::memcpy(&packed, tap.weights, sizeof packed);
        s = hn::ReorderWidenMulAccumulate(d32, hn::LoadU(d16, rows[tap.row] + 2 * (tap.offset + t)),
                                          hn::BitCast(d16, hn::Set(d32, packed)), s, e);
    }
    hn::StoreU(hn::RearrangeToOddPlusEven(s, e), d32, sums);
}

#endif

void CustomPairRows(const CustomRows& c, const std::int16_t* const* rows, std::size_t n, std::int32_t* out) {
#if HWY_TARGET == HWY_SCALAR  // one lane: no pairs of 16-bit lanes in it
    for (std::size_t t = 0; t < n; ++t)
        out[t] = custom_value(static_cast<double>(custom_pair_lane_sum(c, rows, t)), c.denominator, c.offset, c.top);
#else
    custom_row(c, rows, n, out, four_pair_vectors, one_pair_vector, custom_pair_lane_sum);
#endif
}

void PairSamples(const std::uint8_t* row, std::size_t n, std::size_t channels, std::int16_t* pairs) {
    const hn::ScalableTag<std::uint16_t> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> d8;
    const std::size_t lanes = hn::Lanes(d16);
    const std::size_t full = n / lanes * lanes;
    auto* out = reinterpret_cast<std::uint16_t*>(pairs);  // samples 0..255: the same bits
    for (std::size_t t = 0; t < full; t += lanes)
        hn::StoreInterleaved2(hn::PromoteTo(d16, hn::LoadU(d8, row + t)), hn::PromoteTo(d16, hn::LoadU(d8, row + t + channels)),
                              d16, out + 2 * t);
    for (std::size_t t = full; t < n; ++t) {
        pairs[2 * t] = row[t];
        pairs[2 * t + 1] = row[t + channels];
    }
}

void CustomRound(const CustomRows& c, const std::int32_t* sums, std::size_t n, std::int32_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t full = n / hn::Lanes(d32) * hn::Lanes(d32);
    round_sums(c, sums, full, out);
    for (std::size_t t = full; t < n; ++t) out[t] = custom_value(static_cast<double>(sums[t]), c.denominator, c.offset, c.top);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(CustomRowsImpl);
HWY_EXPORT(CustomRound);
HWY_EXPORT(CustomPairRows);
HWY_EXPORT(PairSamples);
HWY_EXPORT(ChooseRounding);

bool choose_rounding(CustomRows& c, std::int32_t smin, std::int32_t smax) {
    return HWY_DYNAMIC_DISPATCH(ChooseRounding)(c, smin, smax);
}

void custom_pair_rows(const CustomRows& c, const std::int16_t* const* rows, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(CustomPairRows)(c, rows, n, out);
}
void pair_samples(const std::uint8_t* row, std::size_t n, std::size_t channels, std::int16_t* pairs) {
    HWY_DYNAMIC_DISPATCH(PairSamples)(row, n, channels, pairs);
}

void custom_rows(const CustomRows& c, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(CustomRowsImpl)(c, rows, n, out);
}
void custom_round(const CustomRows& c, const std::int32_t* sums, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(CustomRound)(c, sums, n, out);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same sums and custom_value, one sample at a time

namespace imgpar::simd {

void custom_rows(const CustomRows& c, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t)
        out[t] = custom_value(static_cast<double>(custom_lane_sum(c, rows, t)), c.denominator, c.offset, c.top);
}
void custom_round(const CustomRows& c, const std::int32_t* sums, std::size_t n, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t) out[t] = custom_value(static_cast<double>(sums[t]), c.denominator, c.offset, c.top);
}
void custom_pair_rows(const CustomRows& c, const std::int16_t* const* rows, std::size_t n, std::int32_t* out) {
    for (std::size_t t = 0; t < n; ++t)
        out[t] = custom_value(static_cast<double>(custom_pair_lane_sum(c, rows, t)), c.denominator, c.offset, c.top);
}
void pair_samples(const std::uint8_t* row, std::size_t n, std::size_t channels, std::int16_t* pairs) {
    for (std::size_t t = 0; t < n; ++t) {
        pairs[2 * t] = row[t];
        pairs[2 * t + 1] = row[t + channels];
    }
}
bool choose_rounding(CustomRows& c, std::int32_t, std::int32_t) {
    c.float_rounding = false;  // plain loops: custom_value itself
    return false;
}

}  // namespace imgpar::simd
#endif
