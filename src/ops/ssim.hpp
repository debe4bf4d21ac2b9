// SSIM, the structural similarity index of Wang et al. 2004, of two 8-bit
// images of one shape: per channel, and their mean. The CPU reference
// (cpu::ssim) and the GPU (part of gpu::compare, src/ops/compare.hpp) give
// the same bits.
//
// CONTRACT
// --------
// As scikit-image's structural_similarity(a, b, gaussian_weights=True,
// sigma=1.5, use_sample_covariance=False, data_range=255, channel_axis=-1)
// defines it (the arithmetic is src/ops/ssim_math.hpp):
//   - each channel on its own (alpha too, as any channel);
//   - the five local moments (means of a, b, a^2, b^2, ab) weighted by an
//     11 x 11 Gaussian window (sigma 1.5, radius 5, taps normalised to sum
//     1), applied along rows, then along columns, in double precision;
//     outside the image the window reads the image reflected about its edge
//     with the edge sample repeated (dcba|abcd, scipy.ndimage's 'reflect');
//   - each pixel's S from those moments with population covariance, c1 =
//     (0.01 255)^2, c2 = (0.03 255)^2;
//   - a channel's SSIM is the mean of S over the pixels at least 5 from every
//     edge ((W - 10) x (H - 10) pixels, the crop scikit-image applies), so the
//     border rule does not reach it; the image's SSIM is the mean of its
//     channels'.
// The mean is exact up to rounding each S to a multiple of 2^-52: the values
// are summed as integers (two int64 sums per channel, combined in 128 bits),
// which no order of summation changes. Images narrower or shorter than the 11-pixel window
// have no SSIM (scikit-image raises an error): ssim_fits() says so, and
// cpu::ssim refuses them.
//
// The SSIM map (a diagnostic image) holds every pixel's S, border included
// (there the window reads the reflected image), as 8 bits: round(255 S),
// negative S as 0 (ssim_map_value).
#pragma once

#include <cstdint>

#include "src/image.hpp"
#include "src/ops/ssim_math.hpp"

namespace imgpar {

// The window's taps and constants (computed once, in double, as SciPy's
// gaussian_filter does: exp(-x^2 / (2 sigma^2)) over x = -5..5, divided by
// their sum).
const SsimTaps& ssim_taps();

// Both sides at least the window's 11 pixels.
bool ssim_fits(int width, int height);

struct SsimResult {
    bool defined = false;     // false: not computed (asked not to, or the image is too small)
    int channels = 0;
    std::uint64_t pixels = 0; // pixels each channel's mean is over: (W - 10)(H - 10)
    double channel[kMaxChannels] = {};
    double mean = 0;          // the mean of the channels' values
};

// The exact sums of the quantized values (ssim_quantize) of each channel's
// counted pixels (5 <= x < W - 5, 5 <= y < H - 5), split in two (ssim_high,
// ssim_low). Both backends fill one and end in ssim_from_sums.
struct SsimSums {
    std::int64_t high[kMaxChannels] = {};
    std::int64_t low[kMaxChannels] = {};
};

SsimResult ssim_from_sums(const SsimSums& sums, int width, int height, int channels);

namespace cpu {
// SSIM of a and b (same shape, ssim_fits). `map`, when given, is a view of
// a's shape that receives the 8-bit map. Multithreaded over rows. Throws
// imgpar::Error (usage) on a shape mismatch or an image too small.
SsimResult ssim(ConstViewU8 a, ConstViewU8 b, const ViewU8* map = nullptr);
}  // namespace cpu

}  // namespace imgpar
