#include "src/ops/threshold.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

#include "src/error.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/simd/intensity_rows.hpp"
#include "src/parallel.hpp"

namespace imgpar {

ThresholdSpec threshold_at(int value) {
    if (value < 0 || value > 255)
        throw usage_error("--value", std::to_string(value) + " is outside 0..255 (pixels above the value become 255)");
    ThresholdSpec s;
    s.value = value;
    return s;
}

ThresholdSpec threshold_at_any_depth(int value) {
    if (value < 0 || value > 65535)
        throw usage_error("--value", std::to_string(value) +
                                         " is outside 0..65535 (0..255 for 8-bit images; pixels above the value become white)");
    ThresholdSpec s;
    s.value = value;
    return s;
}

ThresholdSpec threshold_otsu() {
    ThresholdSpec s;
    s.otsu = true;
    return s;
}

int otsu_threshold(const HistogramCounts& h) { return otsu_threshold(h.data(), kHistogramValues); }

int otsu_threshold(const std::uint64_t* h, int values) {
    using i128 = __int128;
    std::uint64_t n = 0, s = 0;
    int first = -1;
    for (int v = 0; v < values; ++v) {
        const std::uint64_t c = h[v];
        n += c;
        s += c * static_cast<std::uint64_t>(v);
        if (c != 0 && first < 0) first = v;
    }
    if (n == 0) return 0;
    std::uint64_t n0 = 0, s0 = 0;
    long double best = -1.0L;
    int best_t = first;  // no split possible: a single value v gives T = v
    for (int t = 0; t < values - 1; ++t) {
        const std::uint64_t c = h[t];
        n0 += c;
        s0 += c * static_cast<std::uint64_t>(t);
        const std::uint64_t n1 = n - n0;
        if (n0 == 0 || n1 == 0) continue;
        const i128 d = static_cast<i128>(n) * s0 - static_cast<i128>(s) * n0;
        const long double dd = static_cast<long double>(d);
        const long double score = dd * dd / (static_cast<long double>(n0) * static_cast<long double>(n1));
        if (score > best) {
            best = score;
            best_t = t;
        }
    }
    return best_t;
}

int otsu_threshold(const Histogram& h) { return otsu_threshold(h.intensity()); }

namespace cpu {

namespace {

// The intensity counts of src; with `keep` (a gray image of src's size),
// each row's intensities are also written there, from L1 as they are
// counted, so that a later pass reads one byte per pixel instead of
// computing luma again from three.
HistogramCounts count_intensity(ConstViewU8 src, const ViewU8* keep) {
    HistogramCounts total{};
    std::mutex merge;
    const std::size_t w = static_cast<std::size_t>(src.width);
    // Rows between flushes of the 32-bit counts into the 64-bit ones.
    const int rows_per_flush = static_cast<int>(std::clamp<std::size_t>((std::size_t{1} << 31) / w, 1, static_cast<std::size_t>(src.height)));
    const int grain = std::max(1, (1 << 16) / std::max(1, src.width));
    parallel_for(src.height, grain, [&](int y0, int y1) {
        std::vector<std::uint32_t> counts(simd::kIntensitySubHistograms * kHistogramValues);
        HistogramCounts local{};
        for (int y = y0; y < y1; y += rows_per_flush) {
            std::fill(counts.begin(), counts.end(), 0u);
            for (int row = y; row < std::min(y1, y + rows_per_flush); ++row) {
                if (keep) {
                    simd::intensity_row(src.row(row), src.channels, w, keep->row(row));
                    simd::count_intensity_row(keep->row(row), 1, w, counts.data());
                } else {
                    simd::count_intensity_row(src.row(row), src.channels, w, counts.data());
                }
            }
            for (int v = 0; v < kHistogramValues; ++v)
                for (int k = 0; k < simd::kIntensitySubHistograms; ++k) local[static_cast<std::size_t>(v)] += counts[static_cast<std::size_t>(k * kHistogramValues + v)];
        }
        std::lock_guard<std::mutex> lock(merge);
        for (int v = 0; v < kHistogramValues; ++v) total[static_cast<std::size_t>(v)] += local[static_cast<std::size_t>(v)];
    });
    return total;
}

}  // namespace

HistogramCounts intensity_histogram(ConstViewU8 src) {
    check_image_shape(src.width, src.height, src.channels);
    return count_intensity(src, nullptr);
}

int threshold(ConstViewU8 src, ViewU8 dst, const ThresholdSpec& spec) {
    check_image_shape(src.width, src.height, src.channels);
    const int C = src.channels;
    const int out_c = threshold_output_channels(C);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("threshold", "the output must have the input's size and " + std::to_string(out_c) +
                                           " channel(s)");
    if (!spec.otsu) threshold_at(spec.value);  // validates
    // RGB with Otsu: the counting pass leaves the lumas in dst (gray, the
    // same size), and the threshold pass maps them in place.
    const bool lumas_in_dst = spec.otsu && C == 3;
    const int t = spec.otsu ? otsu_threshold(count_intensity(src, lumas_in_dst ? &dst : nullptr)) : spec.value;
    const int grain = std::max(1, (1 << 16) / std::max(1, src.width));
    parallel_for(src.height, grain, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            if (lumas_in_dst)
                simd::threshold_row(dst.row(y), 1, static_cast<std::size_t>(src.width), t, dst.row(y));
            else
                simd::threshold_row(src.row(y), C, static_cast<std::size_t>(src.width), t, dst.row(y));
        }
    });
    return t;
}

ThresholdResult threshold(ConstViewU8 src, const ThresholdSpec& spec) {
    check_image_shape(src.width, src.height, src.channels);
    ThresholdResult r;
    r.image = ImageU8(src.width, src.height, threshold_output_channels(src.channels));
    r.threshold = threshold(src, r.image.view(), spec);
    return r;
}

}  // namespace cpu
}  // namespace imgpar
