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
// round(column_sum / 2^shift), half up (floor of the sum plus half).
inline std::int32_t column_value(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t s,
                                 int shift) {
    const std::int32_t v = column_sum(w, taps, rows, s) + (shift ? 1 << (shift - 1) : 0);
    return v >= 0 ? v >> shift : ~((~v) >> shift);
}
inline std::int32_t row_sum(const std::int32_t* w, int taps, const std::int16_t* first, std::size_t stride, std::size_t s) {
    std::int32_t sum = 0;
    for (int t = 0; t < taps; ++t) sum += w[t] * static_cast<std::int32_t>(first[t * stride + s]);
    return sum;
}

// Into 16 bits: round(sum / 2^shift), half up: a filter's pass (shift 8: 6
// fractional bits kept), or area's or a copy's whose sums fit (shift 0).
void resize_columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, int shift,
                    std::int16_t* out);
// Area's (or a copy's) pass: the exact sum.
void resize_columns(const std::int32_t* w, int taps, const std::uint8_t* const* rows, std::size_t n, std::int32_t* out);

// The second pass (along the rows) over a transposed band of the first
// pass's output: sums[s] = sum_t w[t] * first[t * stride + s] for s in
// [0, n), where row t of the band holds one input column of every band row
// (src/ops/resize.cpp). 32-bit sums: for a filter's 16-bit intermediate,
// whose magnitudes times the weights' stay within 2^31.
void resize_rows(const std::int32_t* w, int taps, const std::int16_t* first, std::size_t stride, std::size_t n,
                 std::int32_t* sums);

}  // namespace imgpar::simd
