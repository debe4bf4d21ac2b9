// References of the convolution filters written from the contract in
// src/ops/filter.hpp: brute force, one output sample at a time, with their own
// border folding, so a mistake in the optimised passes cannot hide. The
// oracle of the CPU filter suites.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/ops/filter.hpp"
#include "src/ops/filter_math.hpp"
#include "src/ops/pixel_math.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test {

// ---------------------------------------------------------------------------
// Reference building blocks
// ---------------------------------------------------------------------------

// Border folding done the slow way, one reflection or period at a time.
inline int fold(int i, int n, BorderMode mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case BorderMode::Constant: return -1;
        case BorderMode::Replicate: return i < 0 ? 0 : n - 1;
        case BorderMode::Reflect:
            while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
            return i;
        case BorderMode::Reflect101:
            if (n == 1) return 0;
            while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
            return i;
        case BorderMode::Wrap:
            while (i < 0) i += n;
            while (i >= n) i -= n;
            return i;
    }
    return -1;
}

inline std::vector<Border> all_borders() {
    return {parse_border("replicate"), parse_border("reflect"), parse_border("reflect101"),
            parse_border("wrap"),      parse_border("constant"), parse_border("constant:200")};
}

// The samples a filter reads, lane by lane. Without alpha, the channels
// themselves. With alpha, the wide domain: premultiplied colour c * a, and
// for the filters that filter alpha one more lane, 255 * a. Outside the
// image, the border rule (a constant border pixel has every channel equal to V).
struct Source {
    const ImageU8& img;
    Border border;
    bool with_alpha = true;  // the alpha lanes (Gaussian, box, custom)
    int w() const { return img.width(); }
    int h() const { return img.height(); }
    int ch() const { return img.channels(); }
    bool alpha() const { return has_alpha(ch()); }
    int colours() const { return alpha() ? ch() - 1 : ch(); }
    int lanes() const { return !alpha() ? ch() : (with_alpha ? ch() : ch() - 1); }
    // Full scale of the samples: 255 * 255 in the wide domain.
    int top() const { return alpha() ? 65025 : 255; }
    int at(int x, int y, int lane) const {
        const int mx = fold(x, w(), border.mode), my = fold(y, h(), border.mode);
        const bool out = mx < 0 || my < 0;
        auto byte = [&](int c) { return out ? border.value : img.at(mx, my, c); };
        if (!alpha()) return byte(lane);
        const int a = byte(ch() - 1);
        return lane < colours() ? byte(lane) * a : 255 * a;
    }
};

// Filtered samples in the working domain, one per (x, y, lane).
struct Plane {
    int w = 0, h = 0, ch = 0;
    std::vector<int> v;
    Plane(int w_, int h_, int ch_) : w(w_), h(h_), ch(ch_), v(static_cast<std::size_t>(w_) * h_ * ch_) {}
    int& at(int x, int y, int c) { return v[(static_cast<std::size_t>(y) * w + x) * ch + c]; }
    int at(int x, int y, int c) const { return v[(static_cast<std::size_t>(y) * w + x) * ch + c]; }
};

// The way back from the wide domain: round(255 * P / A), at most 255, 0 where A is 0.
inline int unpremultiply_ref(long long p, long long a_wide) {
    if (a_wide <= 0) return 0;
    return static_cast<int>(std::min<long long>(255, (510 * p + a_wide) / (2 * a_wide)));
}

// Gaussian, Box, Custom: with alpha, the alpha byte a' = round(A' / 255) and
// c' = round(255 P' / A') (0 where a' is 0); without, the planes are the output.
inline ImageU8 compose_filtered_alpha(const Plane& p, int channels) {
    ImageU8 out(p.w, p.h, channels);
    const bool alpha = has_alpha(channels);
    const int colours = alpha ? channels - 1 : channels;
    for (int y = 0; y < p.h; ++y)
        for (int x = 0; x < p.w; ++x) {
            for (int c = 0; c < colours; ++c) {
                int v = p.at(x, y, c);
                if (alpha) v = (p.at(x, y, colours) + 127) / 255 == 0 ? 0 : unpremultiply_ref(v, p.at(x, y, colours));
                out.at(x, y, c) = static_cast<std::uint8_t>(v);
            }
            if (alpha) out.at(x, y, colours) = static_cast<std::uint8_t>((p.at(x, y, colours) + 127) / 255);
        }
    return out;
}

