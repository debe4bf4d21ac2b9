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

struct CustomRows {
    const CustomTap* taps = nullptr;
    std::size_t tap_count = 0;
    double denominator = 1.0;
    double offset = 0.0;
    int top = 255;
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

// The rounding step alone, as custom_rows computes it: out[t] =
// custom_value(sums[t], c.denominator, c.offset, c.top). For its test.
void custom_round(const CustomRows& c, const std::int32_t* sums, std::size_t n, std::int32_t* out);

}  // namespace imgpar::simd
