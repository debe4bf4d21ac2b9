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
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/ops/filter_cpu_detail.hpp"
#include "src/ops/filter_math.hpp"
#include "src/ops/simd/weighted_rows.hpp"
#include "src/ops/simd/wide_lanes.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu::detail {

namespace {

bool symmetric(const std::vector<std::int32_t>& taps) {
    return std::equal(taps.begin(), taps.begin() + taps.size() / 2, taps.rbegin());
}

// Row y of the source, channels [0, K), extended by `pad` samples on each
// side according to the border rule: out[(x + pad) * K + c] = s(x, y, c).
template <typename D, typename T = typename D::Sample>
void padded_row(const Domain<D>& in, int y, int pad, const std::vector<int>& cols, std::vector<T>& out) {
    const int C = in.image.channels, K = in.count;
    const std::uint8_t* s = in.image.row(y);
    const int w = in.image.width, n = w + 2 * pad;
    if constexpr (std::is_same_v<D, Narrow>) {
        if (K == C) {  // the row itself between the borders: one copy
            std::memcpy(&out[static_cast<std::size_t>(pad) * K], s, static_cast<std::size_t>(w) * K);
            const auto border = [&](int px) {
                const int m = cols[static_cast<std::size_t>(px)];
                T* o = &out[static_cast<std::size_t>(px) * K];
                for (int c = 0; c < K; ++c)
                    o[c] = static_cast<T>(m < 0 ? in.outside[static_cast<std::size_t>(c)] : s[static_cast<std::size_t>(m) * C + c]);
            };
            for (int px = 0; px < pad; ++px) border(px);
            for (int px = pad + w; px < n; ++px) border(px);
            return;
        }
    }
    if constexpr (std::is_same_v<D, Wide>) {
        if (!in.luma) {  // the row's lanes in vectors, the border's pixels copied from them
            T* row = &out[static_cast<std::size_t>(pad) * K];
            simd::wide_lanes_row(K == C ? simd::WideLanes::WithAlpha : simd::WideLanes::Colours, s, C,
                                 static_cast<std::size_t>(w), row);
            const auto border = [&](int px) {
                const int m = cols[static_cast<std::size_t>(px)];
                for (int c = 0; c < K; ++c)
                    out[static_cast<std::size_t>(px) * K + c] =
                        m < 0 ? static_cast<T>(in.outside[static_cast<std::size_t>(c)]) : row[static_cast<std::size_t>(m) * K + c];
            };
            for (int px = 0; px < pad; ++px) border(px);
            for (int px = pad + w; px < n; ++px) border(px);
            return;
        }
    }
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
// The roundings per domain (gaussian_h_round and gaussian_v_round, or
// gaussian_round_wide for both) as the vector sums take them.
simd::WeightedRows rounded(simd::WeightedRows w, int add, int shift) {
    w.add = add;
    w.shift = shift;
    return w;
}
simd::WeightedRows h_rounding(Narrow, const simd::WeightedRows& w) { return rounded(w, kGaussianHAdd, kGaussianHShift); }
simd::WeightedRows v_rounding(Narrow, const simd::WeightedRows& w) { return rounded(w, kGaussianVAdd, kGaussianVShift); }
simd::WeightedRows h_rounding(Wide, const simd::WeightedRows& w) { return rounded(w, kGaussianWideAdd, kGaussianWideShift); }
simd::WeightedRows v_rounding(Wide, const simd::WeightedRows& w) { return h_rounding(Wide{}, w); }
int h_constant(Narrow, int v) { return gaussian_h_constant(v); }
int h_constant(Wide, int v) { return v; }

}  // namespace

int row_grain(int width, int channels) {
    const long long per_row = static_cast<long long>(width) * channels;
    return static_cast<int>(std::max<long long>(1, 65536 / std::max<long long>(1, per_row)));
}

namespace {

// The horizontal pass of one row into the intermediate: the border's
// samples through a padded copy; for 8-bit rows of every channel, the
// interior read from the source row itself (no copy of the row first).
template <typename D>
class Horizontal {
public:
    using T = typename D::Sample;
    using Mid = typename D::Mid;
    Horizontal(const Domain<D>& in, const simd::WeightedRows& sum, const std::vector<int>& cols)
        : in_(in), sum_(sum), cols_(cols), r_(sum.radius), K_(in.count),
          pad_(static_cast<std::size_t>(in.image.width + 2 * r_) * K_), rows_(static_cast<std::size_t>(2 * r_ + 1)) {
        direct_ = std::is_same_v<D, Narrow> && in.count == in.image.channels && in.image.width > 2 * r_;
    }

