// The separable CPU filters: Gaussian (also unsharp's blur) and box.
//
// Both run a horizontal pass over every row into an integer intermediate,
// then a vertical pass over that intermediate. The vertical pass reads the
// intermediate row that the border rule names, exactly as the contract in
// filter.hpp says, so a row outside the image is the horizontal result of a
// real row (or of a constant row), never something recomputed differently.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/ops/filter_cpu_detail.hpp"
#include "src/ops/filter_math.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu::detail {

namespace {

bool symmetric(const std::vector<std::int32_t>& taps) {
    return std::equal(taps.begin(), taps.begin() + taps.size() / 2, taps.rbegin());
}

// acc[t] = sum_i taps[i] * rows[i][t] for t in [0, n). Pairs rows i and
// 2r-i when the taps are symmetric (half the multiplies; integer sums, so
// the grouping cannot change the result). Contiguous in t, so it vectorises.
template <typename T>
void weighted_sum(const std::vector<std::int32_t>& taps, const T* const* rows, int* acc, std::size_t n) {
    const int r = static_cast<int>(taps.size() / 2);
    const T* mid = rows[r];
    const int tc = taps[static_cast<std::size_t>(r)];
    for (std::size_t t = 0; t < n; ++t) acc[t] = tc * mid[t];
    if (symmetric(taps)) {
        for (int i = 0; i < r; ++i) {
            const int ti = taps[static_cast<std::size_t>(i)];
            if (ti == 0) continue;
            const T* a = rows[i];
            const T* b = rows[2 * r - i];
            for (std::size_t t = 0; t < n; ++t) acc[t] += ti * (a[t] + b[t]);
        }
    } else {
        for (int i = 0; i <= 2 * r; ++i) {
            const int ti = taps[static_cast<std::size_t>(i)];
            if (i == r || ti == 0) continue;
            const T* a = rows[i];
            for (std::size_t t = 0; t < n; ++t) acc[t] += ti * a[t];
        }
    }
}

// Row y of the source, channels [0, K), extended by `pad` samples on each
// side according to the border rule: out[(x + pad) * K + c] = s(x, y, c).
void padded_row(const Domain& in, int y, int pad, const std::vector<int>& cols, std::vector<std::uint8_t>& out) {
    const int C = in.image.channels, K = in.count;
    const std::uint8_t* s = in.image.row(y);
    const int n = in.image.width + 2 * pad;
    for (int px = 0; px < n; ++px) {
        const int m = cols[static_cast<std::size_t>(px)];
        std::uint8_t* o = &out[static_cast<std::size_t>(px) * K];
        if (m < 0) {
            for (int c = 0; c < K; ++c) o[c] = static_cast<std::uint8_t>(in.outside[static_cast<std::size_t>(c)]);
        } else {
            const std::uint8_t* p = s + static_cast<std::size_t>(m) * C;
            for (int c = 0; c < K; ++c) o[c] = p[c];
        }
    }
}

// Which source column each padded position reads (-1: the constant).
std::vector<int> column_map(int width, int pad, BorderMode mode) {
    std::vector<int> cols(static_cast<std::size_t>(width) + 2 * static_cast<std::size_t>(pad));
    for (std::size_t px = 0; px < cols.size(); ++px) cols[px] = border_index(static_cast<int>(px) - pad, width, mode);
    return cols;
}

}  // namespace

int row_grain(int width, int channels) {
    const long long per_row = static_cast<long long>(width) * channels;
    return static_cast<int>(std::max<long long>(1, 65536 / std::max<long long>(1, per_row)));
}

