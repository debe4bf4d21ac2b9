// Row loops of the adaptive threshold's sliding window on the CPU
// (src/ops/adaptive_threshold.cpp), vectorised for the host's SIMD width
// with runtime dispatch (Google Highway), or plain loops where imgpar was
// built without Highway. Integer arithmetic only, so both give the same
// values.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/ops/adaptive_math.hpp"

namespace imgpar::simd {

// Moves a window's column sums down one row: sums[x] += enter[x] - leave[x]
// and, when squares is not null, squares[x] += enter[x]^2 - leave[x]^2
// (arithmetic modulo 2^32: exact while the true sums fit).
void slide_columns(const std::uint8_t* enter, const std::uint8_t* leave, std::size_t n, std::uint32_t* sums,
                   std::uint32_t* squares);

// The running window sums along a row's interior: for x in [x0, x1),
// out[x] = out[x - 1] + columns[x + r] - columns[x - r - 1] (modulo 2^32),
// given out[x0 - 1]; needs x0 > r and x1 + r <= the row's length. Vectors
// add each one's differences as a prefix sum (log2(lanes) shifted adds) to
// the previous vector's last sum, so the chain of dependent adds is one per
// vector instead of one per pixel.
void running_window_sums(const std::uint32_t* columns, int r, std::size_t x0, std::size_t x1, std::uint32_t* out);

// The mean method's decision (adaptive_decision, AdaptiveMethod::Mean) from
// a window sum s of n samples (n odd, n * 511 < 2^31) and offset ceil(C),
// without a division: adaptive_mean_decision (adaptive_math.hpp) per pixel.
// out[x] = 255 or 0.
void mean_decision_row(const std::uint32_t* sums, const std::uint8_t* v, std::size_t count, std::int32_t n,
                       int offset, std::uint8_t* out);

// The same decision for one pixel: the plain loop, and the tests' check.
inline int mean_decision(std::uint32_t sum, int v, std::int32_t n, int offset) {
    return adaptive_mean_decision(sum, v, n, offset);
}

// Sauvola's or Niblack's decision per pixel, adaptive_decision's result:
// out[x] = adaptive_decision_fast(v[x], sums[x], squares[x], p), the window
// sums of a window of at most 257 x 257 (so that n * squares - sums^2 is
// exact in doubles, and squares fit 32 bits). The single-precision estimate
// runs in vectors with adaptive_decision_fast's operations; a vector with
// any pixel too near its level runs those pixels through the scalar
// function, which falls back to the double-precision reference.
constexpr int kMaxVectorLevelWindow = 257;
void level_decision_row(const std::uint32_t* sums, const std::uint32_t* squares, const std::uint8_t* v,
                        std::size_t count, const AdaptiveParams& p, std::uint8_t* out);

}  // namespace imgpar::simd