    void operator()(int y, Mid* dst) {
        const std::size_t n = static_cast<std::size_t>(in_.image.width) * K_;
        if (!direct_) {
            padded_row(in_, y, r_, cols_, pad_);
            sum_rows(pad_.data(), n, dst);
            return;
        }
        // Outputs [0, rK) and [n - rK, n) read the border; the rest only the
        // row. The edges' padded samples are copied into pad_ (3r pixels each).
        const std::size_t edge = static_cast<std::size_t>(r_) * K_;
        const int w = in_.image.width;
        edge_samples(y, 0, pad_.data());
        sum_rows(pad_.data(), edge, dst);
        sum_rows(reinterpret_cast<const T*>(in_.image.row(y)), n - 2 * edge, dst + edge);
        edge_samples(y, w - r_, pad_.data());
        sum_rows(pad_.data(), edge, dst + n - edge);
    }

private:
    // Padded pixels [px0, px0 + 3r) of row y (padded px = source x + r) into out.
    void edge_samples(int y, int px0, T* out) const {
        const std::uint8_t* s = in_.image.row(y);
        for (int px = px0; px < px0 + 3 * r_; ++px) {
            const int m = cols_[static_cast<std::size_t>(px)];
            for (int c = 0; c < K_; ++c)
                *out++ = static_cast<T>(m < 0 ? in_.outside[static_cast<std::size_t>(c)] : s[static_cast<std::size_t>(m) * K_ + c]);
        }
    }
    // out[t] = the rounded sum of first[t + i K] over the taps i.
    void sum_rows(const T* first, std::size_t n, Mid* out) {
        for (int i = 0; i <= 2 * r_; ++i) rows_[static_cast<std::size_t>(i)] = first + static_cast<std::size_t>(i) * K_;
        simd::weighted_rows(sum_, rows_.data(), n, out);
    }

