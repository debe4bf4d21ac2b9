// The way into and out of the wide domain of images with alpha
// (src/ops/wide_math.hpp) for whole rows, vectorised for the host's SIMD
// width with runtime dispatch (Google Highway), or plain loops where imgpar
// was built without Highway.
//
// In: a row of pixels becomes its 16-bit lanes (P = c * a, A = 255 * a, or
// the luma of the P lanes). Out: a row of filtered lanes becomes output bytes
// (unpremultiply_filtered and alpha_byte where the filter filtered alpha;
// unpremultiply_wide by the pixel's own alpha where it kept it, after
// unsharp_output_wide for unsharp).
//
// The only step that is not plain integer arithmetic in vector lanes is the
// division of unpremultiply_wide, q = (510 P + A) / (2 A) (P, A in 0..65025):
// a float quotient, its integer part clamped to 256, then one integer
// correction step, r = N - q D, q - 1 where r < 0, q + 1 where r >= D. The
// float quotient of N < 2^25 by D < 2^18 (N rounded to float, then the
// division, each by at most half an ulp) is within 257 * 2^-23 < 1 of N / D
// wherever N / D <= 257, so the corrected q is exact there; above, the clamped
// q (256) corrects to at least 257, and both clip to 255.
//
// Where A is 255 a for an alpha byte a (unsharp, edges), the quotient is the
// same as (2P + a) / (2a), and one float reciprocal r = 1 / (2a) per pixel
// serves all its lanes: q = trunc((2P + a + 1/4) * r). The numerator is exact
// in float, r and the product each off by at most half an ulp, so the product
// is within 2^-23 * 257 < 4e-5 of (2P + a + 1/4) / (2a), which lies 1/(8a) >=
// 4.9e-4 above the true quotient and, where that is below an integer, at
// least 3/(8a) >= 1.4e-3 below it (its distance from the integer is at least
// 1/(2a)); so the truncation is exact wherever the quotient is below 256, and
// at least 255 elsewhere. The test (tests/test_filter_wide_simd.cpp) checks
// every A with the numerators around each quotient step, and every (P, a) of
// the kept-alpha case.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/ops/filter_math.hpp"
#include "src/ops/wide_math.hpp"

namespace imgpar::simd {

// Which lanes a pixel of `channels` (2 or 4) bytes becomes.
enum class WideLanes {
    Colours,     // channels - 1 lanes: P per colour (unsharp, edges)
    WithAlpha,   // channels lanes: P per colour, then A (Gaussian, box, custom)
    Luma,        // 1 lane: luma601 of the three P lanes (edges --gray on RGBA)
};

inline int wide_lane_count(WideLanes lanes, int channels) {
    return lanes == WideLanes::WithAlpha ? channels : (lanes == WideLanes::Luma ? 1 : channels - 1);
}

// One pixel's lanes: the vector code's tail and the whole of a build without
// Highway. The contract's functions themselves.
inline void wide_pixel_lanes(WideLanes lanes, const std::uint8_t* px, int channels, std::uint16_t* out) {
    const int colours = channels - 1, a = px[colours];
    if (lanes == WideLanes::Luma) {
        out[0] = static_cast<std::uint16_t>(luma601(px[0] * a, px[1] * a, px[2] * a));
        return;
    }
    for (int c = 0; c < colours; ++c) out[c] = static_cast<std::uint16_t>(premultiply_wide(px[c], a));
    if (lanes == WideLanes::WithAlpha) out[colours] = static_cast<std::uint16_t>(alpha_wide(a));
}

// out: wide_lane_count(lanes, channels) lanes per pixel for `pixels` pixels
// of src. Luma needs channels == 4.
void wide_lanes_row(WideLanes lanes, const std::uint8_t* src, int channels, std::size_t pixels, std::uint16_t* out);

// Filters that filter alpha: `values` holds `channels` lanes per pixel (P
// per colour, then A'), out the pixel's bytes: unpremultiply_filtered(P', A')
// per colour, alpha_byte(A').
inline void filtered_pixel_bytes(const std::int32_t* v, int channels, std::uint8_t* out) {
    const int colours = channels - 1;
    for (int c = 0; c < colours; ++c) out[c] = static_cast<std::uint8_t>(unpremultiply_filtered(v[c], v[colours]));
    out[colours] = static_cast<std::uint8_t>(alpha_byte(v[colours]));
}
void filtered_row_bytes(const std::int32_t* values, int channels, std::size_t pixels, std::uint8_t* out);

// Filters that keep alpha: `values` holds `lanes` filtered lanes per pixel
// (3 or 1), src the source pixels (`channels` bytes, 4 or 2; lanes 3 needs
// 4), out lanes + 1 bytes per pixel: unpremultiply_wide(p, alpha_wide(a)) per
// lane, then the source's alpha a, where p is the lane's value, or for
// unsharp unsharp_output_wide(c * a, value, amount_q8, threshold_level).
struct KeptAlpha {
    int lanes = 3;
    int channels = 4;
    bool unsharp = false;
    int amount_q8 = 0, threshold_level = 0;
};
inline void kept_pixel_bytes(const KeptAlpha& k, const std::int32_t* v, const std::uint8_t* s, std::uint8_t* out) {
    const int a = s[k.channels - 1];
    for (int c = 0; c < k.lanes; ++c) {
        int p = v[c];
        if (k.unsharp) p = unsharp_output_wide(premultiply_wide(s[c], a), p, k.amount_q8, k.threshold_level);
        out[c] = static_cast<std::uint8_t>(unpremultiply_wide(p, alpha_wide(a)));
    }
    out[k.lanes] = static_cast<std::uint8_t>(a);
}
void kept_row_bytes(const KeptAlpha& k, const std::int32_t* values, const std::uint8_t* src, std::size_t pixels,
                    std::uint8_t* out);

// The division step alone, as the rows above compute it: out[t] =
// unpremultiply_wide(p[t], a_wide[t]) for p, a_wide in 0..65025. For the test.
void unpremultiply_lanes(const std::int32_t* p, const std::int32_t* a_wide, std::size_t n, std::int32_t* out);

}  // namespace imgpar::simd
