// Statistics of 8-bit images by reduction: per channel, exact integer
// accumulators (count, sum, sum of squares, non-zero samples, min and max
// with the position of the first of each), from which one function derives
// the mean and the standard deviation. The CPU reference (cpu::stats) and the
// GPU (gpu::stats, cuda/stats.cu) produce identical accumulators, and both
// reports derive from them through stats_moments, so every printed digit is
// the same on both backends.
//
// CONTRACT
// --------
// Samples: every channel of the image (gray; gray, alpha; red, green, blue;
// red, green, blue, alpha), every pixel, whatever its alpha. With a mask (a
// plane of the image's width and height, one byte per pixel), only the
// pixels whose mask byte is non-zero count.
// Per channel:
//   count        the samples counted (the selected pixels)
//   sum, sum_squares, nonzero   over those samples, exact in 64 bits (the
//                sum of squares of 2^48 samples of 255 still fits)
//   min, max     the smallest / largest value, with the index y * width + x
//                of the first pixel that has it in row-major order
//   mean         sum / count
//   stddev       the POPULATION standard deviation (divides by count, not
//                count - 1): sqrt(count * sum_squares - sum^2) / count,
//                the numerator exact in 128-bit integers
// A channel with count 0 (a mask that selects nothing) has no min, max,
// mean or deviation: has_extremes() is false and stats_moments says empty;
// reports print them as absent (null in JSON), never as NaN.
// The overall figures of several channels (the "all" row) combine their
// accumulators: the counts and sums add up, min and max are the extremes of
// the channels', at the first pixel in row-major order that has one.
//
// 16-BIT CONTRACT (cpu::stats and gpu::stats on u16)
// ---------------------------------------------------
// The same accumulators and derivation, of samples 0..65535 (type U16):
// sum exact in 64 bits (65535 * N < 2^64 below 2^48 samples), sum_squares
// exact in 64 bits below 2^32 samples per channel (65535^2 * 2^32 < 2^64):
// a channel of more samples is refused (imgpar::Error, input), far past
// what imgpar loads (2^28 pixels by default). mean = sum / count is
// numpy's np.mean of the channel (float64 sums of integers below 2^53 are
// exact); stddev is np.std's (ddof 0) up to its float64 rounding. min and
// max are values 0..65535 at the first pixel in row-major order.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"

namespace imgpar {

// No pixel yet: larger than any index, so any real position comes first.
constexpr std::uint64_t kNoPixel = ~std::uint64_t{0};

struct ChannelSums {
    std::uint64_t count = 0;
    std::uint64_t sum = 0;
    std::uint64_t sum_squares = 0;
    std::uint64_t nonzero = 0;
    int min = 256;  // 256 / -1 until a sample is counted (16 bits too: add() looks at counts)
    int max = -1;
    std::uint64_t min_index = kNoPixel;  // y * width + x of the first pixel with `min`
    std::uint64_t max_index = kNoPixel;

    bool has_extremes() const { return count > 0; }
    // Adds the samples of `o` (another part of the image, or another
    // channel): exact, and independent of the order parts are added in.
    void add(const ChannelSums& o);
    bool operator==(const ChannelSums& o) const;
    bool operator!=(const ChannelSums& o) const { return !(*this == o); }
};

struct ImageStats {
    int width = 0;
    int height = 0;
    int channels = 0;
    bool masked = false;
    SampleType type = SampleType::U8;  // U8 or U16: the range of min and max
    std::uint64_t selected = 0;  // pixels counted: width * height, or the mask's non-zero pixels
    std::array<ChannelSums, kMaxChannels> channel{};

    // The channels in `list` combined (the "all" row).
    ChannelSums combined(const std::vector<int>& list) const;
    bool operator==(const ImageStats& o) const;
    bool operator!=(const ImageStats& o) const { return !(*this == o); }
};

// The first field in which two results differ ("red: sum 123 vs 124"), or
// empty when they are equal: for test and benchmark messages.
std::string stats_difference(const ImageStats& expected, const ImageStats& actual);

// Mean and population standard deviation, the one derivation both backends'
// reports use.
struct ChannelMoments {
    bool empty = true;  // count == 0: no mean, no deviation
    double mean = 0;
    double stddev = 0;  // population
};
ChannelMoments stats_moments(const ChannelSums& sums);

// The mask plane of a mask image: 1 where any of its channels is non-zero,
// 0 elsewhere (gray: the gray value; with alpha, alpha counts as a channel).
ImageU8 mask_plane(ConstViewU8 mask_image);
// A 16-bit mask image is read as it is stored: a sample of 1..65535 selects
// (reduced to 8 bits first, samples up to 128 would round to 0 and not).
ImageU8 mask_plane(ConstViewU16 mask_image);

// --channel for stats: "all" or a comma-separated list of channel names
// (gray, red, green, blue, alpha, r, g, b, a) or indices 0-3. Throws
// imgpar::Error (usage) naming --channel unless every entry names a channel
// of some image; luma is histo's, not a channel.
void check_stats_channels(const std::string& spec);
// The channels of a `channels`-channel image the spec names, in its order,
// without duplicates. Throws imgpar::Error (usage) naming the entry this
// image lacks.
std::vector<int> select_stats_channels(int channels, const std::string& spec);

namespace cpu {
// The statistics of every channel of `image`, over the pixels where `mask`
// (if given: one channel, the image's width and height) is non-zero. Row
// chunks on the CPU thread pool, combined exactly.
ImageStats stats(ConstViewU8 image, const ConstViewU8* mask = nullptr);
// The 16-bit statistics (see 16-BIT CONTRACT); the mask is the same 8-bit plane.
ImageStats stats(ConstViewU16 image, const ConstViewU8* mask = nullptr);
// How the CPU computes them, for -v and --json.
std::string stats_kernel_name();
}  // namespace cpu

namespace gpu {
class Session;
// cpu::stats's accumulators, computed on the session's GPU in one pass over
// `image` (device memory) and `mask` (if given, device memory, one channel);
// waits for them. `kernel`, if given, receives the name of what ran.
ImageStats stats(Session& session, ConstDeviceViewU8 image, const ConstDeviceViewU8* mask,
                 std::string* kernel = nullptr);
ImageStats stats(Session& session, ConstDeviceViewU16 image, const ConstDeviceViewU8* mask,
                 std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
