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
#pragma once

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
ThresholdSpec threshold_otsu();

// Channels of the output for an input with `channels` channels: 1 or 2.
inline int threshold_output_channels(int channels) { return has_alpha(channels) ? 2 : 1; }

// Otsu's level of a plane of counts (see CONTRACT).
int otsu_threshold(const HistogramCounts& counts);
// On the intensity plane of h (Histogram::intensity).
int otsu_threshold(const Histogram& h);

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
}  // namespace cpu

namespace gpu {
class Session;
// cpu::threshold on the session's GPU: dst has src's size and
// threshold_output_channels(src.channels) channels. Returns the level used;
// with Otsu it waits for the 256 intensity counts (the level is chosen on the
// host, as the CPU does), otherwise it only launches.
int threshold(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const ThresholdSpec& spec,
              std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
