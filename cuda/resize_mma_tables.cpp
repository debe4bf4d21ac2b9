// The tensor cores' weight fragments of a resize plan (cuda/resize_mma_tables.hpp).
#include "cuda/resize_mma_tables.hpp"

#include <algorithm>

#include "cuda/resize_tiles.hpp"
#include "src/ops/resize_math.hpp"

namespace imgpar::cuda {

namespace {

// The smallest multiple of 32 that holds the widest window of the axis's
// groups of `group` outputs (from multiples of `group`; the inputs they
// read plus `slack`), or 0 where that passes `most`; `widest`: the window.
// Down the columns a group is 16 intermediate rows, its window the input
// rows they read; along the rows 8 output pixels, the intermediate columns
// they read from the first's rounded down to 4 (slack 3).
int mma_window(const ResizeAxis& axis, int group, int slack, int most, int& widest) {
    widest = 0;
    for (int s = 0; s < axis.count; s += group) {
        const int e = std::min(s + group - 1, axis.count - 1);
        widest = std::max(widest, axis.start[static_cast<std::size_t>(e)] + axis.taps -
                                      axis.start[static_cast<std::size_t>(s)] + slack);
    }
    const int k = (widest + 31) / 32 * 32;
    return k <= most ? k : 0;
}

// Byte b (0..3) of a fragment word: weight w's high (signed) or low byte.
std::uint32_t weight_byte(std::int32_t w, bool high, int b) {
    const std::uint32_t v = high ? static_cast<std::uint32_t>(w >> 8) & 255u : static_cast<std::uint32_t>(w) & 255u;
    return v << (8 * b);
}

// Weight of the axis's output o at input position p, 0 outside its live taps.
std::int32_t axis_weight(const ResizeAxis& axis, int o, int p) {
    if (o >= axis.count) return 0;
    const int start = axis.start[static_cast<std::size_t>(o)];
    const int t = p - start;
    if (t < 0 || t >= std::min(axis.taps, axis.in - start)) return 0;
    return axis.weight[static_cast<std::size_t>(o) * axis.taps + t];
}

}  // namespace

ResizeMmaShape resize_mma_shape(const ResizePlan& plan) {
    ResizeMmaShape s;
    if (plan.type != SampleType::U8 || axis_kind(plan.y.filter) != AxisKind::Filter) return s;
    s.k_rows = mma_window(plan.y, 16, 0, ResizeTilePolicy::mma_max_k, s.rows_window);
    int widest = 0;
    if (s.k_rows > 0 && axis_kind(plan.x.filter) == AxisKind::Filter)
        s.k_cols = mma_window(plan.x, 8, 3, ResizeTilePolicy::mma_max_kx, widest);
    return s;
}

std::size_t resize_mma_words(const ResizePlan& plan, const ResizeMmaShape& s, bool rows) {
    return rows ? static_cast<std::size_t>((plan.y.count + 15) / 16) * (s.k_rows / 32) * 32 * 8
                : static_cast<std::size_t>((plan.x.count + 7) / 8) * (s.k_cols / 32) * 32 * 4;
}

void append_resize_mma_fragments(const ResizePlan& plan, const ResizeMmaShape& s, std::vector<std::int32_t>& out) {
    // Down the columns: A of group G (rows 16 G ..), step ks, lane (g, q):
    // the high bytes' words a0..a3, then the low bytes'; a0 = W[g][32 ks +
    // 4q ..], a1 = W[g + 8][..], a2 = W[g][.. + 16], a3 = W[g + 8][.. + 16],
    // column k the input row start[16 G] + k.
    const ResizeAxis& y = plan.y;
    for (int G = 0; s.k_rows > 0 && 16 * G < y.count; ++G) {
        const int base = y.start[static_cast<std::size_t>(16 * G)];
        for (int ks = 0; ks < s.k_rows / 32; ++ks)
            for (int lane = 0; lane < 32; ++lane)
                for (const bool high : {true, false})
                    for (int r = 0; r < 4; ++r) {
                        const int row = 16 * G + lane / 4 + (r & 1) * 8, k = 32 * ks + 4 * (lane % 4) + (r >> 1) * 16;
                        std::uint32_t word = 0;
                        for (int b = 0; b < 4; ++b) word |= weight_byte(axis_weight(y, row, base + k + b), high, b);
                        out.push_back(static_cast<std::int32_t>(word));
                    }
    }
    // Along the rows: B of group H (outputs 8 H ..), step ks, lane (g, q):
    // b0 = W[32 ks + 4q ..][g], b1 = W[.. + 16][g], high bytes then low,
    // column k the intermediate column (start[8 H] rounded down to 4) + k.
    const ResizeAxis& x = plan.x;
    for (int H = 0; s.k_cols > 0 && 8 * H < x.count; ++H) {
        const int base = x.start[static_cast<std::size_t>(8 * H)] & ~3;
        for (int ks = 0; ks < s.k_cols / 32; ++ks)
            for (int lane = 0; lane < 32; ++lane)
                for (const bool high : {true, false})
                    for (int r = 0; r < 2; ++r) {
                        const int o = 8 * H + lane / 4, k = 32 * ks + 4 * (lane % 4) + r * 16;
                        std::uint32_t word = 0;
                        for (int b = 0; b < 4; ++b) word |= weight_byte(axis_weight(x, o, base + k + b), high, b);
                        out.push_back(static_cast<std::int32_t>(word));
                    }
    }
}

}  // namespace imgpar::cuda
