// The direct 2-D CPU filters: edge operators and custom kernels.
//
// Each thread takes a band of output rows and keeps a ring of the source rows
// the kernel reaches, each extended by the border rule, so the correlation
// has no border logic and its rows stay in cache; one output row at a time
// goes through the vector code of src/ops/simd/. Images without alpha: rows
// of 8-bit samples (edge_rows, custom_rows). Images with alpha (the wide
// domain): rows of premultiplied 16-bit lanes, made from each source row as
// the ring reaches it (wide_lanes_row), through wide_rows (64-bit sums where
// a custom kernel needs them).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/ops/filter_cpu_detail.hpp"
#include "src/ops/filter_math.hpp"
#include "src/ops/simd/custom_rows.hpp"
#include "src/ops/simd/edge_rows.hpp"
#include "src/ops/simd/wide_lanes.hpp"
#include "src/ops/simd/wide_rows.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu::detail {

namespace {

// One kernel coefficient: weight k at column offset i, row offset j.
struct Tap {
    int i, j, k;
};

std::vector<Tap> nonzero_taps(const std::vector<std::int32_t>& coeffs, int width, int height) {
    std::vector<Tap> taps;
    for (int j = 0; j < height; ++j)
        for (int i = 0; i < width; ++i) {
            const int k = coeffs[static_cast<std::size_t>(j) * width + i];
            if (k != 0) taps.push_back({i, j, k});
        }
    return taps;
}


// The lanes a wide row becomes (count: the Domain's lanes per pixel).
simd::WideLanes wide_lanes_of(const Domain<Wide>& in) {
    if (in.luma) return simd::WideLanes::Luma;
    return in.count == in.image.channels ? simd::WideLanes::WithAlpha : simd::WideLanes::Colours;
}

// Source rows extended by `left` and `right` pixels by the border rule; any
// row index, the border rule naming the row. The row's own samples: its bytes
// (narrow), or its premultiplied 16-bit lanes (wide, simd::wide_lanes_row);
// the border's pixels are copies of those.
template <typename D>
class RowPadder {
public:
    using T = typename D::Sample;
    RowPadder(const Domain<D>& in, int left, int right) : in_(in), left_(left) {
        const int w = in.image.width;
        for (int px = 0; px < left + w + right; ++px)
            if (px < left || px >= left + w) pads_.push_back({px, border_index(px - left, w, in.border.mode)});
    }
    std::size_t length() const { return (static_cast<std::size_t>(in_.image.width) + pads_.size()) * in_.count; }

    void build(int y, T* out) const {
        const std::size_t K = static_cast<std::size_t>(in_.count), w = static_cast<std::size_t>(in_.image.width);
        const int m = border_index(y, in_.image.height, in_.border.mode);
        if (m < 0) {
            for (std::size_t t = 0; t < length(); ++t) out[t] = static_cast<T>(in_.outside[t % K]);
            return;
        }
        T* row = out + static_cast<std::size_t>(left_) * K;
        if constexpr (std::is_same_v<D, Narrow>)
            std::memcpy(row, in_.image.row(m), w * K);
        else
            simd::wide_lanes_row(wide_lanes_of(in_), in_.image.row(m), in_.image.channels, w, row);
        for (const Pad& pad : pads_)
            for (std::size_t c = 0; c < K; ++c)
                out[static_cast<std::size_t>(pad.px) * K + c] =
                    pad.mx < 0 ? static_cast<T>(in_.outside[c]) : row[static_cast<std::size_t>(pad.mx) * K + c];
    }

private:
    struct Pad {
        int px, mx;  // padded column, source column (-1: outside)
    };
    const Domain<D>& in_;
    int left_;
    std::vector<Pad> pads_;
};

// The `count` rows a band's output row needs, source rows first .. first +
// count - 1, each built once (build(y, slot), `length` elements) as the band
// moves down.
template <typename T, typename Build>
class RowRing {
public:
    RowRing(int count, std::size_t length, Build build)
        : count_(count), length_(length), build_(std::move(build)), data_(length * count), rows_(count) {}

