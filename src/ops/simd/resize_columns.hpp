// The first pass of resize on the CPU (src/ops/resize.hpp: down the
// columns), vectorised for the host's SIMD width with runtime dispatch
// (Google Highway), or plain loops without it:
//
//   out[s] = first_pass_value(sum_t w[t] * rows[t][s])   for s in [0, n)
//
// with `taps` weights and input rows. Every sum is exact in 32-bit integers
// (a filter's weights' magnitudes sum to at most 2^15 and samples are at most
// 255; area's weights sum to the axis's length, at most 8,421,504 for 32 bits),
// so every target gives the plain loop's values.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar::simd {

// One lane's sum: the vector code's tail and the whole of a build without
// Highway.
inline std::int32_t column_sum(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t s) {
    std::int32_t sum = 0;
    for (int t = 0; t < taps; ++t) sum += w[t] * static_cast<std::int32_t>(rows[t][s]);
    return sum;
}

// A filter's pass: round(sum / 2^8), signed 16 bits (6 fractional bits).
void resize_columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, std::int16_t* out);
// Area's (or a copy's) pass: the exact sum.
void resize_columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out);

}  // namespace imgpar::simd
