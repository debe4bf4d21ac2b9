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
// DOWNSAMPLING (--ssim-downsample, off by default)
// Wang et al.'s reference code (their ssim.m; NPP's nppiSSIM and the IQA
// libraries that follow it compute the same) first shrinks both images by a
// factor f: the f x f mean around every f-th sample (MATLAB's imfilter with
// the edges mirrored, dcba|abcd, and the kernel's centre at (f - 1) / 2
// rounded down, so the window runs from -(f - 1) / 2 to f / 2), the samples
// 0, f, 2f, ... kept: ceil(W / f) x ceil(H / f) samples a channel, each the
// exact integer sum divided by f^2 and rounded once (ssim_shrunk_value).
// SSIM as above follows on those double-precision images, so its mean is
// over the windows that fit in them (ssim.m's 'valid'). Its rule for f,
// max(1, round(min(W, H) / 256)), is "auto": f = 17 for 7680x4320. f = 1 is
// SSIM as above, bit for bit.
//
// 16 BITS: the same definition with data_range = 65535 (c1 = (0.01 * 65535)^2,
// c2 = (0.03 * 65535)^2, ssim_taps16), the samples entering the moments as
// doubles (every 16-bit product and pair sum is exact in double, so the
// terms are the integers the 8-bit path's int terms are). Downsampled, the
// shrunk samples are the f x f sums (64-bit: up to 65535 f^2) divided by f^2
// and rounded once, as for 8 bits, and S is computed on them with the 16-bit
// constants. The map stays 8-bit (it holds S, not samples).
//
// The SSIM map (a diagnostic image) holds every pixel's S, border included
// (there the window reads the reflected image), as 8 bits: round(255 S),
// negative S as 0 (ssim_map_value). Downsampled, it is the shrunk images'
// map, ceil(W / f) x ceil(H / f).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/image.hpp"
#include "src/ops/ssim_math.hpp"

namespace imgpar {

// The window's taps and constants (computed once, in double, as SciPy's
// gaussian_filter does: exp(-x^2 / (2 sigma^2)) over x = -5..5, divided by
// their sum).
const SsimTaps& ssim_taps();
// The same taps with c1, c2 of 16-bit images (data_range 65535).
const SsimTaps& ssim_taps16();

// Both sides at least the window's 11 pixels.
bool ssim_fits(int width, int height);

// --ssim-downsample: 0 is "auto", ssim.m's rule; otherwise the factor itself,
// 1 .. kSsimMaxDownsample (so that an f x f sum of bytes fits in 31 bits).
constexpr int kSsimAutoDownsample = 0;
constexpr int kSsimMaxDownsample = 1024;
// The factor `request` means for a width x height image. Throws
// imgpar::Error (usage) outside 0 .. kSsimMaxDownsample.
int ssim_downsample_factor(int request, int width, int height);
// A side of n samples shrunk by f: ceil(n / f).
constexpr int ssim_shrunk_side(int n, int f) { return n / f + (n % f != 0); }

// One channel-interleaved image of T samples, `row_samples` apart; the SSIM
// kernels' input (8-bit images, or the doubles of shrunk ones).
template <typename T>
struct SsimPlanes {
    const T* data = nullptr;
    int width = 0;
    int height = 0;
    int channels = 0;
    std::size_t row_samples = 0;  // samples between row starts
};

struct SsimResult {
    bool defined = false;     // false: not computed (asked not to, or the image is too small)
    int channels = 0;
    int downsample = 1;       // the factor f both images were shrunk by (1: not shrunk)
    std::uint64_t pixels = 0; // pixels each channel's mean is over: (W - 10)(H - 10), of the shrunk images
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

// width x height: the (shrunk) images the sums are of; f: the factor.
SsimResult ssim_from_sums(const SsimSums& sums, int width, int height, int channels, int downsample = 1);

namespace cpu {
// SSIM of a and b (same shape) shrunk by `downsample` (a factor >= 1, see
// ssim_downsample_factor; the shrunk images ssim_fits). `map`, when given,
// is a view of the shrunk shape that receives the 8-bit map. Multithreaded
// over rows. Throws imgpar::Error (usage) on a shape mismatch or an image
// too small.
SsimResult ssim(ConstViewU8 a, ConstViewU8 b, const ViewU8* map = nullptr, int downsample = 1);
// The 16-bit form (16 BITS above).
SsimResult ssim(ConstViewU16 a, ConstViewU16 b, const ViewU8* map = nullptr, int downsample = 1);
// `image` shrunk by f >= 2 (DOWNSAMPLING): ceil(W / f) x ceil(H / f) samples,
// channels interleaved, rows packed. Multithreaded over rows.
std::vector<double> ssim_shrink(ConstViewU8 image, int f);
std::vector<double> ssim_shrink(ConstViewU16 image, int f);
}  // namespace cpu

}  // namespace imgpar
