// Per-sample arithmetic of equalization and thresholding, one definition
// shared by the CPU reference and the CUDA kernels (see src/ops/equalize.hpp
// and src/ops/threshold.hpp for the contract these implement).
#pragma once

#include <cstdint>

#include "src/hd.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar {

// Equalization lookup value for sample value v of a plane with `total`
// samples, cumulative count cdf_v = #samples <= v and cdf_min = the count of
// the smallest value present:
//   round((cdf_v - cdf_min) * 255 / (total - cdf_min)), ties upward,
// 0 for values below the smallest present one, and v itself when only one
// value is present (total == cdf_min), so a constant plane maps to itself.
// 64-bit products: exact for any image below 2^55 samples.
IMGPAR_HD int equalize_lut_value(int v, unsigned long long cdf_v, unsigned long long cdf_min,
                                 unsigned long long total) {
    if (total == cdf_min) return v;
    if (cdf_v < cdf_min) return 0;
    const unsigned long long span = total - cdf_min;
    return static_cast<int>(((cdf_v - cdf_min) * 510ull + span) / (2ull * span));
}

// Luma-mode equalization of one colour pixel: with Y = luma601(r, g, b) and
// chroma Cb, Cr of BT.601 full-range YCbCr kept at full precision, replacing
// Y by lut[Y] and converting back adds the same d = lut[Y] - Y to R, G and B
// (the inverse transform has coefficient 1 on Y for every channel). Each
// result is clamped to 0..255.
IMGPAR_HD void equalize_luma_pixel(const std::uint8_t* lut, int& r, int& g, int& b) {
    const int y = luma601(r, g, b);
    const int d = static_cast<int>(lut[y]) - y;
    r = clamp_u8(r + d);
    g = clamp_u8(g + d);
    b = clamp_u8(b + d);
}

// The sample thresholding looks at: gray for 1-2 channel pixels, luma601 of
// the colour for 3-4 channel pixels.
IMGPAR_HD int intensity_of(const std::uint8_t* px, int channels) {
    return channels >= 3 ? luma601(px[0], px[1], px[2]) : px[0];
}

// Binary output: 255 above the threshold, 0 at or below it.
IMGPAR_HD int threshold_value(int v, int t) { return v > t ? 255 : 0; }

// --- 16 bits ---------------------------------------------------------------------

// equalize_lut_value written for 16 bits: round((cdf_v - cdf_min) * 65535 /
// (total - cdf_min)), ties upward, 0 below the smallest value present, v
// itself for a constant plane. The numerator (cdf_v - cdf_min) * 131070 +
// span stays below 2^64 for planes of fewer than 2^47 samples.
IMGPAR_HD int equalize_lut_value16(int v, unsigned long long cdf_v, unsigned long long cdf_min,
                                   unsigned long long total) {
    if (total == cdf_min) return v;
    if (cdf_v < cdf_min) return 0;
    const unsigned long long span = total - cdf_min;
    return static_cast<int>(((cdf_v - cdf_min) * 131070ull + span) / (2ull * span));
}

IMGPAR_HD int clamp_u16(int v) { return v < 0 ? 0 : (v > 65535 ? 65535 : v); }

// equalize_luma_pixel for 16 bits: Y = luma601 of the 16-bit samples (in
// 0..65535), each of R, G, B moved by lut[Y] - Y and clamped to 0..65535.
IMGPAR_HD void equalize_luma_pixel16(const std::uint16_t* lut, int& r, int& g, int& b) {
    const int y = luma601(r, g, b);
    const int d = static_cast<int>(lut[y]) - y;
    r = clamp_u16(r + d);
    g = clamp_u16(g + d);
    b = clamp_u16(b + d);
}

// intensity_of for 16-bit pixels.
IMGPAR_HD int intensity_of16(const std::uint16_t* px, int channels) {
    return channels >= 3 ? luma601(px[0], px[1], px[2]) : px[0];
}

// Binary 16-bit output: 65535 above the threshold, 0 at or below it.
IMGPAR_HD int threshold_value16(int v, int t) { return v > t ? 65535 : 0; }

}  // namespace imgpar
