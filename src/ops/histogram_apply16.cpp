// Equalization and thresholding of 16-bit images (src/ops/equalize.hpp and
// src/ops/threshold.hpp, 16-BIT CONTRACT): the exact 65,536-value histograms
// (src/ops/histogram16.cpp), 65,536-entry tables, and the per-sample math of
// src/ops/histogram_math.hpp that the GPU shares.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/error.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/threshold.hpp"
#include "src/parallel.hpp"

namespace imgpar {

std::vector<std::uint16_t> equalize_lut16(const std::uint64_t* counts) {
    std::uint64_t total = 0, cdf_min = 0;
    for (int v = 0; v < kHistogramValues16; ++v) {
        if (cdf_min == 0) cdf_min = counts[v];  // count of the smallest value present
        total += counts[v];
    }
    std::vector<std::uint16_t> lut(kHistogramValues16);
    std::uint64_t cdf = 0;
    for (int v = 0; v < kHistogramValues16; ++v) {
        cdf += counts[v];
        lut[static_cast<std::size_t>(v)] = static_cast<std::uint16_t>(equalize_lut_value16(v, cdf, cdf_min, total));
    }
    return lut;
}

namespace cpu {

void equalize(ConstViewU16 src, ViewU16 dst, EqualizeMode mode) {
    check_image_shape(src.width, src.height, src.channels);
    if (!same_shape(src, dst))
        throw usage_error("equalize", "the output must have the input's size and channel count");
    const int C = src.channels;
    const bool luma_mode = mode == EqualizeMode::Luma && C >= 3;
    const int colour = has_alpha(C) ? C - 1 : C;
    // Every table before any pixel is written: dst may be src.
    const Histogram16 h = histogram(src, luma_mode);
    std::vector<std::vector<std::uint16_t>> luts;
    if (luma_mode)
        luts.push_back(equalize_lut16(h.plane(C)));
    else
        for (int c = 0; c < colour; ++c) luts.push_back(equalize_lut16(h.plane(c)));
    const int grain = std::max(1, (1 << 16) / std::max(1, src.width));
    parallel_for(src.height, grain, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const std::uint16_t* s = src.row(y);
            std::uint16_t* d = dst.row(y);
            for (int x = 0; x < src.width; ++x, s += C, d += C) {
                if (luma_mode) {
                    int r = s[0], g = s[1], b = s[2];
                    equalize_luma_pixel16(luts[0].data(), r, g, b);
                    const std::uint16_t a = C == 4 ? s[3] : 0;
                    d[0] = static_cast<std::uint16_t>(r);
                    d[1] = static_cast<std::uint16_t>(g);
                    d[2] = static_cast<std::uint16_t>(b);
                    if (C == 4) d[3] = a;
                    continue;
                }
                const std::uint16_t a = has_alpha(C) ? s[C - 1] : 0;
                for (int c = 0; c < colour; ++c) d[c] = luts[static_cast<std::size_t>(c)][s[c]];
                if (has_alpha(C)) d[C - 1] = a;
            }
        }
    });
}

ImageU16 equalize(ConstViewU16 src, EqualizeMode mode) {
    check_image_shape(src.width, src.height, src.channels);
    ImageU16 out(src.width, src.height, src.channels);
    equalize(src, out.view(), mode);
    return out;
}

int threshold(ConstViewU16 src, ViewU16 dst, const ThresholdSpec& spec) {
    check_image_shape(src.width, src.height, src.channels);
    const int C = src.channels;
    const int out_c = threshold_output_channels(C);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("threshold", "the output must have the input's size and " + std::to_string(out_c) +
                                           " channel(s)");
    if (!spec.otsu) threshold_at_any_depth(spec.value);  // validates 0..65535
    int t = spec.value;
    if (spec.otsu) {
        const Histogram16 h = histogram(src, true);
        t = otsu_threshold(h.intensity(), kHistogramValues16);
    }
    const int grain = std::max(1, (1 << 16) / std::max(1, src.width));
    parallel_for(src.height, grain, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const std::uint16_t* s = src.row(y);
            std::uint16_t* d = dst.row(y);
            for (int x = 0; x < src.width; ++x, s += C, d += out_c) {
                const std::uint16_t a = has_alpha(C) ? s[C - 1] : 0;
                d[0] = static_cast<std::uint16_t>(threshold_value16(intensity_of16(s, C), t));
                if (out_c == 2) d[1] = a;
            }
        }
    });
    return t;
}

}  // namespace cpu
}  // namespace imgpar
