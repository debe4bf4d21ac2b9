// Adaptive (local) thresholding: each pixel against a level from its own
// W x W window, for scanned documents and uneven lighting. The CPU reference
// (cpu::adaptive_threshold) and the GPU (gpu::adaptive_threshold,
// cuda/adaptive_threshold.cu) give byte-identical images.
//
// CONTRACT
// --------
// Intensity v: the gray sample, or luma601 of colour (as threshold). The
// window is W x W centred on the pixel, W odd, 1 <= W <= min(width, height);
// its sums come from summed-area tables of v and v^2
// (src/ops/integral.hpp), exact in 64 bits. Output: 255 where v is above
// the level, else 0; gray, or gray+alpha with the alpha copied.
// - mean (OpenCV adaptiveThreshold, ADAPTIVE_THRESH_MEAN_C, THRESH_BINARY):
//   level = round(mean) - ceil(C). Outside the image the window reads the
//   edge sample (replicate, OpenCV's BORDER_REPLICATE).
// - niblack (scikit-image threshold_niblack): level = m - k s.
// - sauvola (scikit-image threshold_sauvola): level = m (1 + k (s / r - 1)),
//   r = 128.
//   m and s are the window's mean and standard deviation (population);
//   outside the image the window reads the image mirrored about its edge
//   sample (reflect-101, numpy.pad's 'reflect', as scikit-image pads).
// The levels of niblack and sauvola are computed in double precision in the
// order of src/ops/adaptive_math.hpp, the same on both backends.
//
// 16-BIT CONTRACT (cpu::adaptive_threshold and gpu::adaptive_threshold on u16)
// -----------------------------------------------------------------------------
// Intensity v: the 16-bit gray sample or luma601 of the 16-bit samples
// (0..65535). Window sums from u64 summed-area tables of v and v^2 (a
// window's squares reach 2047^2 * 65535^2 < 2^54; the tables' entries,
// below 2^60 for 2^28 pixels, only enter differences, exact modulo 2^64).
// Output u16: 65535 above the level, else 0; alpha copied. Levels in the
// 16-bit scale: mean's C (--offset) is in 16-bit units (the same number
// compared with 16-bit samples, as threshold's --value); Sauvola's r is
// 256 r (32768 by default: half the 16-bit range, as 128 is of 8 bits and
// as scikit-image's default r is half the type's range). The variance's
// numerator n * squares - sum^2 (up to 2^76) is exact in 128 bits
// (adaptive_decision16). Border rules as for 8 bits.
#pragma once

#include <string>

#include "src/image.hpp"
#include "src/ops/adaptive_math.hpp"

namespace imgpar {

struct AdaptiveSpec {
    AdaptiveMethod method = AdaptiveMethod::Mean;
    int window = 15;
    double k = 0.2;
    double offset = 0;  // C of mean
    double r = 128;     // Sauvola's dynamic range of s
};

constexpr int kMaxAdaptiveWindow = 2047;  // window sums of v^2 times W^2 stay within 63 bits

// "mean", "sauvola", "niblack". Throws imgpar::Error (usage) naming --adaptive.
AdaptiveMethod parse_adaptive_method(const std::string& text);
const char* adaptive_method_name(AdaptiveMethod m);

// Usage errors naming --window (zero, even, above kMaxAdaptiveWindow), --k,
// --offset (-65535..65535: 16-bit images take the whole range).
void check_adaptive_spec(const AdaptiveSpec& spec);
// A usage error naming --offset when C is beyond -255..255 for an 8-bit image.
void check_adaptive_depth(const AdaptiveSpec& spec, SampleType type);
// A usage error naming --window when the window is larger than the image.
void check_adaptive_window(const AdaptiveSpec& spec, int width, int height);

// What adaptive_decision needs, from the spec.
AdaptiveParams adaptive_params(const AdaptiveSpec& spec);

namespace cpu {
// dst: src's size, threshold_output_channels(src.channels) channels.
void adaptive_threshold(ConstViewU8 src, ViewU8 dst, const AdaptiveSpec& spec);
// How the CPU computes it, for -v and --json.
std::string adaptive_threshold_kernel_name();
// The 16-bit form (see 16-BIT CONTRACT): dst u16.
void adaptive_threshold(ConstViewU16 src, ViewU16 dst, const AdaptiveSpec& spec);
std::string adaptive_threshold16_kernel_name();
}  // namespace cpu

// The parameters of the 16-bit decision: adaptive_params with Sauvola's r
// scaled to 16 bits (256 r).
AdaptiveParams adaptive_params16(const AdaptiveSpec& spec);

namespace gpu {
class Session;
void adaptive_threshold(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const AdaptiveSpec& spec,
                        std::string* kernel = nullptr);
void adaptive_threshold(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const AdaptiveSpec& spec,
                        std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
