#include "src/ops/equalize.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "src/error.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/simd/intensity_rows.hpp"
#include "src/ops/threshold.hpp"
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
    // Counts first (all of them) so an in-place call reads the original
    // pixels: luma mode needs the luma plane alone, channels mode the
    // colour channels' planes.
    std::array<EqualizeLut, kMaxChannels> luts{};
    if (luma_mode) {
        luts[0] = equalize_lut(intensity_histogram(src));
    } else {
        const Histogram h = histogram(src, false);
        for (int c = 0; c < C; ++c) luts[static_cast<std::size_t>(c)] = equalize_lut(h.counts[static_cast<std::size_t>(c)]);
        if (has_alpha(C))
            for (int v = 0; v < kHistogramValues; ++v)
                luts[static_cast<std::size_t>(C - 1)][static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(v);  // alpha unchanged
    }
    const std::uint8_t* tables[kMaxChannels];
    for (int c = 0; c < kMaxChannels; ++c) tables[c] = luts[static_cast<std::size_t>(c)].data();
    const std::size_t w = static_cast<std::size_t>(src.width);
    const int grain = std::max(1, (1 << 16) / std::max(1, src.width));
    parallel_for(src.height, grain, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const std::uint8_t* s = src.row(y);
            std::uint8_t* d = dst.row(y);
            if (luma_mode) {
                simd::equalize_luma_row(s, C, w, tables[0], d);
                continue;
            }
            simd::apply_tables_row(s, C, w, tables, d);
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
