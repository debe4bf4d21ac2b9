// One output row of the edge operators and of custom kernels on the 16-bit
// lanes of images with alpha (the wide domain, src/ops/wide_math.hpp: P = c *
// a, A = 255 * a, 0..65025), vectorised for the host's SIMD width with
// runtime dispatch (Google Highway), or plain loops where imgpar was built
// without Highway. The rows are laid out as for edge_rows and custom_rows
// (edge_rows.hpp, custom_rows.hpp): source rows extended by the border rule,
// `channels` lanes per pixel.
//
// Edges: gradients are exact in 32-bit lanes (|gx|, |gy| <= 32 * 65025), but
// gx^2 + gy^2 is not (up to 2^43), so the magnitude edge_output_wide, min(top,
// round_sqrt_div(m, d)), is computed in double lanes as min(top, floor(sqrt(m)
// / d + 1/2)). That is exact: m is exact in double; d (4 or 16) is even, so
// the rounding boundaries sqrt(m) = d (k - 1/2) are integers b. Where m = b^2
// the square root is exact and so is the rest. Elsewhere |sqrt(m) - b| =
// |m - b^2| / (sqrt(m) + b) >= 1 / (2 sqrt(m) + 1) > 1.6e-7 (sqrt(m) < 2^22),
// while the computed square root is within half an ulp, 2^-31, and dividing by
// d is exact; adding 1/2 rounds by at most 2^-32 more, far inside the gap.
//
// Custom kernels: S = sum of weight * sample needs 64 bits in general (the
// contract bounds sum |weights| by 65535, samples here by 65025). Where sum
// |weights| * 65025 fits 31 bits, the sums run in 32-bit lanes; otherwise in
// double lanes, where every product and partial sum is an integer below
// 2^53, so exact in any order. custom_value is then computed in double lanes,
// as custom_rows does (its header says why that is bit for bit).
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/ops/filter.hpp"
#include "src/ops/simd/custom_rows.hpp"
#include "src/ops/wide_math.hpp"

namespace imgpar::simd {

// One sample of the edge output: the vector code's tail and the whole of a
// build without Highway. The contract's functions themselves.
inline int wide_edge_lane(EdgeOperator op, const std::uint16_t* const* rows, int channels, std::size_t t) {
    const std::uint16_t* a = rows[0] + t;
    const std::uint16_t* b = rows[1] + t;
    const std::uint16_t* c = rows[2] + t;
    const int K = channels, K2 = 2 * channels;
    if (op == EdgeOperator::Laplacian) return edge_output_wide(op, a[K] + b[0] + b[K2] + c[K] - 4 * b[K], 0);
    const int wa = op == EdgeOperator::Scharr ? 3 : 1;
    const int wb = op == EdgeOperator::Scharr ? 10 : 2;
    const int gx = wa * (a[K2] - a[0]) + wb * (b[K2] - b[0]) + wa * (c[K2] - c[0]);
    const int gy = wa * (c[0] - a[0]) + wb * (c[K] - a[K]) + wa * (c[K2] - a[K2]);
    return edge_output_wide(op, gx, gy);
}

// out[t] for t in [0, n), n = width * channels.
void wide_edge_rows(EdgeOperator op, const std::uint16_t* const* rows, int channels, std::size_t n, std::int32_t* out);

// The magnitude step alone, as wide_edge_rows computes it: out[t] =
// edge_output_wide(op, gx[t], gy[t]) for Sobel or Scharr. For its test.
void wide_edge_magnitudes(EdgeOperator op, const std::int32_t* gx, const std::int32_t* gy, std::size_t n, std::int32_t* out);

// One sample's sum (64 bits), for the tail and the plain build.
inline std::int64_t wide_custom_lane_sum(const CustomRows& c, const std::uint16_t* const* rows, std::size_t t) {
    std::int64_t sum = 0;
    for (std::size_t k = 0; k < c.tap_count; ++k)
        sum += static_cast<std::int64_t>(c.taps[k].weight) * rows[c.taps[k].row][t + c.taps[k].offset];
    return sum;
}

// out[t] = custom_value(S[t], c.denominator, c.offset, c.top) for t in [0, n),
// with c.taps (c.pairs and c.float_rounding are not used).
void wide_custom_rows(const CustomRows& c, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out);

// Whether the kernel's sums fit 32-bit lanes (then the vector code uses them).
inline bool wide_sums_fit_int32(const CustomRows& c) {
    std::int64_t total = 0;
    for (std::size_t k = 0; k < c.tap_count; ++k) {
        const std::int64_t w = c.taps[k].weight;
        total += w < 0 ? -w : w;
    }
    return total * kWideTop <= 0x7fffffff;
}

}  // namespace imgpar::simd