// Unsharp, Edges: `p` holds filtered colour planes; the original alpha is
// copied and divides them: c' = round(P' / a).
inline ImageU8 compose_kept_alpha(const Plane& p, const ImageU8& src, int out_channels) {
    ImageU8 out(p.w, p.h, out_channels);
    const bool alpha = has_alpha(src.channels());
    for (int y = 0; y < p.h; ++y)
        for (int x = 0; x < p.w; ++x) {
            const int a = alpha ? src.at(x, y, src.channels() - 1) : 255;
            const int colours = alpha ? out_channels - 1 : out_channels;
            for (int c = 0; c < colours; ++c)
                out.at(x, y, c) = static_cast<std::uint8_t>(alpha ? unpremultiply_ref(p.at(x, y, c), 255 * a) : p.at(x, y, c));
            if (alpha) out.at(x, y, out_channels - 1) = static_cast<std::uint8_t>(a);
        }
    return out;
}

// Gaussian by the contract: H = (sum t s + 256) >> 9 along rows, then
// out = (sum t H + 16384) >> 15 along columns (wide: both (sum + 2048) >> 12),
// with rows outside the image taken as H of the row the border names (or of
// a constant row).
inline Plane ref_gaussian_plane(const Source& s, const std::vector<std::int32_t>& t) {
    const int r = static_cast<int>(t.size() / 2), w = s.w(), h = s.h(), C = s.lanes();
    const bool wide = s.alpha();
    auto h_round = [&](long long sum) { return wide ? (sum + 2048) >> 12 : (sum + 256) >> 9; };
    auto v_round = [&](long long sum) { return wide ? (sum + 2048) >> 12 : (sum + 16384) >> 15; };
    Plane hp(w, h, C);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                long long sum = 0;
                for (int i = 0; i <= 2 * r; ++i) sum += static_cast<long long>(t[i]) * s.at(x + i - r, y, c);
                hp.at(x, y, c) = static_cast<int>(h_round(sum));
            }
    Plane out(w, h, C);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                long long sum = 0;
                for (int j = 0; j <= 2 * r; ++j) {
                    const int my = fold(y + j - r, h, s.border.mode);
                    long long hv;
                    if (my >= 0) {
                        hv = hp.at(x, my, c);
                    } else {  // a whole row of the constant, through the horizontal pass
                        long long row = 0;
                        for (int i = 0; i <= 2 * r; ++i) row += static_cast<long long>(t[i]) * s.at(-1, -1, c);
                        hv = h_round(row);
                    }
                    sum += t[j] * hv;
                }
                out.at(x, y, c) = static_cast<int>(v_round(sum));
            }
    return out;
}

// Box by brute force: the (2R+1)^2 window sum, rounded half up.
inline Plane ref_box_plane(const Source& s, int radius) {
    const int w = s.w(), h = s.h(), C = s.lanes();
    const long long n = static_cast<long long>(2 * radius + 1) * (2 * radius + 1);
    Plane out(w, h, C);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                long long sum = 0;
                for (int dy = -radius; dy <= radius; ++dy)
                    for (int dx = -radius; dx <= radius; ++dx) sum += s.at(x + dx, y + dy, c);
                out.at(x, y, c) = static_cast<int>((2 * sum + n) / (2 * n));  // floor(S/n + 1/2)
            }
    return out;
}

