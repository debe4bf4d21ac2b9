// Comparing two 8-bit images of one shape (imgpar compare): per channel and
// over all channels, the largest absolute difference, how many samples
// differ, MAE, MSE, RMSE, PSNR, and SSIM (src/ops/ssim.hpp); optionally the
// absolute-difference image and the SSIM map. The CPU reference
// (cpu::compare) and the GPU (gpu::compare) give the same numbers, bit for
// bit, and the same images.
//
// CONTRACT
// --------
// Every channel counts alike (alpha too). Exact integer sums first, per
// channel, in 64 bits (DifferenceSums): the largest |a - b|, the samples
// with a != b, sum |a - b|, sum (a - b)^2, and the pixels with any channel
// different. Every metric is derived from those on the host, one way for
// both backends (difference_metrics), with N the samples summed over (W H
// for a channel, W H C overall):
//   MAE  = sum |d| / N            MSE = sum d^2 / N           RMSE = sqrt(MSE)
//   PSNR = 10 log10(255^2 / MSE) dB: infinite when MSE = 0 (identical images;
//          the reports print "inf" as text, null in JSON)
//   share = differing samples / N
// These are scikit-image's mean_squared_error and peak_signal_noise_ratio
// (data_range=255) over the same samples. The difference image holds |a - b|
// per sample (same size and channels).
//
// 16-BIT CONTRACT (cpu::compare and gpu::compare on u16 pairs)
// -------------------------------------------------------------
// The same sums of |a - b| <= 65535: sum_abs exact in 64 bits below 2^48
// samples, sum (a - b)^2 (each below 2^32) below 2^32 samples a channel;
// DifferenceSums::data_range is 65535, so PSNR = 10 log10(65535^2 / MSE)
// (scikit-image's data_range=65535). SSIM with L = 65535 (src/ops/ssim.hpp,
// 16 BITS). The difference image is u16 |a - b|; the SSIM map stays 8-bit.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "src/backend.hpp"
#include "src/image.hpp"
#include "src/ops/ssim.hpp"

namespace imgpar {

struct ChannelDifference {
    int max_abs = 0;            // largest |a - b|
    std::uint64_t differ = 0;   // samples with a != b
    std::uint64_t sum_abs = 0;  // sum of |a - b|
    std::uint64_t sum_sq = 0;   // sum of (a - b)^2
    bool operator==(const ChannelDifference& o) const {
        return max_abs == o.max_abs && differ == o.differ && sum_abs == o.sum_abs && sum_sq == o.sum_sq;
    }
};

struct DifferenceSums {
    int channels = 0;
    int data_range = 255;             // the samples' largest value: PSNR's peak (65535 for 16 bits)
    std::uint64_t pixels = 0;         // width x height
    std::uint64_t pixels_differ = 0;  // pixels with any channel different
    std::array<ChannelDifference, kMaxChannels> channel{};
    bool operator==(const DifferenceSums& o) const {
        return channels == o.channels && data_range == o.data_range && pixels == o.pixels &&
               pixels_differ == o.pixels_differ && channel == o.channel;
    }
    bool operator!=(const DifferenceSums& o) const { return !(*this == o); }
};

// The metrics of one channel, or of all channels (see CONTRACT).
struct DifferenceMetrics {
    int max_abs = 0;
    std::uint64_t samples = 0;  // N
    std::uint64_t differ = 0;
    double differ_share = 0;
    double mae = 0;
    double mse = 0;
    double rmse = 0;
    double psnr = 0;  // +infinity when mse == 0
};

// channel: 0 .. channels - 1, or -1 for all channels together.
DifferenceMetrics difference_metrics(const DifferenceSums& sums, int channel);

// What a comparison computes besides the sums.
struct CompareOptions {
    bool ssim = true;          // skipped (SsimResult::defined false) for images smaller than the window
    int ssim_downsample = 1;   // shrink first by this factor, or kSsimAutoDownsample (src/ops/ssim.hpp)
    bool diff = false;         // the absolute-difference image
    bool ssim_map = false;     // the 8-bit SSIM map (needs the window to fit)
};

// The SSIM a comparison of width x height images computes: the factor
// (options.ssim_downsample resolved), the size of the images it is computed
// on (shrunk by that factor), and whether the window fits in them.
struct SsimPlan {
    int downsample = 1;
    int width = 0;
    int height = 0;
    bool fits = false;
    // Why the window does not fit, after the image's name: "is smaller than
    // the 11x11 window", or "shrunk 40x (--ssim-downsample) is 12x8, smaller
    // than the 11x11 window".
    std::string shortfall() const;
};
SsimPlan ssim_plan(const CompareOptions& options, int width, int height);

struct Comparison {
    DifferenceSums sums;
    SsimResult ssim;
    ImageU8 diff;      // when asked
    ImageU8 ssim_map;  // when asked
};

// "both images are 640x480 RGB" is required: throws imgpar::Error (input)
// naming both files and their shapes when they differ.
void check_comparable(ConstViewU8 a, ConstViewU8 b, const std::string& name_a, const std::string& name_b);

namespace cpu {
// The sums, and |a - b| into `diff` when given (a's shape). Multithreaded
// over rows.
DifferenceSums difference_sums(ConstViewU8 a, ConstViewU8 b, const ViewU8* diff = nullptr);
// Everything `options` asks for. Throws imgpar::Error (usage) on a shape
// mismatch, or for an SSIM map of an image smaller than the window.
Comparison compare(ConstViewU8 a, ConstViewU8 b, const CompareOptions& options);
// How the CPU computes, for -v and --json.
std::string compare_kernel_name(const CompareOptions& options);
}  // namespace cpu

namespace gpu {
class Session;
// cpu::compare on the session's GPU, a and b in device memory: one pass over
// both for the sums (and the difference image), the SSIM's moments on the
// device; waits for the results. `kernel`, when given, names what ran.
Comparison compare(Session& session, ConstDeviceViewU8 a, ConstDeviceViewU8 b, const CompareOptions& options,
                   std::string* kernel = nullptr);
}  // namespace gpu

// A comparison of 16-bit images (see 16-BIT CONTRACT).
struct Comparison16 {
    DifferenceSums sums;  // data_range 65535
    SsimResult ssim;
    ImageU16 diff;     // when asked
    ImageU8 ssim_map;  // when asked
};

namespace cpu {
DifferenceSums difference_sums(ConstViewU16 a, ConstViewU16 b, const ViewU16* diff = nullptr);
// options.ssim_downsample must resolve to 1 (a usage error otherwise).
Comparison16 compare(ConstViewU16 a, ConstViewU16 b, const CompareOptions& options);
}  // namespace cpu

namespace gpu {
Comparison16 compare(Session& session, ConstDeviceViewU16 a, ConstDeviceViewU16 b, const CompareOptions& options,
                     std::string* kernel = nullptr);
}  // namespace gpu

// Host images on the chosen backend: the CPU reference, or the GPU through
// the session's device images (a in its Input slot, b in its Output slot).
Comparison compare_images(const BackendChoice& backend, ConstViewU8 a, ConstViewU8 b, const CompareOptions& options,
                          std::string* kernel = nullptr);
// The same for 16-bit pairs (options.ssim_downsample must resolve to 1).
Comparison16 compare_images(const BackendChoice& backend, ConstViewU16 a, ConstViewU16 b, const CompareOptions& options,
                            std::string* kernel = nullptr);

}  // namespace imgpar
