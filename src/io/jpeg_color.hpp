// libjpeg-turbo's decoding arithmetic after the inverse DCT, per output
// pixel, for a decoder that hands over the component planes instead of RGB
// (the GPU's hardware decoder): the "fancy" chroma upsampling of jdsample.c
// (a triangle filter with alternating rounding bias) and the fixed-point
// YCbCr -> RGB conversion of jdcolor.c. With these, planes that equal
// libjpeg-turbo's IDCT output give libjpeg-turbo's pixels exactly, whatever
// the chroma layout; the hardware's own upsampling does not (it replicates,
// or interpolates with other rounding). Shared by the CUDA kernel and the
// test that checks this against libjpeg-turbo's raw planes on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/hd.hpp"

namespace imgpar {

// How the two chroma planes are sampled relative to luma; the layouts
// libjpeg-turbo upsamples with its fancy filters (or copies, for Full).
enum class ChromaLayout : int {
    Full = 0,  // 4:4:4
    H2V1 = 1,  // 4:2:2: half width
    H2V2 = 2,  // 4:2:0: half width, half height
};

// A chroma plane as the decoder left it: `width` x `height` samples, the
// component's "downsampled" size, ceil(image size / 2) where halved.
struct ChromaPlane {
    const std::uint8_t* data;
    std::size_t pitch;
    int width, height;
};

IMGPAR_HD int clamp_to(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

IMGPAR_HD int chroma_sample(const ChromaPlane& p, int x, int y) {
    return p.data[static_cast<std::size_t>(y) * p.pitch + static_cast<std::size_t>(x)];
}

// The chroma value libjpeg-turbo gives output pixel (x, y). Its fancy filters
// (jdsample.c, h2v1_fancy_upsample and h2v2_fancy_upsample) weigh the nearer
// sample 3/4 and the next 1/4 in each halved direction; samples beyond the
// plane's edges repeat the edge (the first and last columns are special cases
// there, and jdmainct.c provides the first and last rows again as context).
// Planes two or fewer samples wide are replicated, as libjpeg-turbo does.
IMGPAR_HD int upsampled_chroma(const ChromaPlane& p, ChromaLayout layout, int x, int y) {
    if (layout == ChromaLayout::Full) return chroma_sample(p, x, y);
    const int i = x >> 1;
    const int row = layout == ChromaLayout::H2V2 ? y >> 1 : y;
    if (p.width <= 2) return chroma_sample(p, i, row);
    const int side = (x & 1) ? clamp_to(i + 1, p.width) : clamp_to(i - 1, p.width);
    if (layout == ChromaLayout::H2V1) {
        // 3/4 near + 1/4 far, rounding 0.5 down left of the sample, up right of it.
        const int sum = 3 * chroma_sample(p, i, row) + chroma_sample(p, side, row);
        return (sum + ((x & 1) ? 2 : 1)) >> 2;
    }
    const int other_row = clamp_to((y & 1) ? row + 1 : row - 1, p.height);
    const int near_col = 3 * chroma_sample(p, i, row) + chroma_sample(p, i, other_row);
    const int side_col = 3 * chroma_sample(p, side, row) + chroma_sample(p, side, other_row);
    return (3 * near_col + side_col + ((x & 1) ? 7 : 8)) >> 4;
}

// jdcolor.c's ycc_rgb_convert: 16-bit fixed point, FIX(c) = c * 2^16 rounded;
// red and blue rounded through their tables, green summed then shifted
// (with the one-half folded into the Cb term), each clamped to 0..255.
IMGPAR_HD void ycbcr_to_rgb(int y, int cb, int cr, std::uint8_t* rgb) {
    constexpr int kBits = 16;
    constexpr int kHalf = 1 << (kBits - 1);
    constexpr int kCrR = static_cast<int>(1.40200 * (1 << kBits) + 0.5);
    constexpr int kCbB = static_cast<int>(1.77200 * (1 << kBits) + 0.5);
    constexpr int kCrG = static_cast<int>(0.71414 * (1 << kBits) + 0.5);
    constexpr int kCbG = static_cast<int>(0.34414 * (1 << kBits) + 0.5);
    const int xb = cb - 128, xr = cr - 128;
    // Arithmetic right shifts of negative values (as jmorecfg.h's RIGHT_SHIFT).
    const int r = y + ((kCrR * xr + kHalf) >> kBits);
    const int g = y + ((-kCbG * xb + kHalf - kCrG * xr) >> kBits);
    const int b = y + ((kCbB * xb + kHalf) >> kBits);
    rgb[0] = static_cast<std::uint8_t>(r < 0 ? 0 : (r > 255 ? 255 : r));
    rgb[1] = static_cast<std::uint8_t>(g < 0 ? 0 : (g > 255 ? 255 : g));
    rgb[2] = static_cast<std::uint8_t>(b < 0 ? 0 : (b > 255 ? 255 : b));
}

}  // namespace imgpar