// Custom kernel by direct correlation in double (exact for the dyadic
// kernels used here), or true convolution: flip = rotate 180 degrees. A wide
// lane adds the offset on its own scale (255 * offset) and clips at 65025.
inline Plane ref_custom_plane(const Source& s, int kw, int kh, const std::vector<double>& k, double scale, double offset,
                       bool convolve) {
    const int w = s.w(), h = s.h(), C = s.lanes(), ax = kw / 2, ay = kh / 2;
    Plane out(w, h, C);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                double sum = 0;
                for (int j = 0; j < kh; ++j)
                    for (int i = 0; i < kw; ++i) {
                        const double kv = k[static_cast<std::size_t>(j) * kw + i];
                        sum += convolve ? kv * s.at(x - (i - ax), y - (j - ay), c)
                                        : kv * s.at(x + i - ax, y + j - ay, c);
                    }
                const double top = s.top();
                const double v = std::round(sum / scale + (top == 255 ? offset : 255.0 * offset));  // half away from zero
                out.at(x, y, c) = static_cast<int>(std::clamp(v, 0.0, top));
            }
    return out;
}

inline int luma(int r, int g, int b) { return (77 * r + 150 * g + 29 * b + 128) >> 8; }

// Edges on the (premultiplied) colour planes, or on their luma.
inline Plane ref_edges_plane(const Source& s, EdgeOperator op, bool gray) {
    const int w = s.w(), h = s.h();
    const int colours = s.colours();
    const int planes = gray ? 1 : colours;
    const long long top = s.top();
    auto sample = [&](int x, int y, int c) {
        if (!gray || colours == 1) return s.at(x, y, c);
        return luma(s.at(x, y, 0), s.at(x, y, 1), s.at(x, y, 2));
    };
    const int a = op == EdgeOperator::Scharr ? 3 : 1, b = op == EdgeOperator::Scharr ? 10 : 2;
    const int kx[3][3] = {{-a, 0, a}, {-b, 0, b}, {-a, 0, a}};
    const int lap[3][3] = {{0, 1, 0}, {1, -4, 1}, {0, 1, 0}};
    Plane out(w, h, planes);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < planes; ++c) {
                long long gx = 0, gy = 0, l = 0;
                for (int j = 0; j < 3; ++j)
                    for (int i = 0; i < 3; ++i) {
                        const int v = sample(x + i - 1, y + j - 1, c);
                        gx += kx[j][i] * v;
                        gy += kx[i][j] * v;  // the transpose
                        l += lap[j][i] * v;
                    }
                long long o;
                if (op == EdgeOperator::Laplacian) {
                    o = std::min<long long>(top, l < 0 ? -l : l);
                } else {
                    const double d = op == EdgeOperator::Scharr ? 16.0 : 4.0;
                    o = std::min<long long>(top, static_cast<long long>(std::floor(std::sqrt(double(gx * gx + gy * gy)) / d + 0.5)));
                }
                out.at(x, y, c) = static_cast<int>(o);
            }
    return out;
}

// ---------------------------------------------------------------------------
// Whole-filter references
// ---------------------------------------------------------------------------

inline ImageU8 ref_gaussian(const ImageU8& src, const FilterPlan& p) {
    return compose_filtered_alpha(ref_gaussian_plane(Source{src, p.border}, p.taps), src.channels());
}

inline ImageU8 ref_box(const ImageU8& src, const FilterPlan& p) {
    return compose_filtered_alpha(ref_box_plane(Source{src, p.border}, p.radius), src.channels());
}

// The threshold compares 2|d| with ceil(T * 255) levels, scaled by 255 in
// the wide domain.
inline ImageU8 ref_unsharp(const ImageU8& src, const FilterPlan& p) {
    Source s{src, p.border, false};
    Plane blur = ref_gaussian_plane(s, p.taps);
    Plane out(src.width(), src.height(), s.lanes());
    for (int y = 0; y < src.height(); ++y)
        for (int x = 0; x < src.width(); ++x)
            for (int c = 0; c < s.lanes(); ++c) {
                const long long top = s.top(), scale = top / 255;
                const long long v = s.at(x, y, c), d = v - blur.at(x, y, c);
                long long o = v;
                if (2.0 * static_cast<double>(std::abs(d)) >= std::ceil(p.threshold * 255.0) * static_cast<double>(scale))
                    o = std::clamp<long long>(v + static_cast<long long>(std::floor((p.amount_q8 * d + 128) / 256.0)), 0, top);
                out.at(x, y, c) = static_cast<int>(o);
            }
    return compose_kept_alpha(out, src, src.channels());
}