    const Domain<D>& in_;
    const simd::WeightedRows& sum_;
    const std::vector<int>& cols_;
    int r_, K_;
    bool direct_ = false;
    std::vector<T> pad_;
    std::vector<const T*> rows_;
};

// How the vertical pass hands on its rows. Values: 32-bit values per row
// for a RowSink (images with alpha). Bytes: the 8-bit image's output bytes
// straight into the destination, blur or unsharp (NarrowBytes).
template <typename Mid>
class ValuesOut {
public:
    ValuesOut(const simd::WeightedRows& sum, std::size_t n, int group, const RowSink& out)
        : sum_(sum), n_(n), out_(out), values_(static_cast<std::size_t>(group) * n) {}
    void chunk(int k, int, const Mid* const* rows, std::size_t c0, std::size_t len) {
        simd::weighted_rows(sum_, rows, len, &values_[static_cast<std::size_t>(k) * n_ + c0]);
    }
    void row_done(int k, int y) { out_(y, &values_[static_cast<std::size_t>(k) * n_]); }

private:
    const simd::WeightedRows& sum_;
    std::size_t n_;
    const RowSink& out_;
    std::vector<std::int32_t> values_;
};

class BytesOut {
public:
    BytesOut(const simd::WeightedRows& sum, const NarrowBytes& bytes) : sum_(sum), bytes_(bytes) {}
    void chunk(int, int y, const std::uint16_t* const* rows, std::size_t c0, std::size_t len) {
        std::uint8_t* o = bytes_.dst.row(y) + c0;
        if (!bytes_.unsharp) {
            simd::weighted_rows(sum_, rows, len, o);
            return;
        }
        const simd::UnsharpRows u{bytes_.src.row(y) + c0, bytes_.amount_q8, bytes_.threshold_level};
        simd::unsharp_rows(sum_, rows, len, u, o);
    }
    void row_done(int, int) {}

private:
    const simd::WeightedRows& sum_;
    const NarrowBytes& bytes_;
};

// Gaussian, per filter.hpp:
//   H(x,y) = h_round(sum_i t[i] s(x+i-r, y))
//   out    = v_round(sum_j t[j] H(x, y+j-r))
// Each thread takes a band of output rows and keeps the 2r + 1 intermediate
// rows its current output row reads in a ring, computing each in-image row's
// H once as the band moves down (cache-blocked: the ring stays in L2 for
// small radii). Rows outside the image read the H of the row the border rule
// names: rows near an edge (reflect) or at the far end (wrap) are computed
// once per band into a small cache of their own; the constant border's row
// is H of the constant. Both sums run in src/ops/simd/weighted_rows;
// make_out(v_sum, n, group) gives each band its output (ValuesOut, BytesOut).
template <typename D, class MakeOut>
void gaussian_bands(const Domain<D>& in, const std::vector<std::int32_t>& taps, const MakeOut& make_out) {
    using Mid = typename D::Mid;
    const int w = in.image.width, h = in.image.height, K = in.count;
    const int r = static_cast<int>(taps.size() / 2);
    const int window = 2 * r + 1;
    const std::size_t n = static_cast<std::size_t>(w) * K;
    const BorderMode mode = in.border.mode;
    const std::vector<int> cols = column_map(w, r, mode);
    const simd::WeightedRows sums{taps.data(), r, symmetric(taps)};
    const simd::WeightedRows h_sum = h_rounding(D{}, sums), v_sum = v_rounding(D{}, sums);

    // A row of constant border, as the horizontal pass would have produced it.
    std::vector<Mid> outside_row(n);
    for (std::size_t t = 0; t < n; ++t)
        outside_row[t] = static_cast<Mid>(h_constant(D{}, in.outside[t % static_cast<std::size_t>(K)]));

    // One band per thread: each band computes the 2r rows above and below it
    // again, so fewer, taller bands waste least.
    const int threads = std::max(1, cpu_thread_count());
    const int min_band = std::max(16, 4 * window);
    const int bands = std::max(1, std::min(threads, h / min_band));
    // The vertical pass takes `group` output rows at a time, column chunk by
    // column chunk, so the rows a chunk reads (window + group - 1 of them)
    // stay in L2 while every output row of the group reads them: a wide RGB
    // row (24 KB of intermediate) times 121 rows (sigma 20) would not.
    constexpr int group = 8;
    const int ring_rows = window + group - 1;
    const std::size_t chunk =
        std::max<std::size_t>(256, (std::size_t{512} << 10) / (static_cast<std::size_t>(ring_rows) * sizeof(Mid)) / 64 * 64);
    parallel_for(bands, 1, [&](int b0, int b1) {
        Horizontal<D> horizontal(in, h_sum, cols);
        auto out = make_out(v_sum, n, group);
        std::vector<Mid> ring(static_cast<std::size_t>(ring_rows) * n);
        std::vector<std::pair<int, std::vector<Mid>>> edge_rows;  // (source row, its H)
        const auto edge_row = [&](int m) -> const Mid* {
            for (const auto& e : edge_rows)
                if (e.first == m) return e.second.data();
            edge_rows.emplace_back(m, std::vector<Mid>(n));
            horizontal(m, edge_rows.back().second.data());
            return edge_rows.back().second.data();
        };
        const auto ring_row = [&](int p) { return &ring[static_cast<std::size_t>(p % ring_rows) * n]; };
        std::vector<const Mid*> v_rows(static_cast<std::size_t>(group) * window);
        std::vector<const Mid*> chunk_rows(static_cast<std::size_t>(window));
        for (int b = b0; b < b1; ++b) {
            const int y0 = static_cast<int>(static_cast<long long>(h) * b / bands);
            const int y1 = static_cast<int>(static_cast<long long>(h) * (b + 1) / bands);
            int next = std::max(0, y0 - r);  // the next in-image row to compute into the ring
            for (int y = y0; y < y1; y += group) {
                const int rows = std::min(group, y1 - y);
                for (; next <= std::min(h - 1, y + rows - 1 + r); ++next) horizontal(next, ring_row(next));
                for (int k = 0; k < rows; ++k)
                    for (int j = 0; j < window; ++j) {
                        const int p = y + k + j - r;
                        const Mid* row;
                        if (p >= 0 && p < h) {
                            row = ring_row(p);
                        } else {
                            const int m = border_index(p, h, mode);
                            row = m < 0 ? outside_row.data() : edge_row(m);
                        }
                        v_rows[static_cast<std::size_t>(k * window + j)] = row;
                    }
                for (std::size_t c0 = 0; c0 < n; c0 += chunk) {
                    const std::size_t len = std::min(chunk, n - c0);
                    for (int k = 0; k < rows; ++k) {
                        for (int j = 0; j < window; ++j)
                            chunk_rows[static_cast<std::size_t>(j)] = v_rows[static_cast<std::size_t>(k * window + j)] + c0;
                        out.chunk(k, y + k, chunk_rows.data(), c0, len);
                    }
                }
                for (int k = 0; k < rows; ++k) out.row_done(k, y + k);
            }
        }
    });
}

}  // namespace

void gaussian_pass(const Domain<Wide>& in, const std::vector<std::int32_t>& taps, const RowSink& out) {
    gaussian_bands(in, taps, [&](const simd::WeightedRows& v_sum, std::size_t n, int group) {
        return ValuesOut<Wide::Mid>(v_sum, n, group, out);
    });
}

void gaussian_pass_bytes(const Domain<Narrow>& in, const std::vector<std::int32_t>& taps, const NarrowBytes& bytes) {
    gaussian_bands(in, taps, [&](const simd::WeightedRows& v_sum, std::size_t, int) { return BytesOut(v_sum, bytes); });
}

}  // namespace imgpar::cpu::detail
