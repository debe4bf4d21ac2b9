// One output row of a custom kernel on 8-bit samples (images without alpha),
// vectorised for the host's SIMD width with runtime dispatch (Google
// Highway), or plain loops where imgpar was built without Highway.
//
//   S[t]   = sum over taps of weight * rows[row][t + offset]
//   out[t] = custom_value(S[t], denominator, offset, top)      (filter_math.hpp)
//
// rows are the kernel's rows of source, extended by the border rule so that
// tap offsets never leave them. S is exact in 32-bit integers (the contract
// bounds the sum of |weights| by 65535, samples by 255), so the order of the
// additions does not matter. custom_value is IEEE double arithmetic with no
// fused operations: a division, an addition, another addition and floor or
// ceil, each correctly rounded in vector lanes exactly as in scalar code, so
// the vector lanes give the scalar function's values bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/ops/filter_math.hpp"

namespace imgpar::simd {

struct CustomTap {
    std::size_t offset = 0;  // column i of the kernel, in samples: i * channels
    int row = 0;             // row j of the kernel: index into rows
    std::int32_t weight = 0; // non-zero
};

// Two taps of one kernel row at columns i and i + 1 (either weight may be 0),
// for pair rows (below).
struct CustomPairTap {
    std::size_t offset = 0;  // column i, in samples: i * channels
    int row = 0;
    std::int16_t weights[2] = {0, 0};
};

struct CustomRows {
    const CustomTap* taps = nullptr;  // custom_rows
    std::size_t tap_count = 0;
    const CustomPairTap* pairs = nullptr;  // custom_pair_rows
    std::size_t pair_count = 0;
    double denominator = 1.0;
    double offset = 0.0;
    int top = 255;
    // Set by choose_rounding only: round in float lanes (below).
    bool float_rounding = false;
};

// One sample's sum: the vector code's tail and the whole of a build without
// Highway.
inline std::int32_t custom_lane_sum(const CustomRows& c, const std::uint8_t* const* rows, std::size_t t) {
    std::int32_t sum = 0;
    for (std::size_t k = 0; k < c.tap_count; ++k)
        sum += c.taps[k].weight * static_cast<std::int32_t>(rows[c.taps[k].row][t + c.taps[k].offset]);
    return sum;
}

// out[t] for t in [0, n).
void custom_rows(const CustomRows& c, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out);

// The same for kernels whose weights all fit 16 bits, on pair rows: one
// 16 x 16 -> 32-bit multiply-add of two lanes (x86: pmaddwd) applies two taps
// of a kernel row at once, where custom_rows multiplies and adds per tap.
// pairs[2t] = row[t], pairs[2t + 1] = row[t + channels] for t in [0, n):
// row holds n + channels samples.
void pair_samples(const std::uint8_t* row, std::size_t n, std::size_t channels, std::int16_t* pairs);
inline std::int32_t custom_pair_lane_sum(const CustomRows& c, const std::int16_t* const* rows, std::size_t t) {
    std::int32_t sum = 0;
    for (std::size_t k = 0; k < c.pair_count; ++k) {
        const CustomPairTap& p = c.pairs[k];
        const std::int16_t* s = rows[p.row] + 2 * (t + p.offset);
        sum += p.weights[0] * static_cast<std::int32_t>(s[0]) + p.weights[1] * static_cast<std::int32_t>(s[1]);
    }
    return sum;
}
void custom_pair_rows(const CustomRows& c, const std::int16_t* const* rows, std::size_t n, std::int32_t* out);

// custom_value's division is the slowest step of the vector code (a double
// division per lane). Where a kernel's sums all lie in [smin, smax] and that
// range is small, a float candidate, S * (1 / denominator) + offset rounded
// half up and clamped in float lanes, is tried on every sum of the range
// against custom_value, with the very code the rows then run; only if it
// gives custom_value's integer for each does c.float_rounding become true.
// Sums are below 2^24, so exact in float. Returns c.float_rounding.
bool choose_rounding(CustomRows& c, std::int32_t smin, std::int32_t smax);

// The rounding step alone, as custom_rows computes it (in float lanes where
// c.float_rounding): out[t] = custom_value(sums[t], c.denominator, c.offset,
// c.top). For its test.
void custom_round(const CustomRows& c, const std::int32_t* sums, std::size_t n, std::int32_t* out);

}  // namespace imgpar::simd