inline ImageU8 ref_edges(const ImageU8& src, const FilterPlan& p) {
    return compose_kept_alpha(ref_edges_plane(Source{src, p.border, false}, p.edge_op, p.edges_gray), src,
                              p.output_channels(src.channels()));
}

inline ImageU8 ref_custom(const ImageU8& src, const KernelMatrix& k, double scale, double offset, bool flip, Border b) {
    return compose_filtered_alpha(ref_custom_plane(Source{src, b}, k.width, k.height, k.values, scale, offset, flip),
                                  src.channels());
}

// The custom kernel's contract per pixel from the plan itself (its integer
// coefficients and anchors): S = sum coeffs[j * kw + i] * s(x + i - ax,
// y + j - ay) in 64 bits, then custom_value with the lane's offset and top
// (scaled by 255 in the wide domain); alpha composed as the other references.
inline ImageU8 ref_custom_plan(const ImageU8& src, const FilterPlan& p) {
    const Source s{src, p.border};
    Plane out(src.width(), src.height(), s.lanes());
    const double denominator = std::ldexp(p.scale, p.frac_bits);
    const int top = s.top();
    const double offset = top == 255 ? p.offset : 255.0 * p.offset;
    for (int y = 0; y < src.height(); ++y)
        for (int x = 0; x < src.width(); ++x)
            for (int c = 0; c < s.lanes(); ++c) {
                long long sum = 0;
                for (int j = 0; j < p.kernel_height; ++j)
                    for (int i = 0; i < p.kernel_width; ++i)
                        sum += static_cast<long long>(p.coeffs[static_cast<std::size_t>(j) * p.kernel_width + i]) *
                               s.at(x + i - p.anchor_x, y + j - p.anchor_y, c);
                out.at(x, y, c) = custom_value(static_cast<double>(sum), denominator, offset, top);
            }
    return compose_filtered_alpha(out, src.channels());
}

// A float64 Gaussian as a textbook writes it: weights exp(-i^2 / 2 sigma^2)
// normalised, two passes, rounded once at the end. Images without alpha.
inline ImageU8 textbook_gaussian(const ImageU8& src, double sigma, int r, Border b) {
    std::vector<double> wt(static_cast<std::size_t>(2 * r + 1));
    double total = 0;
    for (int i = -r; i <= r; ++i) total += wt[static_cast<std::size_t>(i + r)] = std::exp(-i * i / (2 * sigma * sigma));
    for (double& v : wt) v /= total;
    const int w = src.width(), h = src.height(), C = src.channels();
    Source s{src, b};
    std::vector<double> mid(static_cast<std::size_t>(w) * h * C);
    auto m = [&](int x, int y, int c) -> double& { return mid[(static_cast<std::size_t>(y) * w + x) * C + c]; };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                double sum = 0;
                for (int i = -r; i <= r; ++i) sum += wt[static_cast<std::size_t>(i + r)] * s.at(x + i, y, c);
                m(x, y, c) = sum;
            }
    ImageU8 out(w, h, C);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                double sum = 0;
                for (int j = -r; j <= r; ++j) {
                    const int my = fold(y + j, h, b.mode);
                    sum += wt[static_cast<std::size_t>(j + r)] * (my < 0 ? double(b.value) : m(x, my, c));
                }
                out.at(x, y, c) = static_cast<std::uint8_t>(std::clamp(std::round(sum), 0.0, 255.0));
            }
    return out;
}

inline int max_abs_diff(const ImageU8& a, const ImageU8& b) {
    REQUIRE(a.size_bytes() == b.size_bytes());
    int m = 0;
    for (std::size_t i = 0; i < a.size_bytes(); ++i) m = std::max(m, std::abs(int(a.data()[i]) - int(b.data()[i])));
    return m;
}

// Small sizes that stress the borders: single pixels, single rows and
// columns, primes, all smaller than the larger radii used.
const std::vector<std::pair<int, int>> kSmallSizes = {{1, 1}, {1, 9}, {9, 1}, {2, 3}, {7, 5}, {13, 11}};

using test::matrix;

using test::test_image;

}  // namespace imgpar::test
