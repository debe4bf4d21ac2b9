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
//
// 16-BIT CONTRACT (Histogram16, cpu::histogram and gpu::histogram on u16)
// -------------------------------------------------------------------------
// Always counted exactly: 65,536 64-bit counters per plane (what numpy's
// np.bincount(plane, minlength=65536) gives), so the statistics above are of
// values, not of bins, whatever --bins is. Planes as for 8 bits; the luma
// plane counts luma601 of the 16-bit samples, (77 R + 150 G + 29 B + 128) >> 8,
// which stays in 0..65535 (77 + 150 + 29 = 256) and in 32-bit ints (at most
// 256 * 65535 + 128 < 2^25).
//
// Bins: `bins` is a power of two from 1 to 65536 (check_histogram_bins16);
// bin i covers [i * 65536/bins, (i+1) * 65536/bins - 1], so a sample v is in
// bin v >> (16 - log2 bins): np.histogram(plane, bins, range=(0, 65536)).
// 65536 bins is the exact mode.
//
// Statistics (plane_stats on 65,536 values) as above; the sums are exact:
// sum v*h fits 64 bits below 2^48 samples, sum v^2*h and the variance
// numerator are kept in 128 bits.
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

// --- 16 bits -------------------------------------------------------------------

constexpr int kHistogramValues16 = 65536;

// Exact counts of a 16-bit image (see 16-BIT CONTRACT): planes() * 65536
// counters, plane after plane.
struct Histogram16 {
    int channels = 0;
    bool luma = false;
    std::uint64_t pixels = 0;
    std::vector<std::uint64_t> counts;  // planes() * kHistogramValues16

    int planes() const { return channels + (luma ? 1 : 0); }
    int luma_plane() const { return luma ? channels : -1; }
    // The plane's 65536 counters; throws imgpar::Error (usage) when p is not a plane.
    const std::uint64_t* plane(int p) const;
    std::uint64_t* plane(int p) { return counts.data() + static_cast<std::size_t>(p) * kHistogramValues16; }
    std::string plane_name(int p) const;
    // Gray for 1-2 channel images, luma for colour images (which must have been counted).
    const std::uint64_t* intensity() const;
    // A Histogram without counts but with this one's planes: what
    // select_histogram_planes needs.
    Histogram layout() const;

    bool operator==(const Histogram16& o) const;
    bool operator!=(const Histogram16& o) const { return !(*this == o); }
};

// Throws imgpar::Error (usage) unless bins is a power of two from 1 to 65536.
void check_histogram_bins16(int bins);
// Counts of `values` (256 or 65536) values merged into `bins` equal bins;
// bins must divide values.
std::vector<std::uint64_t> rebin(const std::uint64_t* counts, int values, int bins);
// Statistics of a plane of `values` (256 or 65536) counters.
PlaneStats plane_stats(const std::uint64_t* counts, int values);

namespace cpu {
// Counts every channel of `image` (and the luma plane when with_luma and the
// image has 3-4 channels). Multithreaded over rows.
Histogram histogram(ConstViewU8 image, bool with_luma = true);
// The 16-bit counts (see 16-BIT CONTRACT). Multithreaded over rows.
Histogram16 histogram(ConstViewU16 image, bool with_luma = true);
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
// cpu::histogram's 16-bit counts on the GPU.
Histogram16 histogram(Session& session, ConstDeviceViewU16 image, bool with_luma, std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
