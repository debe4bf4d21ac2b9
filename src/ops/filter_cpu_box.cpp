// The CPU box filter (mean over a (2R+1)x(2R+1) window), per filter.hpp.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "src/ops/filter_cpu_detail.hpp"
#include "src/ops/filter_math.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu::detail {

namespace {

// How often each in-image index is read by the window [centre-R, centre+R]
// along an axis of n samples (index, count), and how many reads fall on the
// constant border. Lets a running sum start anywhere in O(min(n, 2R+1)) reads
// of samples, however large R is compared with the image.
struct WindowCounts {
    std::vector<std::pair<int, int>> reads;
    int outside = 0;
};

WindowCounts window_counts(int centre, int radius, int n, BorderMode mode) {
    std::vector<int> count(static_cast<std::size_t>(n), 0);
    WindowCounts wc;
    for (int i = centre - radius; i <= centre + radius; ++i) {
        const int m = border_index(i, n, mode);
        if (m < 0) ++wc.outside;
        else ++count[static_cast<std::size_t>(m)];
    }
    for (int k = 0; k < n; ++k)
        if (count[static_cast<std::size_t>(k)] > 0) wc.reads.emplace_back(k, count[static_cast<std::size_t>(k)]);
    return wc;
}

int box_round(int sum, int n) { return box_output(sum, n); }
int box_round(std::int64_t sum, int n) { return box_output_wide(sum, n); }

}  // namespace

// Box, per filter.hpp: out = box_output(sum of the (2R+1)^2 window, (2R+1)^2).
// Running sums along rows, then along columns: the cost does not grow with R.
// All sums are exact integers: a row sum is at most 2001 * 65025 < 2^31, a
// window sum 255 * 2001^2 < 2^31 (narrow) or 65025 * 2001^2 (wide: 64 bits).
template <typename D>
void box_pass(const Domain<D>& in, int radius, const RowSink& out) {
    using Sum = typename D::Sum;
    const int w = in.image.width, h = in.image.height, C = in.image.channels, K = in.count;
    const std::size_t n = static_cast<std::size_t>(w) * K;
    const int grain = row_grain(w, K);
    const BorderMode mode = in.border.mode;
    const int side = 2 * radius + 1;
    const int area = side * side;

    // Horizontal running sums of every row.
    std::vector<std::int32_t> mid(n * static_cast<std::size_t>(h));
    const WindowCounts first = window_counts(0, radius, w, mode);
    std::vector<int> enter(static_cast<std::size_t>(w)), leave(static_cast<std::size_t>(w));
    for (int x = 1; x < w; ++x) {
        enter[static_cast<std::size_t>(x)] = border_index(x + radius, w, mode);
        leave[static_cast<std::size_t>(x)] = border_index(x - 1 - radius, w, mode);
    }
    parallel_for(h, grain, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const auto* s = in.image.row(y);
            std::int32_t* hs = &mid[static_cast<std::size_t>(y) * n];
            for (int c = 0; c < K; ++c) {
                const int outside = in.outside[static_cast<std::size_t>(c)];
                auto sample = [&](int m) { return m < 0 ? outside : sample_of(in, s + static_cast<std::size_t>(m) * C, c); };
                int sum = first.outside * outside;
                for (const auto& rc : first.reads) sum += rc.second * sample(rc.first);
                hs[c] = sum;
                for (int x = 1; x < w; ++x) {
                    sum += sample(enter[static_cast<std::size_t>(x)]) - sample(leave[static_cast<std::size_t>(x)]);
                    hs[static_cast<std::size_t>(x) * K + c] = sum;
                }
            }
        }
    });

    // The horizontal sum of a constant-border row.
    std::vector<std::int32_t> outside_row(n);
    for (std::size_t t = 0; t < n; ++t) outside_row[t] = side * in.outside[t % static_cast<std::size_t>(K)];
    auto hrow = [&](int m) { return m < 0 ? outside_row.data() : &mid[static_cast<std::size_t>(m) * n]; };

    // Vertical running sums; each chunk of rows starts its window afresh.
    parallel_for(h, grain, [&](int y0, int y1) {
        std::vector<Sum> acc(n, 0);
        std::vector<int> values(n);
        const WindowCounts start = window_counts(y0, radius, h, mode);
        for (std::size_t t = 0; t < n; ++t) acc[t] = static_cast<Sum>(start.outside) * outside_row[t];
        for (const auto& rc : start.reads) {
            const std::int32_t* row = hrow(rc.first);
            for (std::size_t t = 0; t < n; ++t) acc[t] += static_cast<Sum>(rc.second) * row[t];
        }
        for (int y = y0; y < y1; ++y) {
            if (y > y0) {
                const std::int32_t* add = hrow(border_index(y + radius, h, mode));
                const std::int32_t* sub = hrow(border_index(y - 1 - radius, h, mode));
                for (std::size_t t = 0; t < n; ++t) acc[t] += add[t] - sub[t];
            }
            for (std::size_t t = 0; t < n; ++t) values[t] = box_round(acc[t], area);
            out(y, values.data());
        }
    });
}

template void box_pass<Narrow>(const Domain<Narrow>&, int, const RowSink&);
template void box_pass<Wide>(const Domain<Wide>&, int, const RowSink&);

}  // namespace imgpar::cpu::detail
