#include "src/ops/equalize.hpp"

#include <algorithm>

#include "src/error.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/parallel.hpp"

namespace imgpar {

const char* equalize_mode_name(EqualizeMode mode) { return mode == EqualizeMode::Luma ? "luma" : "channels"; }

EqualizeMode parse_equalize_mode(const std::string& text) {
    if (text == "luma") return EqualizeMode::Luma;
    if (text == "channels") return EqualizeMode::Channels;
    throw usage_error("--mode", "'" + text + "' is not an equalization mode; use luma or channels");
}

EqualizeLut equalize_lut(const HistogramCounts& counts) {
    std::uint64_t total = 0, cdf_min = 0;
    for (std::uint64_t c : counts) {
        if (cdf_min == 0) cdf_min = c;  // count of the smallest value present
        total += c;
    }
    EqualizeLut lut{};
    std::uint64_t cdf = 0;
    for (int v = 0; v < kHistogramValues; ++v) {
        cdf += counts[static_cast<std::size_t>(v)];
        lut[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(equalize_lut_value(v, cdf, cdf_min, total));
    }
    return lut;
}

namespace cpu {

void equalize(ConstViewU8 src, ViewU8 dst, EqualizeMode mode) {
    check_image_shape(src.width, src.height, src.channels);
    if (!same_shape(src, dst))
        throw usage_error("equalize", "the output must have the input's size and channel count");
    const int C = src.channels;
    const bool luma_mode = mode == EqualizeMode::Luma && C >= 3;
    // Histogram first (all of it) so an in-place call reads the original pixels.
    const Histogram h = histogram(src, luma_mode);
    std::array<EqualizeLut, kMaxChannels> luts{};
    if (luma_mode) {
        luts[0] = equalize_lut(h.counts[static_cast<std::size_t>(C)]);
    } else {
        for (int c = 0; c < C; ++c) luts[static_cast<std::size_t>(c)] = equalize_lut(h.counts[static_cast<std::size_t>(c)]);
    }
    const int colour = has_alpha(C) ? C - 1 : C;
    const int grain = std::max(1, (1 << 16) / std::max(1, src.width));
    parallel_for(src.height, grain, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const std::uint8_t* s = src.row(y);
            std::uint8_t* d = dst.row(y);
            for (int x = 0; x < src.width; ++x, s += C, d += C) {
                if (luma_mode) {
                    int r = s[0], g = s[1], b = s[2];
                    equalize_luma_pixel(luts[0].data(), r, g, b);
                    d[0] = static_cast<std::uint8_t>(r);
                    d[1] = static_cast<std::uint8_t>(g);
                    d[2] = static_cast<std::uint8_t>(b);
                } else {
                    for (int c = 0; c < colour; ++c) d[c] = luts[static_cast<std::size_t>(c)][s[c]];
                }
                if (colour < C) d[C - 1] = s[C - 1];  // alpha unchanged
            }
        }
    });
}

ImageU8 equalize(ConstViewU8 src, EqualizeMode mode) {
    check_image_shape(src.width, src.height, src.channels);
    ImageU8 out(src.width, src.height, src.channels);
    equalize(src, out.view(), mode);
    return out;
}

}  // namespace cpu
}  // namespace imgpar
