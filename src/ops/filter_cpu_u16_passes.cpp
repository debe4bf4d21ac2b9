// The 16-bit CPU filters' passes (the 16-bit contract in src/ops/filter.hpp):
// each filters the lanes of a Source and hands every output row, as lane
// values, to a sink (src/ops/filter_cpu_u16.cpp turns them into samples).
// Plain integer loops, parallel over bands of rows; the widths are the
// contract's (uint32 Gaussian sums on Deep lanes, 64 bits elsewhere).
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/ops/filter_cpu_u16_detail.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu::u16 {

namespace {

int grain(int width, int lanes, int work_per_sample) {
    const long long per_row = static_cast<long long>(width) * lanes * std::max(1, work_per_sample);
    return static_cast<int>(std::max<long long>(1, 65536 / std::max<long long>(1, per_row)));
}

}  // namespace

// Gaussian: H(x, y) = round(sum_i T[i] lane(x + i - r, y)) for every image
// row into an intermediate of lanes, then out = round(sum_j T[j] H(x, y + j
// - r)) with rows outside the image the H of the row the border rule names
// (a constant border's row: the constant lane itself).
template <typename D>
void gaussian16(const Source<D>& in, const std::vector<std::int32_t>& taps, const RowSink16& out) {
    using Lane = typename D::Lane;
    using Acc = typename D::Acc;
    const int w = in.image.width, h = in.image.height, K = in.count;
    const int r = static_cast<int>(taps.size() / 2), window = 2 * r + 1;
    const std::size_t n = static_cast<std::size_t>(w) * K;
    std::vector<Lane> mid(n * static_cast<std::size_t>(h));
    parallel_for(h, grain(w, K, window), [&](int y0, int y1) {
        std::vector<Lane> scratch, pad(static_cast<std::size_t>(w + 2 * r) * K);
        for (int y = y0; y < y1; ++y) {
            in.padded_row(y, r, r, scratch, pad.data());
            Lane* o = &mid[static_cast<std::size_t>(y) * n];
            for (std::size_t t = 0; t < n; ++t) {
                Acc s = 0;
                for (int i = 0; i < window; ++i)
                    s += static_cast<Acc>(taps[static_cast<std::size_t>(i)]) * pad[t + static_cast<std::size_t>(i) * K];
                o[t] = static_cast<Lane>(D::round(s));
            }
        }
    });
    std::vector<Lane> outside_row(n);
    for (std::size_t t = 0; t < n; ++t) outside_row[t] = in.outside[t % static_cast<std::size_t>(K)];
    parallel_for(h, grain(w, K, window), [&](int y0, int y1) {
        std::vector<Acc> acc(n);
        std::vector<std::uint64_t> values(n);
        for (int y = y0; y < y1; ++y) {
            std::fill(acc.begin(), acc.end(), Acc{0});
            for (int j = 0; j < window; ++j) {
                const int m = border_index(y + j - r, h, in.mode);
                const Lane* row = m < 0 ? outside_row.data() : &mid[static_cast<std::size_t>(m) * n];
                const Acc t = static_cast<Acc>(taps[static_cast<std::size_t>(j)]);
                for (std::size_t k = 0; k < n; ++k) acc[k] += t * row[k];
            }
            for (std::size_t k = 0; k < n; ++k) values[k] = D::round(acc[k]);
            out(y, values.data());
        }
    });
}

// Box: per band of rows, running column sums (uint64) of the (2R+1)-row
// window (one row in below, one out above), then per row a running sum of
// 2R+1 column sums along it; out = (S + n/2) / n, exactly, by integer
// division.
template <typename D>
void box16(const Source<D>& in, int radius, const RowSink16& out) {
    using Lane = typename D::Lane;
    const int w = in.image.width, h = in.image.height, K = in.count, side = 2 * radius + 1;
    const int count = side * side;
    const std::size_t n = static_cast<std::size_t>(w) * K;
    parallel_for(h, grain(w, K, 4), [&](int y0, int y1) {
        std::vector<Lane> row(n);
        std::vector<std::uint64_t> col(n, 0), values(n);
        // Adds sign * (row m of lanes, or the constant row) to the column sums.
        const auto add_row = [&](int y, bool subtract) {
            const int m = border_index(y, h, in.mode);
            if (m >= 0) in.row(m, row.data());
            for (std::size_t t = 0; t < n; ++t) {
                const std::uint64_t v = m < 0 ? in.outside[t % static_cast<std::size_t>(K)] : row[t];
                col[t] = subtract ? col[t] - v : col[t] + v;
            }
        };
        for (int j = y0 - radius; j <= y0 + radius; ++j) add_row(j, false);
        std::uint64_t outside_col[4];
        for (int l = 0; l < K; ++l)
            outside_col[l] = static_cast<std::uint64_t>(side) * in.outside[static_cast<std::size_t>(l)];
        const auto column = [&](int x, int l) {
            const int m = border_index(x, w, in.mode);
            return m < 0 ? outside_col[l] : col[static_cast<std::size_t>(m) * K + l];
        };
        for (int y = y0; y < y1; ++y) {
            if (y > y0) {
                add_row(y + radius, false);
                add_row(y - 1 - radius, true);
            }
            for (int l = 0; l < K; ++l) {
                std::uint64_t s = 0;
                for (int i = -radius; i <= radius; ++i) s += column(i, l);
                for (int x = 0; x < w; ++x) {
                    values[static_cast<std::size_t>(x) * K + l] =
                        (s + static_cast<std::uint64_t>(count / 2)) / static_cast<std::uint64_t>(count);
                    if (x + 1 < w) s = s + column(x + 1 + radius, l) - column(x - radius, l);
                }
            }
            out(y, values.data());
        }
    });
}

// Custom: S = sum coeffs[j*kw+i] * lane(x + i - ax, y + j - ay) in int64,
// out = custom_value64(S, scale * 2^frac_bits, offset, top).
template <typename D>
void custom16(const Source<D>& in, const FilterPlan& plan, double offset, std::uint64_t top, const RowSink16& out) {
    using Lane = typename D::Lane;
    const int w = in.image.width, h = in.image.height, K = in.count;
    const int kw = plan.kernel_width, kh = plan.kernel_height;
    const std::size_t n = static_cast<std::size_t>(w) * K, padded = static_cast<std::size_t>(w + kw - 1) * K;
    const double denominator = std::ldexp(plan.scale, plan.frac_bits);
    struct Tap {
        std::size_t offset;
        int row;
        std::int64_t k;
    };
    std::vector<Tap> taps;
    for (int j = 0; j < kh; ++j)
        for (int i = 0; i < kw; ++i) {
            const std::int32_t k = plan.coeffs[static_cast<std::size_t>(j) * kw + i];
            if (k != 0) taps.push_back({static_cast<std::size_t>(i) * K, j, k});
        }
    parallel_for(h, grain(w, K, static_cast<int>(taps.size())), [&](int y0, int y1) {
        std::vector<Lane> scratch, rows(padded * static_cast<std::size_t>(kh));
        std::vector<std::int64_t> acc(n);
        std::vector<std::uint64_t> values(n);
        for (int y = y0; y < y1; ++y) {
            for (int j = 0; j < kh; ++j)
                in.padded_row(y + j - plan.anchor_y, plan.anchor_x, kw - 1 - plan.anchor_x, scratch,
                              &rows[static_cast<std::size_t>(j) * padded]);
            std::fill(acc.begin(), acc.end(), 0);
            for (const Tap& tap : taps) {
                const Lane* s = &rows[static_cast<std::size_t>(tap.row) * padded + tap.offset];
                for (std::size_t t = 0; t < n; ++t) acc[t] += tap.k * static_cast<std::int64_t>(s[t]);
            }
            for (std::size_t t = 0; t < n; ++t)
                values[t] = static_cast<std::uint64_t>(
                    custom_value64(static_cast<double>(acc[t]), denominator, offset, static_cast<std::int64_t>(top)));
            out(y, values.data());
        }
    });
}

// Edges: the 3x3 operator pair (Laplacian: gx only) on every lane.
template <typename D>
void edges16(const Source<D>& in, EdgeOperator op, const RowSink16& out) {
    using Lane = typename D::Lane;
    using Signed = typename D::Signed;
    const int w = in.image.width, h = in.image.height, K = in.count;
    const std::size_t n = static_cast<std::size_t>(w) * K, padded = static_cast<std::size_t>(w + 2) * K;
    const Signed wa = op == EdgeOperator::Scharr ? 3 : 1, wb = op == EdgeOperator::Scharr ? 10 : 2;
    parallel_for(h, grain(w, K, 9), [&](int y0, int y1) {
        std::vector<Lane> scratch, rows(3 * padded);
        std::vector<std::uint64_t> values(n);
        for (int y = y0; y < y1; ++y) {
            for (int j = 0; j < 3; ++j)
                in.padded_row(y + j - 1, 1, 1, scratch, &rows[static_cast<std::size_t>(j) * padded]);
            const Lane* a = rows.data();
            const Lane* b = a + padded;
            const Lane* c = b + padded;
            const std::size_t k = static_cast<std::size_t>(K);
            for (std::size_t t = 0; t < n; ++t) {
                const auto s = [&](const Lane* row, int i) {
                    return static_cast<Signed>(row[t + static_cast<std::size_t>(i) * k]);
                };
                if (op == EdgeOperator::Laplacian) {
                    const Signed l = s(a, 1) + s(b, 0) + s(b, 2) + s(c, 1) - 4 * s(b, 1);
                    if constexpr (std::is_same_v<D, Deep>)
                        values[t] = static_cast<std::uint64_t>(edge_output16(op, l, 0));
                    else
                        values[t] = edge_output_wide16(op, l, 0);
                    continue;
                }
                const Signed gx = wa * (s(a, 2) - s(a, 0)) + wb * (s(b, 2) - s(b, 0)) + wa * (s(c, 2) - s(c, 0));
                const Signed gy = wa * (s(c, 0) - s(a, 0)) + wb * (s(c, 1) - s(a, 1)) + wa * (s(c, 2) - s(a, 2));
                if constexpr (std::is_same_v<D, Deep>)
                    values[t] = static_cast<std::uint64_t>(edge_output16(op, gx, gy));
                else
                    values[t] = edge_output_wide16(op, gx, gy);
            }
            out(y, values.data());
        }
    });
}

template void gaussian16<Deep>(const Source<Deep>&, const std::vector<std::int32_t>&, const RowSink16&);
template void gaussian16<DeepWide>(const Source<DeepWide>&, const std::vector<std::int32_t>&, const RowSink16&);
template void box16<Deep>(const Source<Deep>&, int, const RowSink16&);
template void box16<DeepWide>(const Source<DeepWide>&, int, const RowSink16&);
template void custom16<Deep>(const Source<Deep>&, const FilterPlan&, double, std::uint64_t, const RowSink16&);
template void custom16<DeepWide>(const Source<DeepWide>&, const FilterPlan&, double, std::uint64_t, const RowSink16&);
template void edges16<Deep>(const Source<Deep>&, EdgeOperator, const RowSink16&);
template void edges16<DeepWide>(const Source<DeepWide>&, EdgeOperator, const RowSink16&);

}  // namespace imgpar::cpu::u16
