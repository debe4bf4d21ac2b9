// The direct 2-D CPU filters: edge operators and custom kernels.
//
// The source is first extended by the border rule into a padded copy, so the
// correlation itself is a plain loop with no border logic: padded(x + i, y + j)
// is s(x + i - anchor_x, y + j - anchor_y). Each kernel coefficient then adds
// one shifted padded row into an accumulator row, which vectorises well and
// skips zero coefficients.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/ops/filter_cpu_detail.hpp"
#include "src/ops/filter_math.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu::detail {

namespace {

// Channels [0, K) of the source, extended by left/right/top/bottom samples.
struct Padded {
    std::vector<std::uint8_t> data;
    std::size_t stride = 0;  // samples per padded row
    const std::uint8_t* row(int y) const { return data.data() + static_cast<std::size_t>(y) * stride; }
};

Padded pad_source(const Domain& in, int left, int right, int top, int bottom) {
    const int w = in.image.width, h = in.image.height, C = in.image.channels, K = in.count;
    const int pw = w + left + right, ph = h + top + bottom;
    const BorderMode mode = in.border.mode;
    Padded p;
    p.stride = static_cast<std::size_t>(pw) * K;
    p.data.resize(p.stride * static_cast<std::size_t>(ph));
    std::vector<int> cols(static_cast<std::size_t>(pw));
    for (int px = 0; px < pw; ++px) cols[static_cast<std::size_t>(px)] = border_index(px - left, w, mode);
    parallel_for(ph, row_grain(pw, K), [&](int y0, int y1) {
        for (int py = y0; py < y1; ++py) {
            const int m = border_index(py - top, h, mode);
            std::uint8_t* o = p.data.data() + static_cast<std::size_t>(py) * p.stride;
            for (int px = 0; px < pw; ++px) {
                const int mx = cols[static_cast<std::size_t>(px)];
                for (int c = 0; c < K; ++c) {
                    const int v = (m < 0 || mx < 0)
                                      ? in.outside[static_cast<std::size_t>(c)]
                                      : in.image.row(m)[static_cast<std::size_t>(mx) * C + c];
                    o[static_cast<std::size_t>(px) * K + c] = static_cast<std::uint8_t>(v);
                }
            }
        }
    });
    return p;
}

// One kernel coefficient: weight k at column offset i, row offset j.
struct Tap {
    int i, j, k;
};

// acc[t] += sum over taps of k * padded(x + i, y + j) for one output row y,
// where t runs over the row's samples (x * K + c).
void correlate_row(const Padded& p, const std::vector<Tap>& taps, int K, int y, std::vector<int>& acc) {
    const std::size_t n = acc.size();
    for (std::size_t t = 0; t < n; ++t) acc[t] = 0;
    for (const Tap& tap : taps) {
        const std::uint8_t* src = p.row(y + tap.j) + static_cast<std::size_t>(tap.i) * K;
        const int k = tap.k;
        for (std::size_t t = 0; t < n; ++t) acc[t] += k * src[t];
    }
}

std::vector<Tap> nonzero_taps(const std::vector<std::int32_t>& coeffs, int width, int height) {
    std::vector<Tap> taps;
    for (int j = 0; j < height; ++j)
        for (int i = 0; i < width; ++i) {
            const int k = coeffs[static_cast<std::size_t>(j) * width + i];
            if (k != 0) taps.push_back({i, j, k});
        }
    return taps;
}

// The 3x3 operators of filter.hpp as taps (i = column, j = row). Sobel and
// Scharr differ only in weights, gx = [-a 0 a; -b 0 b; -a 0 a], gy its
// transpose; the Laplacian has a single kernel (gy is empty).
std::vector<Tap> edge_taps(EdgeOperator op, bool transpose) {
    std::vector<Tap> taps;
    if (op == EdgeOperator::Laplacian) {
        if (transpose) return taps;
        const int lap[3][3] = {{0, 1, 0}, {1, -4, 1}, {0, 1, 0}};
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i)
                if (lap[j][i] != 0) taps.push_back(Tap{i, j, lap[j][i]});
        return taps;
    }
    const int a = op == EdgeOperator::Scharr ? 3 : 1;
    const int b = op == EdgeOperator::Scharr ? 10 : 2;
    const int gx[3][3] = {{-a, 0, a}, {-b, 0, b}, {-a, 0, a}};
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) {
            const int k = transpose ? gx[i][j] : gx[j][i];
            if (k != 0) taps.push_back(Tap{i, j, k});
        }
    return taps;
}

}  // namespace

// Custom, per filter.hpp: S = sum coeffs[j*kw+i] * s(x+i-ax, y+j-ay),
// out = custom_output(S, scale * 2^frac_bits, offset).
void custom_pass(const Domain& in, const FilterPlan& plan, ViewU8 out) {
    const int w = in.image.width, h = in.image.height, K = in.count, D = out.channels;
    const int kw = plan.kernel_width, kh = plan.kernel_height;
    const Padded p = pad_source(in, plan.anchor_x, kw - 1 - plan.anchor_x, plan.anchor_y, kh - 1 - plan.anchor_y);
    const std::vector<Tap> taps = nonzero_taps(plan.coeffs, kw, kh);
    const double denominator = std::ldexp(plan.scale, plan.frac_bits);  // exact: a power-of-two scaling
    const double offset = plan.offset;
    parallel_for(h, row_grain(w * kw, K), [&](int y0, int y1) {
        std::vector<int> acc(static_cast<std::size_t>(w) * K);
        for (int y = y0; y < y1; ++y) {
            correlate_row(p, taps, K, y, acc);
            std::uint8_t* o = out.row(y);
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < K; ++c)
                    o[static_cast<std::size_t>(x) * D + c] = static_cast<std::uint8_t>(
                        custom_output(acc[static_cast<std::size_t>(x) * K + c], denominator, offset));
        }
    });
}

// Edges, per filter.hpp: 3x3 correlations, combined per sample.
void edges_pass(const Domain& in, EdgeOperator op, ViewU8 out) {
    const int w = in.image.width, h = in.image.height, K = in.count, D = out.channels;
    const Padded p = pad_source(in, 1, 1, 1, 1);

    const std::vector<Tap> gx_taps = edge_taps(op, false);
    const std::vector<Tap> gy_taps = edge_taps(op, true);

    parallel_for(h, row_grain(w * 9, K), [&](int y0, int y1) {
        const std::size_t n = static_cast<std::size_t>(w) * K;
        std::vector<int> gx(n), gy(n);
        for (int y = y0; y < y1; ++y) {
            correlate_row(p, gx_taps, K, y, gx);
            if (!gy_taps.empty()) correlate_row(p, gy_taps, K, y, gy);
            std::uint8_t* o = out.row(y);
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < K; ++c) {
                    const std::size_t t = static_cast<std::size_t>(x) * K + c;
                    int v = 0;
                    switch (op) {
                        case EdgeOperator::Sobel: v = sobel_output(gx[t], gy[t]); break;
                        case EdgeOperator::Scharr: v = scharr_output(gx[t], gy[t]); break;
                        case EdgeOperator::Laplacian: v = laplacian_output(gx[t]); break;
                    }
                    o[static_cast<std::size_t>(x) * D + c] = static_cast<std::uint8_t>(v);
                }
        }
    });
}

}  // namespace imgpar::cpu::detail
