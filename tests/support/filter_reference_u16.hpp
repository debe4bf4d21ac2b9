// A reference of the 16-bit filters written from the 16-bit contract in
// src/ops/filter.hpp: brute force, one output sample at a time, 64- and
// 128-bit integers, with the border folding of filter_reference.hpp (test::
// fold), so a mistake in the CPU passes or the CUDA kernels cannot hide. Also
// the 16-bit test images (values over 0..65535: 0, 65535, levels that are not
// multiples of 257, low alphas).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "src/image.hpp"
#include "src/ops/filter.hpp"
#include "tests/support/filter_reference.hpp"

namespace imgpar::test {

// Random 16-bit samples over the whole range, with runs of 0 and 65535 and
// alpha (2 and 4 channels) that is 0, 65535, 1..3 or anything.
inline ImageU16 random_u16(int w, int h, int c, unsigned seed) {
    ImageU16 img(w, h, c);
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int k = 0; k < c; ++k) {
                const unsigned pick = rng() % 16;
                int v = static_cast<int>(rng() % 65536);
                if (pick == 0) v = 0;
                if (pick == 1) v = 65535;
                if (pick == 2) v = 65535 - static_cast<int>(rng() % 4);
                if (has_alpha(c) && k == c - 1) {
                    const unsigned a = rng() % 6;
                    v = a == 0 ? 0 : a == 1 ? 65535 : a == 2 ? 1 + static_cast<int>(rng() % 3) : v;
                }
                img.at(x, y, k) = static_cast<std::uint16_t>(v);
            }
    return img;
}

namespace ref16 {

using i64 = long long;
__extension__ typedef unsigned __int128 u128;

// The lanes a plan filters, per the contract: samples (or luma) without
// alpha; P = c * a and A = 65535 * a with alpha.
struct Lanes {
    const ImageU16& img;
    Border border;
    bool alpha_lane = true;  // Gaussian, box, custom filter A
    bool luma = false;       // gray edges
    int ch() const { return img.channels(); }
    bool alpha() const { return has_alpha(ch()); }
    int colours() const { return alpha() ? ch() - 1 : ch(); }
    int count() const { return luma ? 1 : (alpha() && !alpha_lane ? ch() - 1 : ch()); }
    i64 sample(int x, int y, int c) const {
        const int mx = fold(x, img.width(), border.mode), my = fold(y, img.height(), border.mode);
        return mx < 0 || my < 0 ? 257 * border.value : img.at(mx, my, c);
    }
    i64 at(int x, int y, int l) const {
        const i64 a = alpha() ? sample(x, y, ch() - 1) : 1;
        const auto colour = [&](int c) { return alpha() ? sample(x, y, c) * a : sample(x, y, c); };
        if (luma && colours() == 3) return (77 * colour(0) + 150 * colour(1) + 29 * colour(2) + 128) >> 8;
        if (luma) return colour(0);
        if (alpha() && l == colours()) return 65535 * a;
        return colour(l);
    }
};

struct Plane {
    int w, h, n;
    std::vector<i64> v;
    Plane(int w_, int h_, int n_) : w(w_), h(h_), n(n_), v(static_cast<std::size_t>(w_) * h_ * n_) {}
    i64& at(int x, int y, int l) { return v[(static_cast<std::size_t>(y) * w + x) * n + l]; }
    i64 at(int x, int y, int l) const { return v[(static_cast<std::size_t>(y) * w + x) * n + l]; }
};

inline Plane gaussian(const Lanes& s, const std::vector<std::int32_t>& t) {
    const int w = s.img.width(), h = s.img.height(), n = s.count(), r = static_cast<int>(t.size() / 2);
    Plane hp(w, h, n), out(w, h, n);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int l = 0; l < n; ++l) {
                i64 sum = 0;
                for (int i = -r; i <= r; ++i) sum += t[static_cast<std::size_t>(i + r)] * s.at(x + i, y, l);
                hp.at(x, y, l) = (sum + 32768) >> 16;
            }
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int l = 0; l < n; ++l) {
                i64 sum = 0;
                for (int j = -r; j <= r; ++j) {
                    const int m = fold(y + j, h, s.border.mode);
                    // m < 0: a constant border row, the constant lane itself
                    sum += t[static_cast<std::size_t>(j + r)] * (m < 0 ? s.at(0, -1, l) : hp.at(x, m, l));
                }
                out.at(x, y, l) = (sum + 32768) >> 16;
            }
    return out;
}

inline Plane box(const Lanes& s, int radius) {
    const int w = s.img.width(), h = s.img.height(), n = s.count();
    const i64 count = static_cast<i64>(2 * radius + 1) * (2 * radius + 1);
    Plane out(w, h, n);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int l = 0; l < n; ++l) {
                i64 sum = 0;
                for (int j = -radius; j <= radius; ++j)
                    for (int i = -radius; i <= radius; ++i) sum += s.at(x + i, y + j, l);
                out.at(x, y, l) = (sum + count / 2) / count;
            }
    return out;
}

