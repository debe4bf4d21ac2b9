// Histograms of 8-bit images: 256 exact counts per channel, plus a luma
// histogram for colour images. The CPU reference (cpu::histogram) and the GPU
// (cuda::histogram, cuda/histogram.hpp) produce identical counts.
//
// CONTRACT
// --------
// Planes: plane p < channels counts the image's channel p (gray; gray, alpha;
// red, green, blue; red, green, blue, alpha). For 3- and 4-channel images a
// luma plane follows (plane index == channels) when asked for: every pixel
// adds one to bin luma601(r, g, b) (src/ops/pixel_math.hpp), alpha ignored.
// Every pixel counts, whatever its alpha. Counts are 64-bit, so no image is
// too large.
//
// Bins: `bins` must divide 256 (1, 2, 4, ..., 256); bin i covers values
// [i * 256/bins, (i+1) * 256/bins - 1]. Other values are usage errors
// rather than silently rounded, so every bin has the same width.
//
// Statistics of a plane of N > 0 samples (plane_stats):
//   min, max   smallest / largest value with a non-zero count
//   mean       sum(v * h[v]) / N
//   stddev     population standard deviation, sqrt(sum((v-mean)^2 h[v]) / N),
//              from exact integer sums
//   median     the lower median: the smallest v with 2 * cdf(v) >= N
//   mode       the most frequent value; the smallest such value on ties
// For N == 0 every field is 0 and mean/stddev are NaN.
//
// Equalization and thresholding, built on these counts, are declared in
// src/ops/equalize.hpp and src/ops/threshold.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"

namespace imgpar {

constexpr int kHistogramValues = 256;
// Image channels plus the luma plane.
constexpr int kMaxHistogramPlanes = kMaxChannels + 1;

using HistogramCounts = std::array<std::uint64_t, kHistogramValues>;

struct Histogram {
    int channels = 0;         // of the image: 1 to 4
    bool luma = false;        // a luma plane follows the channels (3-4 channel images only)
    std::uint64_t pixels = 0; // width * height
    std::array<HistogramCounts, kMaxHistogramPlanes> counts{};

    int planes() const { return channels + (luma ? 1 : 0); }
    // Index of the luma plane, or -1.
    int luma_plane() const { return luma ? channels : -1; }
    // Throws imgpar::Error (usage) when p is not a plane of this histogram.
    const HistogramCounts& plane(int p) const;
    // "gray", "alpha", "red", "green", "blue", "luma".
    std::string plane_name(int p) const;
    // The plane thresholding works on: the gray channel of 1-2 channel
    // images, the luma plane of colour images (which must have been counted).
    const HistogramCounts& intensity() const;

    bool operator==(const Histogram& o) const;
    bool operator!=(const Histogram& o) const { return !(*this == o); }
};

// Name of channel c of a `channels`-channel image ("red", ...), "luma" for
// c == channels.
std::string histogram_plane_name(int channels, int c);

// Parses a --channel selection against a histogram: "all" (or empty) for
// every plane, else a comma-separated list of plane names (gray, red/r,
// green/g, blue/b, alpha/a, luma/l/y) or indices. Returns plane indices in
// the order given, without duplicates. Throws imgpar::Error (usage) naming the
// bad entry and what this image allows.
std::vector<int> select_histogram_planes(const Histogram& h, const std::string& spec);

// Throws imgpar::Error (usage) unless every entry of a --channel selection
// names a plane of some image (select_histogram_planes then checks it
// against each image's planes).
void check_histogram_channels(const std::string& spec);

// Throws imgpar::Error (usage) unless bins divides 256.
void check_histogram_bins(int bins);
// Counts merged into `bins` equal bins (see CONTRACT).
std::vector<std::uint64_t> rebin(const HistogramCounts& counts, int bins);
// Lowest / highest value of bin i out of `bins`.
inline int bin_lower(int i, int bins) { return i * (kHistogramValues / bins); }
inline int bin_upper(int i, int bins) { return (i + 1) * (kHistogramValues / bins) - 1; }

struct PlaneStats {
    std::uint64_t count = 0;
    int min = 0;
    int max = 0;
    double mean = 0;
    double stddev = 0;
    int median = 0;
    int mode = 0;
};
PlaneStats plane_stats(const HistogramCounts& counts);

// Sum of counts (the number of samples).
std::uint64_t total_count(const HistogramCounts& counts);

namespace cpu {
// Counts every channel of `image` (and the luma plane when with_luma and the
// image has 3-4 channels). Multithreaded over rows.
Histogram histogram(ConstViewU8 image, bool with_luma = true);
}  // namespace cpu

namespace cpu {
// How the CPU counts, for -v and --json.
std::string histogram_kernel_name();
}  // namespace cpu

namespace gpu {
class Session;
// cpu::histogram's counts, computed on the session's GPU in one pass over
// `image` (device memory); waits for them. `kernel`, if given, receives the
// name of the kernel that ran.
Histogram histogram(Session& session, ConstDeviceViewU8 image, bool with_luma, std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