    // Points rows() at source rows first .. first + count - 1, building those
    // not built yet (the band only moves down).
    void move_to(int first) {
        for (int y = std::max(first, next_); y < first + count_; ++y) build_(y, slot(y));
        next_ = std::max(next_, first + count_);
        for (int j = 0; j < count_; ++j) rows_[static_cast<std::size_t>(j)] = slot(first + j);
    }
    const T* const* rows() const { return rows_.data(); }

private:
    T* slot(int y) { return data_.data() + static_cast<std::size_t>(((y % count_) + count_) % count_) * length_; }
    int count_;
    std::size_t length_;
    Build build_;
    int next_ = -(1 << 30);  // rows below this one are built
    std::vector<T> data_;
    std::vector<const T*> rows_;
};

template <typename T, typename Build>
RowRing<T, Build> make_ring(int count, std::size_t length, Build build) {
    return RowRing<T, Build>(count, length, std::move(build));
}

// Two taps at a time where every weight fits 16 bits (simd::custom_pair_rows):
// kernel columns i and i + 1 of each row, i even.
bool pairs_fit(const std::vector<std::int32_t>& coeffs) {
    for (const std::int32_t k : coeffs)
        if (k < -32768 || k > 32767) return false;
    return true;
}
std::vector<simd::CustomPairTap> pair_taps(const std::vector<std::int32_t>& coeffs, int kw, int kh, int K) {
    std::vector<simd::CustomPairTap> pairs;
    for (int j = 0; j < kh; ++j)
        for (int i = 0; i < kw; i += 2) {
            const std::int32_t w0 = coeffs[static_cast<std::size_t>(j) * kw + i];
            const std::int32_t w1 = i + 1 < kw ? coeffs[static_cast<std::size_t>(j) * kw + i + 1] : 0;
            if (w0 == 0 && w1 == 0) continue;
            simd::CustomPairTap p;
            p.offset = static_cast<std::size_t>(i) * K;
            p.row = j;
            p.weights[0] = static_cast<std::int16_t>(w0);
            p.weights[1] = static_cast<std::int16_t>(w1);
            pairs.push_back(p);
        }
    return pairs;
}

// Narrow custom kernels: the band's kernel rows through simd::custom_rows,
// or as pair rows through simd::custom_pair_rows (measured on a 5x5 kernel,
// 4096x4096 RGB, one thread: 66 -> 51 ms).
void custom_narrow(const Domain<Narrow>& in, const FilterPlan& plan, const CustomRounding& rounding, const RowSink& out) {
    const int w = in.image.width, h = in.image.height, K = in.count;
    const int kw = plan.kernel_width, kh = plan.kernel_height;
    const RowPadder<Narrow> padder(in, plan.anchor_x, kw - 1 - plan.anchor_x);
    const std::size_t n = static_cast<std::size_t>(w) * K, length = padder.length();
    simd::CustomRows c;
    c.denominator = rounding.denominator;
    c.offset = rounding.offset;
    c.top = rounding.top;
    // Float rounding where every sum the kernel can make was tried, and only
    // if the image is large enough for the trial to cost little (at least 8
    // samples per sum tried): the double division was about a third of a 5x5
    // kernel's time.
    std::int64_t smin = 0, smax = 0;
    for (const std::int32_t k : plan.coeffs) (k < 0 ? smin : smax) += 255 * static_cast<std::int64_t>(k);
    if (static_cast<std::int64_t>(n) * h >= 8 * (smax - smin + 1))
        simd::choose_rounding(c, static_cast<std::int32_t>(smin), static_cast<std::int32_t>(smax));
    if (pairs_fit(plan.coeffs)) {
        const std::vector<simd::CustomPairTap> pairs = pair_taps(plan.coeffs, kw, kh, K);
        c.pairs = pairs.data();
        c.pair_count = pairs.size();
        parallel_for(h, row_grain(w * kw, K), [&](int y0, int y1) {
            // A padded row and K zeros: column i + 1 of a pair past the
            // kernel's last column (weight 0) reads them.
            std::vector<std::uint8_t> padded(length + static_cast<std::size_t>(K));
            auto ring = make_ring<std::int16_t>(kh, 2 * length, [&](int y, std::int16_t* slot) {
                padder.build(y, padded.data());
                simd::pair_samples(padded.data(), length, static_cast<std::size_t>(K), slot);
            });
            std::vector<std::int32_t> values(n);
            for (int y = y0; y < y1; ++y) {
                ring.move_to(y - plan.anchor_y);
                simd::custom_pair_rows(c, ring.rows(), n, values.data());
                out(y, values.data());
            }
        });
        return;
    }
    std::vector<simd::CustomTap> taps;
    for (const Tap& tap : nonzero_taps(plan.coeffs, kw, kh))
        taps.push_back({static_cast<std::size_t>(tap.i) * K, tap.j, tap.k});
    c.taps = taps.data();
    c.tap_count = taps.size();
    parallel_for(h, row_grain(w * kw, K), [&](int y0, int y1) {
        auto ring = make_ring<std::uint8_t>(kh, length, [&](int y, std::uint8_t* slot) { padder.build(y, slot); });
        std::vector<std::int32_t> values(n);
        for (int y = y0; y < y1; ++y) {
            ring.move_to(y - plan.anchor_y);
            simd::custom_rows(c, ring.rows(), n, values.data());
            out(y, values.data());
        }
    });
}

// Narrow edges: rows y - 1 .. y + 1 through simd::edge_rows.
void edges_narrow(const Domain<Narrow>& in, EdgeOperator op, const RowSink& out) {
    const int w = in.image.width, h = in.image.height, K = in.count;
    const RowPadder<Narrow> padder(in, 1, 1);
    parallel_for(h, row_grain(w * 9, K), [&](int y0, int y1) {
        auto ring = make_ring<std::uint8_t>(3, padder.length(), [&](int y, std::uint8_t* slot) { padder.build(y, slot); });
        std::vector<std::int32_t> values(static_cast<std::size_t>(w) * K);
        for (int y = y0; y < y1; ++y) {
            ring.move_to(y - 1);
            simd::edge_rows(op, ring.rows(), K, values.size(), values.data());
            out(y, values.data());
        }
    });
}

// Wide custom kernels: the band's kernel rows of 16-bit lanes through
// simd::wide_custom_rows (sums in 32-bit lanes where they fit, else in
// double lanes; see wide_rows.hpp).
void custom_wide(const Domain<Wide>& in, const FilterPlan& plan, const CustomRounding& rounding, const RowSink& out) {
    const int w = in.image.width, h = in.image.height, K = in.count;
    const int kw = plan.kernel_width, kh = plan.kernel_height;
    const RowPadder<Wide> padder(in, plan.anchor_x, kw - 1 - plan.anchor_x);
    const std::size_t n = static_cast<std::size_t>(w) * K;
    std::vector<simd::CustomTap> taps;
    for (const Tap& tap : nonzero_taps(plan.coeffs, kw, kh))
        taps.push_back({static_cast<std::size_t>(tap.i) * K, tap.j, tap.k});
    simd::CustomRows c;
    c.taps = taps.data();
    c.tap_count = taps.size();
    c.denominator = rounding.denominator;
    c.offset = rounding.offset;
    c.top = rounding.top;
    parallel_for(h, row_grain(w * kw, K), [&](int y0, int y1) {
        auto ring = make_ring<std::uint16_t>(kh, padder.length(), [&](int y, std::uint16_t* slot) { padder.build(y, slot); });
        std::vector<std::int32_t> values(n);
        for (int y = y0; y < y1; ++y) {
            ring.move_to(y - plan.anchor_y);
            simd::wide_custom_rows(c, ring.rows(), n, values.data());
            out(y, values.data());
        }
    });
}

// Wide edges: rows y - 1 .. y + 1 of 16-bit lanes through simd::wide_edge_rows.
void edges_wide(const Domain<Wide>& in, EdgeOperator op, const RowSink& out) {
    const int w = in.image.width, h = in.image.height, K = in.count;
    const RowPadder<Wide> padder(in, 1, 1);
    parallel_for(h, row_grain(w * 9, K), [&](int y0, int y1) {
        auto ring = make_ring<std::uint16_t>(3, padder.length(), [&](int y, std::uint16_t* slot) { padder.build(y, slot); });
        std::vector<std::int32_t> values(static_cast<std::size_t>(w) * K);
        for (int y = y0; y < y1; ++y) {
            ring.move_to(y - 1);
            simd::wide_edge_rows(op, ring.rows(), K, values.size(), values.data());
            out(y, values.data());
        }
    });
}

}  // namespace

