// One output row of the edge operators on 8-bit samples (images without
// alpha), vectorised for the host's SIMD width with runtime dispatch (Google
// Highway), or plain loops where imgpar was built without Highway.
//
// rows[0], rows[1], rows[2] are the rows y - 1, y, y + 1 of the source,
// extended by the border rule by one pixel (`channels` samples) on each side:
// sample t of the output row (x * channels + c) reads rows[j][t + i *
// channels] for the 3x3 window's column i. out[t] is the contract's value
// (filter.hpp): sobel_output, scharr_output or laplacian_output.
//
// Every gradient is an exact integer in 32-bit lanes. The magnitude
// round_sqrt_div_u8(m, d) is computed as min(255, floor(sqrtf(m) / d + 1/2))
// in float lanes: d is a power of two, so only the conversion of m and the
// square root round, and the unit test that goes through every m the
// operators can produce (tests/test_filter_edges_simd.cpp) shows this gives
// the contract's integer for each of them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/ops/filter.hpp"
#include "src/ops/filter_math.hpp"

namespace imgpar::simd {

// One sample of the output: the vector code's tail and the whole of a build
// without Highway. The contract's functions themselves.
inline int edge_lane(EdgeOperator op, const std::uint8_t* const* rows, int channels, std::size_t t) {
    const std::uint8_t* a = rows[0] + t;
    const std::uint8_t* b = rows[1] + t;
    const std::uint8_t* c = rows[2] + t;
    const int K = channels, K2 = 2 * channels;
    if (op == EdgeOperator::Laplacian) return laplacian_output(a[K] + b[0] + b[K2] + c[K] - 4 * b[K]);
    const int wa = op == EdgeOperator::Scharr ? 3 : 1;
    const int wb = op == EdgeOperator::Scharr ? 10 : 2;
    const int gx = wa * (a[K2] - a[0]) + wb * (b[K2] - b[0]) + wa * (c[K2] - c[0]);
    const int gy = wa * (c[0] - a[0]) + wb * (c[K] - a[K]) + wa * (c[K2] - a[K2]);
    return op == EdgeOperator::Sobel ? sobel_output(gx, gy) : scharr_output(gx, gy);
}

// out[t] for t in [0, n), n = width * channels.
void edge_rows(EdgeOperator op, const std::uint8_t* const* rows, int channels, std::size_t n, std::int32_t* out);

// The magnitude step alone, as edge_rows computes it: out[t] =
// round_sqrt_div_u8(m[t], d) for 0 <= m[t] <= 2 * (16 * 255)^2 and d = 4
// (Sobel) or 16 (Scharr). For the test that checks every m.
void edge_magnitudes(const std::int32_t* m, std::size_t n, int d, std::int32_t* out);

}  // namespace imgpar::simd