// The plan's fixed-point coefficients (correlation order), offset and top on
// the lanes' scale.
inline Plane custom(const Lanes& s, const FilterPlan& p, double offset, i64 top) {
    const int w = s.img.width(), h = s.img.height(), n = s.count();
    const double den = std::ldexp(p.scale, p.frac_bits);
    Plane out(w, h, n);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int l = 0; l < n; ++l) {
                i64 sum = 0;
                for (int j = 0; j < p.kernel_height; ++j)
                    for (int i = 0; i < p.kernel_width; ++i)
                        sum += static_cast<i64>(p.coeffs[static_cast<std::size_t>(j * p.kernel_width + i)]) *
                               s.at(x + i - p.anchor_x, y + j - p.anchor_y, l);
                volatile double q = static_cast<double>(sum) / den;
                const double v = q + offset;
                const double rr = v >= 0 ? std::floor(v + 0.5) : std::ceil(v - 0.5);
                out.at(x, y, l) = rr < 0 ? 0 : rr > static_cast<double>(top) ? top : static_cast<i64>(rr);
            }
    return out;
}

// min(top, round(sqrt(m) / d)), ties up, found by search on the exact test
// (2k-1)^2 d^2 <= 4m < (2k+1)^2 d^2.
inline i64 round_sqrt(u128 m, int d, i64 top) {
    i64 lo = 0, hi = top;  // the largest k with (2k-1)^2 d^2 <= 4m
    while (lo < hi) {
        const i64 mid = lo + (hi - lo + 1) / 2;
        const u128 e = static_cast<u128>(2 * mid - 1);
        if (e * e * static_cast<u128>(d * d) <= 4 * m)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

inline Plane edges(const Lanes& s, EdgeOperator op, i64 top) {
    const int w = s.img.width(), h = s.img.height(), n = s.count();
    const int A = op == EdgeOperator::Scharr ? 3 : 1, B = op == EdgeOperator::Scharr ? 10 : 2;
    const int gxk[3][3] = {{-A, 0, A}, {-B, 0, B}, {-A, 0, A}};
    const int lap[3][3] = {{0, 1, 0}, {1, -4, 1}, {0, 1, 0}};
    Plane out(w, h, n);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int l = 0; l < n; ++l) {
                i64 gx = 0, gy = 0;
                for (int j = 0; j < 3; ++j)
                    for (int i = 0; i < 3; ++i) {
                        const i64 v = s.at(x + i - 1, y + j - 1, l);
                        gx += (op == EdgeOperator::Laplacian ? lap[j][i] : gxk[j][i]) * v;
                        gy += (op == EdgeOperator::Laplacian ? 0 : gxk[i][j]) * v;
                    }
                if (op == EdgeOperator::Laplacian) {
                    out.at(x, y, l) = std::min<i64>(top, gx < 0 ? -gx : gx);
                } else {
                    const u128 ax = static_cast<u128>(gx < 0 ? -gx : gx), ay = static_cast<u128>(gy < 0 ? -gy : gy);
                    out.at(x, y, l) = round_sqrt(ax * ax + ay * ay, op == EdgeOperator::Sobel ? 4 : 16, top);
                }
            }
    return out;
}

// The whole plan, as the contract composes it.
inline ImageU16 filter(const ImageU16& src, const FilterPlan& p) {
    const int C = src.channels(), oc = p.output_channels(C);
    const bool alpha = has_alpha(C);
    const i64 top = alpha ? 65535LL * 65535LL : 65535;
    const bool kept = p.kind == FilterKind::Unsharp || p.kind == FilterKind::Edges;
    Lanes s{src, p.border, !kept, p.kind == FilterKind::Edges && p.edges_gray};
    Plane v(1, 1, 1);
    switch (p.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: v = gaussian(s, gaussian_taps16(p)); break;
        case FilterKind::Box: v = box(s, p.radius); break;
        case FilterKind::Custom: v = custom(s, p, (alpha ? 65535.0 * 257.0 : 257.0) * p.offset, top); break;
        case FilterKind::Edges: v = edges(s, p.edge_op, top); break;
    }
    const i64 level = static_cast<i64>(std::ceil(p.threshold * 65535.0 - 1e-9));
    ImageU16 out(src.width(), src.height(), oc);
    for (int y = 0; y < src.height(); ++y)
        for (int x = 0; x < src.width(); ++x) {
            const i64 a = alpha ? src.at(x, y, C - 1) : 0;
            const int colours = alpha ? oc - 1 : oc;
            for (int c = 0; c < colours; ++c) {
                i64 val = v.at(x, y, c);
                if (p.kind == FilterKind::Unsharp) {
                    const i64 xv = alpha ? src.at(x, y, c) * a : src.at(x, y, c);
                    const i64 d = xv - val, ad = d < 0 ? -d : d;
                    if (2 * ad < (alpha ? 65535 : 1) * level) {
                        val = xv;
                    } else {
                        const i64 num = p.amount_q8 * d + 128;
                        const i64 q = num >= 0 ? num / 256 : -((-num + 255) / 256);
                        val = std::clamp<i64>(xv + q, 0, top);
                    }
                }
                i64 o = val;
                if (alpha && kept) o = a == 0 ? 0 : std::min<i64>(65535, (2 * val + a) / (2 * a));
                if (alpha && !kept) {
                    const i64 A = v.at(x, y, colours), a_out = (A + 32767) / 65535;
                    o = a_out == 0 ? 0 : std::min<i64>(65535, (2 * 65535 * val + A) / (2 * A));
                }
                out.at(x, y, c) = static_cast<std::uint16_t>(o);
            }
            if (alpha)
                out.at(x, y, colours) = static_cast<std::uint16_t>(kept ? a : (v.at(x, y, colours) + 32767) / 65535);
        }
    return out;
}

}  // namespace ref16
}  // namespace imgpar::test
