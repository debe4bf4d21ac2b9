// The CPU box filter (mean over a (2R+1)x(2R+1) window), per filter.hpp.
//
// Vertical first, one band of output rows per thread, with no image-sized
// intermediate: each thread keeps a running column sum of its rows' windows
// (add the row entering below, subtract the one leaving above: contiguous,
// vectorised), pads it with the column sums the border rule names, and takes
// the horizontal window over that padded row with one running sum per
// channel; a multiply by a reciprocal rounds (box_rounding.hpp). Per row the
// cost grows with R only through the window of column 0, O(min(w, 2R+1)).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/ops/box_rounding.hpp"
#include "src/ops/filter_cpu_detail.hpp"
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

// The wide lanes of a row of a C-channel image, every lane (the box filters
// alpha): with C a constant, wide_lane's choices are made at compile time.
template <int C>
void wide_row(const std::uint8_t* s, int w, std::uint16_t* o) {
    for (int x = 0; x < w; ++x, s += C, o += C)
        for (int c = 0; c < C; ++c) o[c] = static_cast<std::uint16_t>(wide_lane(c, C - 1, s[c], s[C - 1]));
}

// The rows of samples in the domain, x * K + c. Narrow images filtering every
// channel are read in place; otherwise (the wide lanes) a row is converted
// into one of two scratch rows (`slot` 0 or 1), so two rows can be in use at
// once. Row -1 is the constant border's row.
template <typename D>
class SampleRows {
public:
    using Sample = typename D::Sample;
    explicit SampleRows(const Domain<D>& in)
        : in_(in), n_(static_cast<std::size_t>(in.image.width) * in.count), outside_(n_) {
        for (std::size_t t = 0; t < n_; ++t)
            outside_[t] = static_cast<Sample>(in.outside[t % static_cast<std::size_t>(in.count)]);
    }
    // Valid until the next call with the same slot.
    const Sample* row(int m, int slot) {
        if (m < 0) return outside_.data();
        const std::uint8_t* s = in_.image.row(m);
        if constexpr (std::is_same_v<D, Narrow>)
            if (in_.count == in_.image.channels) return s;
        std::vector<Sample>& scratch = scratch_[slot];
        scratch.resize(n_);
        const int C = in_.image.channels, K = in_.count;
        Sample* o = scratch.data();
        if constexpr (std::is_same_v<D, Wide>) {
            if (K == C && C == 2 && !in_.luma) return wide_row<2>(s, in_.image.width, o), o;
            if (K == C && C == 4 && !in_.luma) return wide_row<4>(s, in_.image.width, o), o;
        }
        for (int x = 0; x < in_.image.width; ++x, s += C, o += K)
            for (int c = 0; c < K; ++c) o[c] = static_cast<Sample>(sample_of(in_, s, c));
        return scratch.data();
    }

private:
    const Domain<D>& in_;
    std::size_t n_;
    std::vector<Sample> outside_, scratch_[2];
};

// The horizontal window sums of one padded row of column sums: pad[j * K + c]
// is the column sum of column j - R, for j in [0, w + 2R), and
//   hs(x) = hs(x - 1) + pad(x + 2R) - pad(x - 1)
// from hs(0) = start. First every step's change at once (vectorised), then
// the running sums: one add per sample, K chains of them. K is a template
// argument so the K running sums live in registers.
template <int K, typename Col, typename HSum>
void horizontal_sums(const Col* pad, std::size_t n, int radius, const HSum* start, HSum* hs) {
    const Col* enter = pad + static_cast<std::size_t>(2 * radius) * K;
    for (std::size_t t = K; t < n; ++t)
        hs[t] = static_cast<HSum>(static_cast<std::int32_t>(enter[t]) - static_cast<std::int32_t>(pad[t - K]));
    HSum s[K];
    for (int c = 0; c < K; ++c) hs[c] = s[c] = start[c];
    for (std::size_t t = K; t < n; t += K)
        for (int c = 0; c < K; ++c) hs[t + c] = s[c] += hs[t + c];
}

template <typename Col, typename HSum>
void horizontal_sums(int K, const Col* pad, std::size_t n, int radius, const HSum* start, HSum* hs) {
    switch (K) {
        case 1: horizontal_sums<1>(pad, n, radius, start, hs); break;
        case 2: horizontal_sums<2>(pad, n, radius, start, hs); break;
        case 3: horizontal_sums<3>(pad, n, radius, start, hs); break;
        default: horizontal_sums<4>(pad, n, radius, start, hs); break;
    }
}

// out = (S + n/2) / n for a row of window sums: narrow ones in place, wide
// ones (64 bits) into the int row the sink takes.
void round_row(std::int32_t* sums, std::size_t n, const BoxRounding& rounding) {
    for (std::size_t t = 0; t < n; ++t) sums[t] = rounding(sums[t]);
}
void round_row(const std::int64_t* sums, std::size_t n, const BoxRounding& rounding, int* values) {
    for (std::size_t t = 0; t < n; ++t) values[t] = rounding(sums[t]);
}

// What the bands of one box pass share. Sums are exact integers: a column
// sum is at most 2001 * 65025 < 2^31; a window sum 255 * 2001^2 < 2^31
// (narrow) or 65025 * 2001^2 (wide: 64 bits).
template <typename D>
struct BoxShared {
    using HSum = std::conditional_t<std::is_same_v<D, Narrow>, std::int32_t, std::int64_t>;

