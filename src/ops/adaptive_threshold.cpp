#include "src/ops/adaptive_threshold.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "src/error.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/integral.hpp"
#include "src/ops/threshold.hpp"
#include "src/parallel.hpp"

namespace imgpar {

AdaptiveMethod parse_adaptive_method(const std::string& text) {
    if (text == "mean") return AdaptiveMethod::Mean;
    if (text == "sauvola") return AdaptiveMethod::Sauvola;
    if (text == "niblack") return AdaptiveMethod::Niblack;
    throw usage_error("--adaptive", "'" + text + "' is not a method (allowed: mean, sauvola, niblack)");
}

const char* adaptive_method_name(AdaptiveMethod m) {
    switch (m) {
        case AdaptiveMethod::Mean: return "mean";
        case AdaptiveMethod::Sauvola: return "sauvola";
        case AdaptiveMethod::Niblack: return "niblack";
    }
    return "mean";
}

void check_adaptive_spec(const AdaptiveSpec& s) {
    if (s.window < 1 || s.window > kMaxAdaptiveWindow || s.window % 2 == 0)
        throw usage_error("--window", std::to_string(s.window) + " is not allowed: the window is W x W pixels centred "
                                      "on each pixel (allowed: an odd W from 1 to " +
                                          std::to_string(kMaxAdaptiveWindow) + ", at most the image's width and height)");
    if (!std::isfinite(s.k) || s.k < -10 || s.k > 10) throw usage_error("--k", "must be from -10 to 10");
    if (!std::isfinite(s.offset) || s.offset < -255 || s.offset > 255)
        throw usage_error("--offset", "must be from -255 to 255");
}

void check_adaptive_window(const AdaptiveSpec& s, int width, int height) {
    if (s.window > width || s.window > height)
        throw usage_error("--window", std::to_string(s.window) + " is larger than the " + std::to_string(width) + "x" +
                                          std::to_string(height) + " image (allowed: an odd W up to " +
                                          std::to_string(std::min(width, height)) + ")");
}

AdaptiveParams adaptive_params(const AdaptiveSpec& s) {
    AdaptiveParams p;
    p.method = s.method;
    p.n = static_cast<long long>(s.window) * s.window;
    p.offset = static_cast<int>(std::ceil(s.offset));
    p.k = s.k;
    p.r = s.r;
    p.inv_n = static_cast<float>(1.0 / static_cast<double>(p.n));
    p.inv_n2 = static_cast<float>(1.0 / (static_cast<double>(p.n) * static_cast<double>(p.n)));
    p.inv_r = static_cast<float>(1.0 / s.r);
    p.k_single = static_cast<float>(s.k);
    return p;
}

namespace cpu {

void adaptive_threshold(ConstViewU8 src, ViewU8 dst, const AdaptiveSpec& spec) {
    check_image_shape(src.width, src.height, src.channels);
    const int C = src.channels, out_c = threshold_output_channels(C);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("threshold", "the output must have the input's size and " + std::to_string(out_c) +
                                           " channel(s)");
    check_adaptive_spec(spec);
    check_adaptive_window(spec, src.width, src.height);
    // The intensity plane and its tables of sums and squares.
    ImageU8 intensity(src.width, src.height, 1);
    for (int y = 0; y < src.height; ++y) {
        const std::uint8_t* s = src.row(y);
        std::uint8_t* d = intensity.row(y);
        for (int x = 0; x < src.width; ++x) d[x] = static_cast<std::uint8_t>(intensity_of(s + x * C, C));
    }
    std::vector<unsigned long long> tables(2 * static_cast<std::size_t>(src.width + 1) * (src.height + 1));
    const SumTableView t = sum_table_view(tables.data(), SumType::U64, src.width, src.height, 1, true);
    integral(intensity.view(), t);
    const PlaneTable sums{tables.data(), t.pitch};
    const PlaneTable squares{tables.data() + tables.size() / 2, t.pitch};
    const AdaptiveParams p = adaptive_params(spec);
    const bool replicate = spec.method == AdaptiveMethod::Mean;
    const int radius = spec.window / 2;
    parallel_for(src.height, std::max(1, (1 << 14) / std::max(1, src.width)), [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const AxisRanges ys = axis_ranges(y, radius, src.height, replicate);
            const std::uint8_t* v = intensity.row(y);
            const std::uint8_t* s = src.row(y);
            std::uint8_t* d = dst.row(y);
            for (int x = 0; x < src.width; ++x) {
                const AxisRanges xs = axis_ranges(x, radius, src.width, replicate);
                d[x * out_c] = static_cast<std::uint8_t>(
                    adaptive_decision(v[x], window_sum(sums, xs, ys), window_sum(squares, xs, ys), p));
                if (out_c == 2) d[x * out_c + 1] = s[x * C + C - 1];  // alpha unchanged
            }
        }
    });
}

}  // namespace cpu
}  // namespace imgpar