// Gaussian, per filter.hpp:
//   H(x,y) = gaussian_h_round(sum_i t[i] s(x+i-r, y))
//   out    = gaussian_v_round(sum_j t[j] H(x, y+j-r))
void gaussian_pass(const Domain& in, const std::vector<std::int32_t>& taps, ViewU8 out) {
    const int w = in.image.width, h = in.image.height, K = in.count, D = out.channels;
    const int r = static_cast<int>(taps.size() / 2);
    const std::size_t n = static_cast<std::size_t>(w) * K;
    const int grain = row_grain(w, K);
    const BorderMode mode = in.border.mode;

    // Horizontal pass: every image row, into H (0..2040 fits 16 bits).
    std::vector<std::uint16_t> mid(n * static_cast<std::size_t>(h));
    const std::vector<int> cols = column_map(w, r, mode);
    parallel_for(h, grain, [&](int y0, int y1) {
        std::vector<std::uint8_t> pad(static_cast<std::size_t>(w + 2 * r) * K);
        std::vector<const std::uint8_t*> rows(taps.size());
        std::vector<int> acc(n);
        for (int i = 0; i <= 2 * r; ++i) rows[static_cast<std::size_t>(i)] = pad.data() + static_cast<std::size_t>(i) * K;
        for (int y = y0; y < y1; ++y) {
            padded_row(in, y, r, cols, pad);
            weighted_sum(taps, rows.data(), acc.data(), n);
            std::uint16_t* hrow = &mid[static_cast<std::size_t>(y) * n];
            for (std::size_t t = 0; t < n; ++t) hrow[t] = static_cast<std::uint16_t>(gaussian_h_round(acc[t]));
        }
    });

    // A row of constant border, as the horizontal pass would have produced it.
    std::vector<std::uint16_t> outside_row(n);
    for (std::size_t t = 0; t < n; ++t)
        outside_row[t] = static_cast<std::uint16_t>(gaussian_h_constant(in.outside[t % static_cast<std::size_t>(K)]));

    // Vertical pass over the intermediate rows the border rule names.
    parallel_for(h, grain, [&](int y0, int y1) {
        std::vector<const std::uint16_t*> rows(taps.size());
        std::vector<int> acc(n);
        for (int y = y0; y < y1; ++y) {
            for (int j = 0; j <= 2 * r; ++j) {
                const int m = border_index(y + j - r, h, mode);
                rows[static_cast<std::size_t>(j)] = m < 0 ? outside_row.data() : &mid[static_cast<std::size_t>(m) * n];
            }
            weighted_sum(taps, rows.data(), acc.data(), n);
            std::uint8_t* o = out.row(y);
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < K; ++c)
                    o[static_cast<std::size_t>(x) * D + c] =
                        static_cast<std::uint8_t>(gaussian_v_round(acc[static_cast<std::size_t>(x) * K + c]));
        }
    });
}

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

}  // namespace

// Box, per filter.hpp: out = box_output(sum of the (2R+1)^2 window, (2R+1)^2).
// Running sums along rows, then along columns: the cost does not grow with R.
// All sums are exact integers (at most 255 * 2001^2 < 2^31).
void box_pass(const Domain& in, int radius, ViewU8 out) {
    const int w = in.image.width, h = in.image.height, C = in.image.channels, K = in.count, D = out.channels;
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
            const std::uint8_t* s = in.image.row(y);
            std::int32_t* hs = &mid[static_cast<std::size_t>(y) * n];
            for (int c = 0; c < K; ++c) {
                const int outside = in.outside[static_cast<std::size_t>(c)];
                auto sample = [&](int m) { return m < 0 ? outside : static_cast<int>(s[static_cast<std::size_t>(m) * C + c]); };
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
        std::vector<std::int32_t> acc(n, 0);
        const WindowCounts start = window_counts(y0, radius, h, mode);
        for (std::size_t t = 0; t < n; ++t) acc[t] = start.outside * outside_row[t];
        for (const auto& rc : start.reads) {
            const std::int32_t* row = hrow(rc.first);
            for (std::size_t t = 0; t < n; ++t) acc[t] += rc.second * row[t];
        }
        for (int y = y0; y < y1; ++y) {
            if (y > y0) {
                const std::int32_t* add = hrow(border_index(y + radius, h, mode));
                const std::int32_t* sub = hrow(border_index(y - 1 - radius, h, mode));
                for (std::size_t t = 0; t < n; ++t) acc[t] += add[t] - sub[t];
            }
            std::uint8_t* o = out.row(y);
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < K; ++c)
                    o[static_cast<std::size_t>(x) * D + c] =
                        static_cast<std::uint8_t>(box_output(acc[static_cast<std::size_t>(x) * K + c], area));
        }
    });
}

}  // namespace imgpar::cpu::detail
