// Binary thresholding, with a given level or Otsu's. The CPU reference
// (cpu::threshold) and the GPU (cuda::threshold, cuda/histogram.hpp) produce
// byte-identical images and pick the same level.
//
// CONTRACT
// --------
// Intensity: the gray sample of gray and gray+alpha images; luma601(r, g, b)
// of RGB and RGBA images (src/ops/pixel_math.hpp).
// Output: out = intensity > T ? 255 : 0. Gray and RGB inputs give a gray
// image; gray+alpha and RGBA inputs give gray+alpha with the alpha copied
// unchanged. Same width and height as the input.
// T: 0..255 when given (T = 255 makes every pixel 0), or Otsu's level.
//
// Otsu (otsu_threshold), computed on the host from the 256 intensity counts
// so both backends choose the same T: with N samples, S = sum v*h[v], and for
// each T the classes v <= T (n0 samples, sum S0) and v > T (n1 = N - n0), the
// between-class variance is proportional to
//   score(T) = (N*S0 - S*n0)^2 / (n0 * n1)
// (N*S0 - S*n0 is exact in 128-bit integers; the square and the division are
// done in long double). T is the smallest T with n0 > 0 and n1 > 0 whose score
// is strictly greater than every smaller T's, i.e. the lowest maximiser, so a
// gap between two modes resolves to its lower edge. When no T splits the
// samples (a single value v is present) T = v, and the output is all 0.
//
// 16-BIT CONTRACT (cpu::threshold and gpu::threshold on u16)
// -----------------------------------------------------------
// Intensity: the gray sample, or luma601 of the 16-bit samples (0..65535).
// Output u16: intensity > T ? 65535 : 0, alpha copied.
// A given level is in the image's own scale: --value T compares T with the
// 16-bit samples, 0..65535 (T = 128 is 128 of 65535, not half way; the
// 8-bit level L cuts an image widened from 8 bits (v * 257) where the
// 16-bit level 257 L does). The number is never rescaled by the image's
// depth, so a level means one thing in a batch of mixed files' logs and
// JSON. An 8-bit image still takes 0..255 (a larger T fails that
// file). Otsu's level is the same formula over the exact 65,536-value
// intensity histogram (N*S0 - S*n0 in 128 bits: exact below 2^40 samples),
// so it is a 16-bit level.
#pragma once

#include <cstdint>
#include <string>

#include "src/image.hpp"
#include "src/ops/histogram.hpp"

namespace imgpar {

struct ThresholdSpec {
    bool otsu = false;
    int value = 128;  // used when !otsu
};

// Validated constructors: value outside 0..255 is a usage error naming the range.
ThresholdSpec threshold_at(int value);
// A level for images of either depth: 0..65535 (an 8-bit image checks 0..255 when it runs).
ThresholdSpec threshold_at_any_depth(int value);
ThresholdSpec threshold_otsu();

// Channels of the output for an input with `channels` channels: 1 or 2.
inline int threshold_output_channels(int channels) { return has_alpha(channels) ? 2 : 1; }

// Otsu's level of a plane of counts (see CONTRACT).
int otsu_threshold(const HistogramCounts& counts);
// On the intensity plane of h (Histogram::intensity).
int otsu_threshold(const Histogram& h);
// Otsu's level over `values` (256 or 65536) counts.
int otsu_threshold(const std::uint64_t* counts, int values);

struct ThresholdResult {
    ImageU8 image;
    int threshold = 0;  // the level used (Otsu's or the given one)
};

namespace cpu {
// The counts of the intensity alone (Histogram::intensity, without the
// channels' planes): what Otsu's level and luma-mode equalization need.
HistogramCounts intensity_histogram(ConstViewU8 src);
// Thresholds src into dst (same size, threshold_output_channels channels).
// Returns the level used. Throws imgpar::Error (usage) on a shape mismatch.
int threshold(ConstViewU8 src, ViewU8 dst, const ThresholdSpec& spec);
ThresholdResult threshold(ConstViewU8 src, const ThresholdSpec& spec);
// The 16-bit forms (see 16-BIT CONTRACT).
int threshold(ConstViewU16 src, ViewU16 dst, const ThresholdSpec& spec);
}  // namespace cpu

namespace gpu {
class Session;
// cpu::threshold on the session's GPU: dst has src's size and
// threshold_output_channels(src.channels) channels. Returns the level used;
// with Otsu it waits for the 256 intensity counts (the level is chosen on the
// host, as the CPU does), otherwise it only launches.
int threshold(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const ThresholdSpec& spec,
              std::string* kernel = nullptr);
int threshold(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const ThresholdSpec& spec,
              std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
