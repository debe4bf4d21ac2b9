// Adaptive thresholding of 16-bit images (src/ops/adaptive_threshold.hpp,
// 16-BIT CONTRACT), as the contract states it: the intensity plane, its u64
// summed-area tables of v and v^2 (cpu::integral on 16 bits), and each
// pixel's window sum from the tables (window_sum over axis_ranges, the
// border rules of the 8-bit path) decided by adaptive_decision16, which the
// GPU shares.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/error.hpp"
#include "src/ops/adaptive_threshold.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/integral.hpp"
#include "src/ops/threshold.hpp"
#include "src/parallel.hpp"

namespace imgpar {

AdaptiveParams adaptive_params16(const AdaptiveSpec& spec) {
    AdaptiveSpec s = spec;
    s.r = spec.r * 256;
    return adaptive_params(s);
}

namespace cpu {

void adaptive_threshold(ConstViewU16 src, ViewU16 dst, const AdaptiveSpec& spec) {
    check_image_shape(src.width, src.height, src.channels);
    const int C = src.channels, out_c = threshold_output_channels(C);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("threshold", "the output must have the input's size and " + std::to_string(out_c) +
                                           " channel(s)");
    check_adaptive_spec(spec);
    check_adaptive_window(spec, src.width, src.height);
    const AdaptiveParams p = adaptive_params16(spec);
    const bool mean = spec.method == AdaptiveMethod::Mean;
    const int W = src.width, H = src.height, r = spec.window / 2;
    // The intensity plane.
    ImageU16 v(W, H, 1);
    const int grain = std::max(1, (1 << 16) / std::max(1, W));
    parallel_for(H, grain, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const std::uint16_t* s = src.row(y);
            std::uint16_t* d = v.row(y);
            for (int x = 0; x < W; ++x) d[x] = static_cast<std::uint16_t>(intensity_of16(s + static_cast<std::size_t>(x) * C, C));
        }
    });
    // Its tables: the sums, and the squares for Sauvola and Niblack.
    std::vector<unsigned long long> tables(static_cast<std::size_t>(W + 1) * (H + 1) * (mean ? 1 : 2));
    const SumTableView t = sum_table_view(tables.data(), SumType::U64, W, H, 1, !mean);
    integral(v.cview(), t);
    const PlaneTable sums{tables.data(), t.pitch};
    const PlaneTable squares{tables.data() + static_cast<std::size_t>(W + 1) * (H + 1), t.pitch};
    parallel_for(H, grain, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const AxisRanges ys = axis_ranges(y, r, H, mean);
            const std::uint16_t* s = src.row(y);
            std::uint16_t* d = dst.row(y);
            for (int x = 0; x < W; ++x) {
                const AxisRanges xs = axis_ranges(x, r, W, mean);
                const unsigned long long sum = window_sum(sums, xs, ys);
                const unsigned long long sq = mean ? 0ull : window_sum(squares, xs, ys);
                d[static_cast<std::size_t>(x) * out_c] =
                    static_cast<std::uint16_t>(adaptive_decision16(v.at(x, y, 0), sum, sq, p));
                if (out_c == 2) d[static_cast<std::size_t>(x) * 2 + 1] = s[static_cast<std::size_t>(x) * C + C - 1];
            }
        }
    });
}

std::string adaptive_threshold16_kernel_name() {
    return "16-bit intensity plane, u64 summed-area tables, a level per pixel from its window's sums; " +
           std::to_string(cpu_thread_count()) + " thread(s)";
}

}  // namespace cpu
}  // namespace imgpar
