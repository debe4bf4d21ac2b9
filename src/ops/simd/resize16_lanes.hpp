// The two passes of 16-bit resize on the CPU (src/ops/resize.hpp, 16 BITS)
// for plain samples (no alpha), vectorised for the host's SIMD width with
// runtime dispatch (Google Highway), or plain loops without it.
//
// Why float64 lanes give the reference's integers: every product and sum
// here is an integer of magnitude below 2^50 (a filter's first-pass sums
// below 2^39; check_resize_range16 bounds every second-pass sum below 2^50),
// and float64 holds every integer below 2^53, so each multiply and add is
// exact, in any order, fused or not. Rounding by a power of two is a
// multiply and a floor, also exact; the output's division by any divisor d
// (area's are not powers of two) is an estimate through 1 / (2d) corrected
// by one comparison each way, exact where its products stay below 2^53
// (d < 2^35; check_resize_range16 keeps d below 2^34). So every target gives
// the plain loops' samples, which are first_pass_value16's and
// resize_output's on 64-bit integer sums.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar::simd {

// The first pass (down the columns) of one output row, into 32-bit
// intermediates: out[s] = floor((sum + half) / 2^shift) with sum = sum_t
// w[t] rows[t][s] and half = 2^(shift - 1) (0 for shift 0), for s < n.
// shift 18 for a filter (kResizeWeightBits16 - kResizeRowBits16: below
// 2^21), 0 for area or a copy (the exact sum: the caller keeps it below
// 2^31).
void resize_columns16(const std::int32_t* w, int taps, const std::uint16_t* const* rows, std::size_t n, int shift,
                      std::int32_t* out);

// The second pass (along the rows) of a band of output rows over the band's
// intermediates transposed (row i of the band: input column i of every band
// row, `column` = rows x channels samples, as src/ops/simd/resize_columns.hpp's
// resize_rows), each sum made an output sample: for output pixel j < count,
// with sum = sum over t < live of weight[j taps + t] band[(start[j] + t)
// column + s] (live = min(taps, in - start[j])), out[s / channels][j channels
// + s % channels] = clamp(round(sum / d), 0, 65535), half up, 0 where the sum
// is not positive, for s < column.
void resize_band16(const std::int32_t* start, const std::int32_t* weight, int taps, int in, int count,
                   const std::int32_t* band, std::size_t column, int channels, std::uint64_t d,
                   std::uint16_t* const* out);

}  // namespace imgpar::simd
