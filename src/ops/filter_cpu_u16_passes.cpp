// The 16-bit CPU filters' passes (the 16-bit contract in src/ops/filter.hpp):
// each filters the lanes of a Source and hands every output row, as lane
// values, to a sink (src/ops/filter_cpu_u16.cpp turns them into samples).
// Integer loops over whole rows, parallel over bands of rows (the Deep
// Gaussian's multiply-adds vectorised, src/ops/simd/mac_rows16.hpp); the
// widths are the contract's (uint32 Gaussian sums on Deep lanes, 64 bits
// elsewhere), so every grouping gives the same sums.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "src/ops/filter_cpu_u16_detail.hpp"
#include "src/ops/simd/mac_rows16.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu::u16 {

namespace {

// acc[k] += t * q[k]: vectorised for the Deep lanes (uint32 sums of 16-bit
// samples), a plain loop for the DeepWide ones (uint64).
inline void mac(std::uint32_t* acc, const std::uint16_t* q, std::uint32_t t, std::size_t n) {
    simd::mac_row(acc, q, t, n);
}
inline void mac(std::uint64_t* acc, const std::uint32_t* q, std::uint64_t t, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) acc[k] += t * q[k];
}

// The `count` border-extended rows y0 .. y0 + count - 1 an output row reads,
// each built once as a band moves down one row at a time.
template <typename D>
class PaddedRows {
public:
    using Lane = typename D::Lane;
    PaddedRows(const Source<D>& in, int count, int left, int right)
        : in_(in),
          left_(left),
          right_(right),
          rows_(static_cast<std::size_t>(count),
                std::vector<Lane>(static_cast<std::size_t>(in.image.width + left + right) * in.count)) {}
    // Row j (0 .. count-1) of the window moved to last.
    const Lane* row(int j) const { return rows_[static_cast<std::size_t>(j)].data(); }
    // The window whose first row is y0 (any integer; the border rule names it).
    void move_to(int y0) {
        const int count = static_cast<int>(rows_.size());
        int keep = 0;
        if (first_ != kNone && y0 > first_ && y0 - first_ < count) {
            keep = count - (y0 - first_);
            std::rotate(rows_.begin(), rows_.begin() + (y0 - first_), rows_.end());
        }
        for (int j = keep; j < count; ++j)
            in_.padded_row(y0 + j, left_, right_, scratch_, rows_[static_cast<std::size_t>(j)].data());
        first_ = y0;
    }

private:
    static constexpr int kNone = -(1 << 30);
    const Source<D>& in_;
    int left_, right_;
    std::vector<std::vector<Lane>> rows_;
    std::vector<Lane> scratch_;
    int first_ = kNone;
};

int grain(int width, int lanes, int work_per_sample) {
    const long long per_row = static_cast<long long>(width) * lanes * std::max(1, work_per_sample);
    return static_cast<int>(std::max<long long>(1, 65536 / std::max<long long>(1, per_row)));
}

}  // namespace

// Gaussian: H(x, y) = round(sum_i T[i] lane(x + i - r, y)), then out =
// round(sum_j T[j] H(x, y + j - r)) with rows outside the image the H of the
// row the border rule names (a constant border's row: the constant lane
// itself). Bands of output rows, each with the H of its rows and 2r halo rows
// in a buffer of its own (no image-sized intermediate; the halo rows' H is
// computed by both bands that read them, (band + 2r) / band of the rows pass).
template <typename D>
void gaussian16(const Source<D>& in, const std::vector<std::int32_t>& taps, const RowSink16& out) {
    using Lane = typename D::Lane;
    using Acc = typename D::Acc;
    const int w = in.image.width, h = in.image.height, K = in.count;
    const int r = static_cast<int>(taps.size() / 2), window = 2 * r + 1;
    const std::size_t n = static_cast<std::size_t>(w) * K;
    const int band = std::max(64, 4 * r);
    const int bands = (h + band - 1) / band;
    parallel_for(bands, 1, [&](int b0, int b1) {
        std::vector<Lane> scratch, pad(static_cast<std::size_t>(w + 2 * r) * K);
        std::vector<Lane> mid(static_cast<std::size_t>(band + 2 * r) * n);
        std::vector<Acc> acc(n);
        std::vector<std::uint64_t> values(n);
        for (int b = b0; b < b1; ++b) {
            const int y0 = b * band, y1 = std::min(h, y0 + band);
            // H of rows y0 - r .. y1 + r - 1 (as the border rule names them).
            for (int p = y0 - r; p < y1 + r; ++p) {
                Lane* o = &mid[static_cast<std::size_t>(p - (y0 - r)) * n];
                const int m = border_index(p, h, in.mode);
                if (m < 0) {
                    for (std::size_t k = 0; k < n; ++k) o[k] = in.outside[k % static_cast<std::size_t>(K)];
                    continue;
                }
                in.padded_row(m, r, r, scratch, pad.data());
                // A tap at a time over the whole row: contiguous, vectorised.
                std::fill(acc.begin(), acc.end(), Acc{0});
                for (int i = 0; i < window; ++i) {
                    const Acc t = static_cast<Acc>(taps[static_cast<std::size_t>(i)]);
                    mac(acc.data(), pad.data() + static_cast<std::size_t>(i) * K, t, n);
                }
                for (std::size_t k = 0; k < n; ++k) o[k] = static_cast<Lane>(D::round(acc[k]));
            }
            for (int y = y0; y < y1; ++y) {
                std::fill(acc.begin(), acc.end(), Acc{0});
                for (int j = 0; j < window; ++j) {
                    const Acc t = static_cast<Acc>(taps[static_cast<std::size_t>(j)]);
                    mac(acc.data(), &mid[static_cast<std::size_t>(y - y0 + j) * n], t, n);
                }
                for (std::size_t k = 0; k < n; ++k) values[k] = D::round(acc[k]);
                out(y, values.data());
            }
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
    const std::size_t n = static_cast<std::size_t>(w) * K;
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
        PaddedRows<D> rows(in, kh, plan.anchor_x, kw - 1 - plan.anchor_x);
        std::vector<std::int64_t> acc(n);
        std::vector<std::uint64_t> values(n);
        for (int y = y0; y < y1; ++y) {
            rows.move_to(y - plan.anchor_y);
            std::fill(acc.begin(), acc.end(), 0);
            for (const Tap& tap : taps) {
                const Lane* s = rows.row(tap.row) + tap.offset;
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
    const std::size_t n = static_cast<std::size_t>(w) * K;
    const Signed wa = op == EdgeOperator::Scharr ? 3 : 1, wb = op == EdgeOperator::Scharr ? 10 : 2;
    parallel_for(h, grain(w, K, 9), [&](int y0, int y1) {
        PaddedRows<D> rows(in, 3, 1, 1);
        std::vector<std::uint64_t> values(n);
        for (int y = y0; y < y1; ++y) {
            rows.move_to(y - 1);
            const Lane* a = rows.row(0);
            const Lane* b = rows.row(1);
            const Lane* c = rows.row(2);
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
