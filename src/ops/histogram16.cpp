// The 16-bit histogram (src/ops/histogram.hpp, 16-BIT CONTRACT): exact
// 65,536-value counts per plane, and the bin rule of --bins for 16 bits.
#include <algorithm>
#include <mutex>
#include <vector>

#include "src/error.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/pixel_math.hpp"
#include "src/parallel.hpp"

namespace imgpar {

const std::uint64_t* Histogram16::plane(int p) const {
    if (p < 0 || p >= planes())
        throw usage_error("histogram", "plane " + std::to_string(p) + " does not exist (this histogram has " +
                                           std::to_string(planes()) + ")");
    return counts.data() + static_cast<std::size_t>(p) * kHistogramValues16;
}

std::string Histogram16::plane_name(int p) const {
    plane(p);  // range check
    return histogram_plane_name(channels, p);
}

const std::uint64_t* Histogram16::intensity() const {
    if (channels <= 2) return plane(0);
    if (!luma) throw usage_error("histogram", "the luma plane of this colour image was not counted");
    return plane(channels);
}

Histogram Histogram16::layout() const {
    Histogram h;
    h.channels = channels;
    h.luma = luma;
    h.pixels = pixels;
    return h;
}

bool Histogram16::operator==(const Histogram16& o) const {
    return channels == o.channels && luma == o.luma && pixels == o.pixels && counts == o.counts;
}

void check_histogram_bins16(int bins) {
    if (bins < 1 || bins > kHistogramValues16 || (bins & (bins - 1)) != 0)
        throw usage_error("--bins", std::to_string(bins) +
                                        " is not allowed: use a power of two, 1 to 256 for 8-bit images (N must divide "
                                        "256), 1 to 65536 for 16-bit ones (65536 counts every value)");
}

namespace cpu {
namespace {

// A chunk's private counts: 32-bit counters, flushed into the 64-bit totals
// before any could pass 2^32 (a chunk holds far fewer samples than that:
// parallel_for's grain keeps chunks to a few rows).
using Counters16 = std::vector<std::uint32_t>;

template <int C>
void count_rows16(ConstViewU16 img, bool luma, int y0, int y1, Counters16& out) {
    std::uint32_t* planes[kMaxHistogramPlanes] = {};
    for (std::size_t p = 0; p * kHistogramValues16 < out.size(); ++p) planes[p] = out.data() + p * kHistogramValues16;
    for (int y = y0; y < y1; ++y) {
        const std::uint16_t* px = img.row(y);
        for (int x = 0; x < img.width; ++x, px += C) {
            for (int c = 0; c < C; ++c) ++planes[c][px[c]];
            if constexpr (C >= 3)
                if (luma) ++planes[C][luma601(px[0], px[1], px[2])];
        }
    }
}

}  // namespace

Histogram16 histogram(ConstViewU16 image, bool with_luma) {
    check_image_shape(image.width, image.height, image.channels);
    Histogram16 h;
    h.channels = image.channels;
    h.luma = with_luma && image.channels >= 3;
    h.pixels = static_cast<std::uint64_t>(image.width) * static_cast<std::uint64_t>(image.height);
    const int planes = h.planes();
    const std::size_t counters = static_cast<std::size_t>(planes) * kHistogramValues16;
    h.counts.assign(counters, 0);
    std::mutex merge;
    // Chunks of at least 2^18 samples, so that merging 65,536 counters per
    // plane costs little beside the counting; at most 2^31 pixels, so no
    // 32-bit counter overflows.
    const int grain = std::max(1, (1 << 18) / std::max(1, image.width));
    const int max_rows = static_cast<int>(std::clamp<std::size_t>((std::size_t{1} << 31) / static_cast<std::size_t>(image.width), 1,
                                                                  static_cast<std::size_t>(image.height)));
    parallel_for(image.height, std::min(grain, max_rows), [&](int y0, int y1) {
        Counters16 local(counters);
        for (int y = y0; y < y1; y += max_rows) {
            std::fill(local.begin(), local.end(), 0u);
            const int end = std::min(y1, y + max_rows);
            switch (image.channels) {
                case 1: count_rows16<1>(image, false, y, end, local); break;
                case 2: count_rows16<2>(image, false, y, end, local); break;
                case 3: count_rows16<3>(image, h.luma, y, end, local); break;
                default: count_rows16<4>(image, h.luma, y, end, local); break;
            }
            std::lock_guard<std::mutex> lock(merge);
            for (std::size_t i = 0; i < counters; ++i) h.counts[i] += local[i];
        }
    });
    return h;
}

}  // namespace cpu
}  // namespace imgpar