    BoxShared(const Domain<D>& in_, int radius_)
        : in(in_), radius(radius_), side(2 * radius_ + 1), K(in_.count),
          n(static_cast<std::size_t>(in_.image.width) * in_.count), rounding(side * side) {
        const int w = in.image.width;
        const BorderMode mode = in.border.mode;
        for (int c = 0; c < K; ++c) outside_column[static_cast<std::size_t>(c)] = side * in.outside[static_cast<std::size_t>(c)];
        // Padding columns the horizontal running sum reads, j = x - 1 for x
        // in [1, w) on the left and j = x + 2R on the right, with the column
        // they copy (-1: the constant border). At most 2(w - 1), however
        // large R is.
        for (int j = 0; j < radius && j < w - 1; ++j) padding.emplace_back(j, border_index(j - radius, w, mode));
        for (int j = std::max(radius + w, side); j < w + 2 * radius; ++j)
            padding.emplace_back(j, border_index(j - radius, w, mode));
        first = window_counts(0, radius, w, mode);
    }

    const Domain<D>& in;
    int radius, side, K;
    std::size_t n;  // samples per row
    BoxRounding rounding;
    std::array<std::int32_t, kMaxWideLanes> outside_column{};  // the column sum of a column of the constant border
    std::vector<std::pair<int, int>> padding;
    WindowCounts first;  // the window of column 0
};

// Output rows [y0, y1). Col holds a column sum: 16 bits where 255 * (2R+1)
// fits (narrow, R <= 128), halving the vertical pass's work, else 32. (With
// 16 bits, acc + add may pass 65535 before sub comes off: arithmetic modulo
// 2^16 still ends on the exact column sum, which fits.)
template <typename D, typename Col>
void box_band(const BoxShared<D>& b, int y0, int y1, const RowSink& out) {
    using Sample = typename D::Sample;
    using HSum = typename BoxShared<D>::HSum;
    const int w = b.in.image.width, h = b.in.image.height, K = b.K, radius = b.radius;
    const std::size_t n = b.n;
    const BorderMode mode = b.in.border.mode;
    SampleRows<D> rows(b.in);
    std::vector<Col> pad(static_cast<std::size_t>(w + 2 * radius) * K, 0);
    std::vector<HSum> hs(n);
    std::vector<int> values(std::is_same_v<HSum, int> ? 0 : n);
    Col* acc = pad.data() + static_cast<std::size_t>(radius) * K;  // the column sums of the current row

    // The window of row y0 from scratch, then one row in, one out.
    const WindowCounts start = window_counts(y0, radius, h, mode);
    {
        const Sample* o = rows.row(-1, 0);
        for (std::size_t t = 0; t < n; ++t) acc[t] = static_cast<Col>(start.outside * static_cast<std::int32_t>(o[t]));
    }
    for (const auto& rc : start.reads) {
        const Sample* s = rows.row(rc.first, 0);
        const std::int32_t times = rc.second;
        for (std::size_t t = 0; t < n; ++t) acc[t] = static_cast<Col>(acc[t] + times * static_cast<std::int32_t>(s[t]));
    }
    for (int y = y0; y < y1; ++y) {
        if (y > y0) {
            const Sample* add = rows.row(border_index(y + radius, h, mode), 0);
            const Sample* sub = rows.row(border_index(y - 1 - radius, h, mode), 1);
            for (std::size_t t = 0; t < n; ++t) acc[t] = static_cast<Col>(acc[t] + add[t] - sub[t]);
        }
        for (const auto& [j, m] : b.padding) {
            Col* p = &pad[static_cast<std::size_t>(j) * K];
            for (int c = 0; c < K; ++c)
                p[c] = m < 0 ? static_cast<Col>(b.outside_column[static_cast<std::size_t>(c)])
                             : acc[static_cast<std::size_t>(m) * K + static_cast<std::size_t>(c)];
        }
        HSum hs0[kMaxWideLanes];
        for (int c = 0; c < K; ++c) {
            HSum s = static_cast<HSum>(b.first.outside) * b.outside_column[static_cast<std::size_t>(c)];
            for (const auto& rc : b.first.reads)
                s += static_cast<HSum>(rc.second) * acc[static_cast<std::size_t>(rc.first) * K + c];
            hs0[c] = s;
        }
        horizontal_sums(K, pad.data(), n, radius, hs0, hs.data());
        if constexpr (std::is_same_v<HSum, int>) {
            round_row(hs.data(), n, b.rounding);
            out(y, hs.data());
        } else {
            round_row(hs.data(), n, b.rounding, values.data());
            out(y, values.data());
        }
    }
}

}  // namespace

// Box, per filter.hpp: out = (S + n/2) / n with S the (2R+1)^2 window sum.
template <typename D>
void box_pass(const Domain<D>& in, int radius, const RowSink& out) {
    const BoxShared<D> shared(in, radius);
    parallel_for(in.image.height, row_grain(in.image.width, in.count), [&](int y0, int y1) {
        if constexpr (std::is_same_v<D, Narrow>)
            if (255 * shared.side <= 65535) return box_band<D, std::uint16_t>(shared, y0, y1, out);
        box_band<D, std::int32_t>(shared, y0, y1, out);
    });
}

template void box_pass<Narrow>(const Domain<Narrow>&, int, const RowSink&);
template void box_pass<Wide>(const Domain<Wide>&, int, const RowSink&);

}  // namespace imgpar::cpu::detail
