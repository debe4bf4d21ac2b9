// The separable CPU Gaussian (also unsharp's blur).
//
// It runs a horizontal pass over every row into an integer intermediate,
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
template <typename D, typename T = typename D::Sample>
void padded_row(const Domain<D>& in, int y, int pad, const std::vector<int>& cols, std::vector<T>& out) {
    const int C = in.image.channels, K = in.count;
    const std::uint8_t* s = in.image.row(y);
    const int n = in.image.width + 2 * pad;
    for (int px = 0; px < n; ++px) {
        const int m = cols[static_cast<std::size_t>(px)];
        T* o = &out[static_cast<std::size_t>(px) * K];
        if (m < 0) {
            for (int c = 0; c < K; ++c) o[c] = static_cast<T>(in.outside[static_cast<std::size_t>(c)]);
        } else {
            const std::uint8_t* p = s + static_cast<std::size_t>(m) * C;
            for (int c = 0; c < K; ++c) o[c] = static_cast<T>(sample_of(in, p, c));
        }
    }
}

// Which source column each padded position reads (-1: the constant).
std::vector<int> column_map(int width, int pad, BorderMode mode) {
    std::vector<int> cols(static_cast<std::size_t>(width) + 2 * static_cast<std::size_t>(pad));
    for (std::size_t px = 0; px < cols.size(); ++px) cols[px] = border_index(static_cast<int>(px) - pad, width, mode);
    return cols;
}

// The Gaussian's roundings per domain (filter.hpp): 3 fractional bits in H
// for 8-bit samples, the wide scale itself for wide ones.
int h_round(Narrow, int sum) { return gaussian_h_round(sum); }
int v_round(Narrow, int sum) { return gaussian_v_round(sum); }
int h_constant(Narrow, int v) { return gaussian_h_constant(v); }
int h_round(Wide, int sum) { return gaussian_round_wide(sum); }
int v_round(Wide, int sum) { return gaussian_round_wide(sum); }
int h_constant(Wide, int v) { return v; }

}  // namespace

int row_grain(int width, int channels) {
    const long long per_row = static_cast<long long>(width) * channels;
    return static_cast<int>(std::max<long long>(1, 65536 / std::max<long long>(1, per_row)));
}

// Gaussian, per filter.hpp:
//   H(x,y) = h_round(sum_i t[i] s(x+i-r, y))
//   out    = v_round(sum_j t[j] H(x, y+j-r))
template <typename D>
void gaussian_pass(const Domain<D>& in, const std::vector<std::int32_t>& taps, const RowSink& out) {
    using T = typename D::Sample;
    using Mid = typename D::Mid;
    const int w = in.image.width, h = in.image.height, K = in.count;
    const int r = static_cast<int>(taps.size() / 2);
    const std::size_t n = static_cast<std::size_t>(w) * K;
    const int grain = row_grain(w, K);
    const BorderMode mode = in.border.mode;

    // Horizontal pass: every image row, into H (0..2040 fits 16 bits; the
    // wide domain's 0..520200 does not).
    std::vector<Mid> mid(n * static_cast<std::size_t>(h));
    const std::vector<int> cols = column_map(w, r, mode);
    parallel_for(h, grain, [&](int y0, int y1) {
        std::vector<T> pad(static_cast<std::size_t>(w + 2 * r) * K);
        std::vector<const T*> rows(taps.size());
        std::vector<int> acc(n);
        for (int i = 0; i <= 2 * r; ++i) rows[static_cast<std::size_t>(i)] = pad.data() + static_cast<std::size_t>(i) * K;
        for (int y = y0; y < y1; ++y) {
            padded_row(in, y, r, cols, pad);
            weighted_sum(taps, rows.data(), acc.data(), n);
            Mid* hrow = &mid[static_cast<std::size_t>(y) * n];
            for (std::size_t t = 0; t < n; ++t) hrow[t] = static_cast<Mid>(h_round(D{}, acc[t]));
        }
    });

    // A row of constant border, as the horizontal pass would have produced it.
    std::vector<Mid> outside_row(n);
    for (std::size_t t = 0; t < n; ++t)
        outside_row[t] = static_cast<Mid>(h_constant(D{}, in.outside[t % static_cast<std::size_t>(K)]));

    // Vertical pass over the intermediate rows the border rule names.
    parallel_for(h, grain, [&](int y0, int y1) {
        std::vector<const Mid*> rows(taps.size());
        std::vector<int> acc(n);
        for (int y = y0; y < y1; ++y) {
            for (int j = 0; j <= 2 * r; ++j) {
                const int m = border_index(y + j - r, h, mode);
                rows[static_cast<std::size_t>(j)] = m < 0 ? outside_row.data() : &mid[static_cast<std::size_t>(m) * n];
            }
            weighted_sum(taps, rows.data(), acc.data(), n);
            for (std::size_t t = 0; t < n; ++t) acc[t] = v_round(D{}, acc[t]);
            out(y, acc.data());
        }
    });
}

template void gaussian_pass<Narrow>(const Domain<Narrow>&, const std::vector<std::int32_t>&, const RowSink&);
template void gaussian_pass<Wide>(const Domain<Wide>&, const std::vector<std::int32_t>&, const RowSink&);

}  // namespace imgpar::cpu::detail