// Custom, per filter.hpp: S = sum coeffs[j*kw+i] * s(x+i-ax, y+j-ay),
// out = custom_value(S, scale * 2^frac_bits, offset, top).
template <typename D>
void custom_pass(const Domain<D>& in, const FilterPlan& plan, const CustomRounding& rounding, const RowSink& out) {
    if constexpr (std::is_same_v<D, Narrow>)
        custom_narrow(in, plan, rounding, out);
    else
        custom_wide(in, plan, rounding, out);
}

// Edges, per filter.hpp: 3x3 correlations, combined per sample. Gradients
// fit int in both domains (at most 32 * 65025).
template <typename D>
void edges_pass(const Domain<D>& in, EdgeOperator op, const RowSink& out) {
    if constexpr (std::is_same_v<D, Narrow>)
        edges_narrow(in, op, out);
    else
        edges_wide(in, op, out);
}

template void custom_pass<Narrow>(const Domain<Narrow>&, const FilterPlan&, const CustomRounding&, const RowSink&);
template void custom_pass<Wide>(const Domain<Wide>&, const FilterPlan&, const CustomRounding&, const RowSink&);
template void edges_pass<Narrow>(const Domain<Narrow>&, EdgeOperator, const RowSink&);
template void edges_pass<Wide>(const Domain<Wide>&, EdgeOperator, const RowSink&);

}  // namespace imgpar::cpu::detail
