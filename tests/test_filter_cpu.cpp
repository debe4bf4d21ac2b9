// The CPU filters against references written here from the contract in
// src/ops/filter.hpp: brute force, one output sample at a time, with their
// own border folding, so a mistake in the optimised passes cannot hide.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/pixel_math.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// ---------------------------------------------------------------------------
// Reference building blocks
// ---------------------------------------------------------------------------

// Border folding done the slow way, one reflection or period at a time.
int fold(int i, int n, BorderMode mode) {
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

std::vector<Border> all_borders() {
    return {parse_border("replicate"), parse_border("reflect"), parse_border("reflect101"),
            parse_border("wrap"),      parse_border("constant"), parse_border("constant:200")};
}

// The samples a filter reads: premultiplied colour when the image has alpha,
// and outside the image the border rule (a constant border pixel has every
// channel equal to V, so its premultiplied colour is premultiply(V, V)).
struct Source {
    const ImageU8& img;
    Border border;
    int w() const { return img.width(); }
    int h() const { return img.height(); }
    int ch() const { return img.channels(); }
    bool alpha() const { return has_alpha(ch()); }
    bool colour(int c) const { return alpha() && c < ch() - 1; }
    int at(int x, int y, int c) const {
        const int mx = fold(x, w(), border.mode), my = fold(y, h(), border.mode);
        if (mx < 0 || my < 0) return colour(c) ? premultiply(border.value, border.value) : border.value;
        const int v = img.at(mx, my, c);
        return colour(c) ? premultiply(v, img.at(mx, my, ch() - 1)) : v;
    }
};

// Filtered samples in the working domain, one per (x, y, c).
struct Plane {
    int w = 0, h = 0, ch = 0;
    std::vector<int> v;
    Plane(int w_, int h_, int ch_) : w(w_), h(h_), ch(ch_), v(static_cast<std::size_t>(w_) * h_ * ch_) {}
    int& at(int x, int y, int c) { return v[(static_cast<std::size_t>(y) * w + x) * ch + c]; }
    int at(int x, int y, int c) const { return v[(static_cast<std::size_t>(y) * w + x) * ch + c]; }
};

// Gaussian, Box, Custom: colour and alpha were both filtered; c' = unpremultiply(p', a').
ImageU8 compose_filtered_alpha(const Plane& p) {
    ImageU8 out(p.w, p.h, p.ch);
    const bool alpha = has_alpha(p.ch);
    for (int y = 0; y < p.h; ++y)
        for (int x = 0; x < p.w; ++x)
            for (int c = 0; c < p.ch; ++c) {
                int v = p.at(x, y, c);
                if (alpha && c < p.ch - 1) v = unpremultiply(v, p.at(x, y, p.ch - 1));
                out.at(x, y, c) = static_cast<std::uint8_t>(v);
            }
    return out;
}

// Unsharp, Edges: `p` holds filtered colour planes (alpha plane, if any, is
// ignored); the original alpha is copied and used to unpremultiply.
ImageU8 compose_kept_alpha(const Plane& p, const ImageU8& src, int out_channels) {
    ImageU8 out(p.w, p.h, out_channels);
    const bool alpha = has_alpha(src.channels());
    for (int y = 0; y < p.h; ++y)
        for (int x = 0; x < p.w; ++x) {
            const int a = alpha ? src.at(x, y, src.channels() - 1) : 255;
            const int colours = alpha ? out_channels - 1 : out_channels;
            for (int c = 0; c < colours; ++c)
                out.at(x, y, c) = static_cast<std::uint8_t>(alpha ? unpremultiply(p.at(x, y, c), a) : p.at(x, y, c));
            if (alpha) out.at(x, y, out_channels - 1) = static_cast<std::uint8_t>(a);
        }
    return out;
}

// Gaussian by the contract: H = (sum t s + 128) >> 8 along rows, then
// out = (sum t H + 32768) >> 16 along columns, with rows outside the image
// taken as H of the row the border names (or of a constant row).
Plane ref_gaussian_plane(const Source& s, const std::vector<std::int32_t>& t) {
    const int r = static_cast<int>(t.size() / 2), w = s.w(), h = s.h(), C = s.ch();
    Plane hp(w, h, C);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                long long sum = 0;
                for (int i = 0; i <= 2 * r; ++i) sum += static_cast<long long>(t[i]) * s.at(x + i - r, y, c);
                hp.at(x, y, c) = static_cast<int>((sum + 256) >> 9);
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
                        hv = (row + 256) >> 9;
                    }
                    sum += t[j] * hv;
                }
                out.at(x, y, c) = static_cast<int>((sum + 16384) >> 15);
            }
    return out;
}

// Box by brute force: the (2R+1)^2 window sum, rounded half up.
Plane ref_box_plane(const Source& s, int radius) {
    const int w = s.w(), h = s.h(), C = s.ch();
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
// kernels used here), or true convolution: flip = rotate 180 degrees.
Plane ref_custom_plane(const Source& s, int kw, int kh, const std::vector<double>& k, double scale, double offset,
                       bool convolve) {
    const int w = s.w(), h = s.h(), C = s.ch(), ax = kw / 2, ay = kh / 2;
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
                const double v = std::round(sum / scale + offset);  // half away from zero
                out.at(x, y, c) = static_cast<int>(std::clamp(v, 0.0, 255.0));
            }
    return out;
}

int luma(int r, int g, int b) { return (77 * r + 150 * g + 29 * b + 128) >> 8; }

// Edges on the (premultiplied) colour planes, or on their luma.
Plane ref_edges_plane(const Source& s, EdgeOperator op, bool gray) {
    const int w = s.w(), h = s.h();
    const int colours = s.alpha() ? s.ch() - 1 : s.ch();
    const int planes = gray ? 1 : colours;
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
                    o = std::min<long long>(255, l < 0 ? -l : l);
                } else {
                    const double d = op == EdgeOperator::Scharr ? 16.0 : 4.0;
                    o = std::min<long long>(255, static_cast<long long>(std::floor(std::sqrt(double(gx * gx + gy * gy)) / d + 0.5)));
                }
                out.at(x, y, c) = static_cast<int>(o);
            }
    return out;
}

// ---------------------------------------------------------------------------
// Whole-filter references
// ---------------------------------------------------------------------------

ImageU8 ref_gaussian(const ImageU8& src, const FilterPlan& p) {
    return compose_filtered_alpha(ref_gaussian_plane(Source{src, p.border}, p.taps));
}

ImageU8 ref_box(const ImageU8& src, const FilterPlan& p) {
    return compose_filtered_alpha(ref_box_plane(Source{src, p.border}, p.radius));
}

ImageU8 ref_unsharp(const ImageU8& src, const FilterPlan& p) {
    Source s{src, p.border};
    Plane blur = ref_gaussian_plane(s, p.taps);
    Plane out(src.width(), src.height(), src.channels());
    for (int y = 0; y < src.height(); ++y)
        for (int x = 0; x < src.width(); ++x)
            for (int c = 0; c < src.channels(); ++c) {
                const int v = s.at(x, y, c), d = v - blur.at(x, y, c);
                int o = v;
                if (std::abs(d) >= p.threshold_level)
                    o = std::clamp(v + static_cast<int>(std::floor((p.amount_q8 * d + 128) / 256.0)), 0, 255);
                out.at(x, y, c) = o;
            }
    return compose_kept_alpha(out, src, src.channels());
}

ImageU8 ref_edges(const ImageU8& src, const FilterPlan& p) {
    return compose_kept_alpha(ref_edges_plane(Source{src, p.border}, p.edge_op, p.edges_gray), src,
                              p.output_channels(src.channels()));
}

ImageU8 ref_custom(const ImageU8& src, const KernelMatrix& k, double scale, double offset, bool flip, Border b) {
    return compose_filtered_alpha(ref_custom_plane(Source{src, b}, k.width, k.height, k.values, scale, offset, flip));
}

// A float64 Gaussian as a textbook writes it: weights exp(-i^2 / 2 sigma^2)
// normalised, two passes, rounded once at the end. Images without alpha.
ImageU8 textbook_gaussian(const ImageU8& src, double sigma, int r, Border b) {
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

int max_abs_diff(const ImageU8& a, const ImageU8& b) {
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

}  // namespace

// ---------------------------------------------------------------------------
// Gaussian
// ---------------------------------------------------------------------------

TEST_CASE("gaussian: exactly the contract's fixed-point passes, every border, channel count and small size") {
    for (double sigma : {0.6, 1.3, 4.0})  // radius 2, 4, 12: the last is larger than every image here
        for (Border b : all_borders())
            for (int ch = 1; ch <= 4; ++ch)
                for (auto [w, h] : kSmallSizes) {
                    FilterPlan p = make_gaussian(sigma, 0, b);
                    ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(w * 131 + h * 7 + ch));
                    INFO("sigma ", sigma, " border ", border_name(b), " channels ", ch, " size ", w, "x", h);
                    IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(src, p), cpu::apply_filter(p, src.view()));
                }
}

TEST_CASE("gaussian: exact on medium images and the largest radius") {
    ImageU8 photo = test::photo_like_image(67, 45, 3, 5);
    for (Border b : all_borders()) {
        FilterPlan p = make_gaussian(2.5, 0, b);
        IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(photo, p), cpu::apply_filter(p, photo.view()));
    }
    ImageU8 rgba = test::alpha_image(61, 37, 4, 9);
    FilterPlan p = make_gaussian(1.7, 0, parse_border("reflect101"));
    IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(rgba, p), cpu::apply_filter(p, rgba.view()));

    // Radius 150 on tiny images: everything folds many times.
    for (Border b : all_borders())
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {3, 2}, {1, 5}}) {
            FilterPlan big = make_gaussian(50.0, 0, b);
            REQUIRE(big.radius == 150);
            ImageU8 src = test::random_image(w, h, 2, 3);
            INFO("border ", border_name(b), " size ", w, "x", h);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(src, big), cpu::apply_filter(big, src.view()));
        }
    // A single pixel with a non-constant border blurs to itself.
    ImageU8 one = test::random_image(1, 1, 3, 8);
    for (Border b : all_borders()) {
        if (b.mode == BorderMode::Constant) continue;
        IMGPAR_CHECK_IMAGES_EQUAL(one, cpu::apply_filter(make_gaussian(50.0, 0, b), one.view()));
    }
}

TEST_CASE("gaussian: within one level of a float64 textbook Gaussian on photos") {
    const ImageU8 camera = test::load_sample("camera.png");
    const ImageU8 chelsea = test::load_sample("chelsea.png");
    REQUIRE(camera.channels() == 1);
    REQUIRE(chelsea.channels() == 3);
    for (const ImageU8* img : {&camera, &chelsea})
        for (double sigma : {0.8, 2.0, 5.0})
            for (const char* border : {"replicate", "reflect101"}) {
                FilterPlan p = make_gaussian(sigma, 0, parse_border(border));
                ImageU8 ours = cpu::apply_filter(p, img->view());
                ImageU8 ideal = textbook_gaussian(*img, sigma, p.radius, p.border);
                INFO("sigma ", sigma, " channels ", img->channels(), " border ", border);
                CHECK(max_abs_diff(ours, ideal) <= 1);
            }
    // Wide kernels on a photo-like image (also through a constant border).
    ImageU8 photo = test::photo_like_image(160, 120, 3, 2);
    for (const char* border : {"replicate", "constant:40"}) {
        FilterPlan p = make_gaussian(20.0, 0, parse_border(border));
        INFO("sigma 20, border ", border);
        CHECK(max_abs_diff(cpu::apply_filter(p, photo.view()), textbook_gaussian(photo, 20.0, p.radius, p.border)) <= 1);
    }
    // The comparison can fail: a blur with the wrong sigma is far away.
    FilterPlan wrong = make_gaussian(2.5, 6, Border{});
    CHECK(max_abs_diff(cpu::apply_filter(wrong, camera.view()), textbook_gaussian(camera, 2.0, 6, Border{})) > 1);
}

TEST_CASE("gaussian: exact on the awkward sizes and on a whole photo (several row chunks)") {
    const std::vector<Border> borders = all_borders();
    std::size_t k = 0;
    for (auto [w, h] : test::awkward_sizes())
        for (int ch = 1; ch <= 4; ++ch, ++k) {
            const Border b = borders[k % borders.size()];
            FilterPlan p = make_gaussian(2.0, 0, b);
            ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(k));
            INFO("border ", border_name(b), " channels ", ch, " size ", w, "x", h);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(src, p), cpu::apply_filter(p, src.view()));
        }
    const ImageU8 camera = test::load_sample("camera.png");
    for (const char* border : {"reflect", "constant:255"}) {
        FilterPlan p = make_gaussian(3.0, 0, parse_border(border));
        INFO("border ", border);
        IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(camera, p), cpu::apply_filter(p, camera.view()));
    }
}

// ---------------------------------------------------------------------------
// Box
// ---------------------------------------------------------------------------

TEST_CASE("box: equals a brute-force mean, rounded half up") {
    for (int radius : {1, 2, 7})
        for (Border b : all_borders())
            for (int ch = 1; ch <= 4; ++ch)
                for (auto [w, h] : kSmallSizes) {
                    FilterPlan p = make_box(radius, b);
                    ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(radius + w * 3 + h * 5 + ch));
                    INFO("radius ", radius, " border ", border_name(b), " channels ", ch, " size ", w, "x", h);
                    IMGPAR_CHECK_IMAGES_EQUAL(ref_box(src, p), cpu::apply_filter(p, src.view()));
                }
    ImageU8 photo = test::photo_like_image(53, 41, 3, 4);
    for (Border b : all_borders()) {
        FilterPlan p = make_box(4, b);
        IMGPAR_CHECK_IMAGES_EQUAL(ref_box(photo, p), cpu::apply_filter(p, photo.view()));
    }
}

TEST_CASE("box: exact on the awkward sizes and on a tall image (running sums restart per row chunk)") {
    const std::vector<Border> borders = all_borders();
    std::size_t k = 0;
    for (auto [w, h] : test::awkward_sizes())
        for (int ch = 1; ch <= 4; ++ch, ++k) {
            const Border b = borders[(k + 3) % borders.size()];
            FilterPlan p = make_box(3, b);
            ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(k));
            INFO("border ", border_name(b), " channels ", ch, " size ", w, "x", h);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_box(src, p), cpu::apply_filter(p, src.view()));
        }
    ImageU8 tall = test::photo_like_image(160, 600, 1, 8);
    for (int radius : {5, 12})
        for (const char* border : {"reflect101", "constant:30"}) {
            FilterPlan p = make_box(radius, parse_border(border));
            INFO("radius ", radius, " border ", border);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_box(tall, p), cpu::apply_filter(p, tall.view()));
        }
}

TEST_CASE("box: the largest radius folds correctly and costs nothing extra") {
    // With radius 1000 the window covers a tiny image hundreds of times; the
    // reference counts how often each pixel (and the constant) is read.
    for (Border b : all_borders())
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {3, 2}, {1, 7}, {5, 1}})
            for (int ch : {1, 4}) {
                const int R = 1000;
                ImageU8 src = test_image(w, h, ch, 11);
                Source s{src, b};
                auto counts = [&](int centre, int n) {
                    std::vector<long long> c(static_cast<std::size_t>(n) + 1, 0);  // last: the constant
                    for (int i = centre - R; i <= centre + R; ++i) {
                        int m = fold(i, n, b.mode);
                        ++c[m < 0 ? static_cast<std::size_t>(n) : static_cast<std::size_t>(m)];
                    }
                    return c;
                };
                Plane plane(w, h, ch);
                const long long n = 2001LL * 2001;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        auto cx = counts(x, w), cy = counts(y, h);
                        for (int c = 0; c < ch; ++c) {
                            long long sum = 0;
                            for (int my = 0; my <= h; ++my)
                                for (int mx = 0; mx <= w; ++mx) {
                                    const bool out = my == h || mx == w;
                                    sum += cx[static_cast<std::size_t>(mx)] * cy[static_cast<std::size_t>(my)] *
                                           (out ? s.at(-1, -1, c) : s.at(mx, my, c));
                                }
                            plane.at(x, y, c) = static_cast<int>((2 * sum + n) / (2 * n));
                        }
                    }
                INFO("border ", border_name(b), " size ", w, "x", h, " channels ", ch);
                IMGPAR_CHECK_IMAGES_EQUAL(compose_filtered_alpha(plane), cpu::apply_filter(make_box(R, b), src.view()));
            }
    // A radius of 1000 on a real image runs in about the time of radius 1.
    ImageU8 camera = test::load_sample("camera.png");
    ImageU8 big = cpu::apply_filter(make_box(1000, Border{}), camera.view());
    CHECK(big.width() == camera.width());
}

// ---------------------------------------------------------------------------
// Unsharp, edges, custom
// ---------------------------------------------------------------------------

TEST_CASE("unsharp: exactly the contract, every border and channel count") {
    struct P { double sigma, amount, threshold; };
    for (P prm : {P{1.0, 1.5, 0.0}, P{2.0, 0.7, 0.05}, P{0.8, 20.0, 0.0}, P{1.2, 0.0, 1.0}})
        for (Border b : all_borders())
            for (int ch = 1; ch <= 4; ++ch)
                for (auto [w, h] : kSmallSizes) {
                    FilterPlan p = make_unsharp(prm.sigma, 0, prm.amount, prm.threshold, b);
                    ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(w + h + ch));
                    INFO("sigma ", prm.sigma, " amount ", prm.amount, " threshold ", prm.threshold, " border ",
                         border_name(b), " channels ", ch, " size ", w, "x", h);
                    IMGPAR_CHECK_IMAGES_EQUAL(ref_unsharp(src, p), cpu::apply_filter(p, src.view()));
                }
    ImageU8 photo = test::photo_like_image(64, 48, 4, 6);
    FilterPlan p = make_unsharp(1.5, 0, 2.0, 0.01, Border{});
    ImageU8 out = cpu::apply_filter(p, photo.view());
    IMGPAR_CHECK_IMAGES_EQUAL(ref_unsharp(photo, p), out);
    for (int y = 0; y < 48; ++y)
        for (int x = 0; x < 64; ++x) REQUIRE(out.at(x, y, 3) == photo.at(x, y, 3));  // alpha unchanged
}

TEST_CASE("edges: sobel, scharr, laplacian, colour and gray, equal a direct 3x3 implementation") {
    for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian})
        for (bool gray : {false, true})
            for (Border b : all_borders())
                for (int ch = 1; ch <= 4; ++ch)
                    for (auto [w, h] : kSmallSizes) {
                        FilterPlan p = make_edges(op, gray, b);
                        ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(w * h + ch));
                        INFO(edge_operator_name(op), gray ? " gray" : "", " border ", border_name(b), " channels ",
                             ch, " size ", w, "x", h);
                        ImageU8 out = cpu::apply_filter(p, src.view());
                        CHECK(out.channels() == p.output_channels(ch));
                        IMGPAR_CHECK_IMAGES_EQUAL(ref_edges(src, p), out);
                    }
    // Real edges: strong responses that saturate, on a photo.
    ImageU8 camera = ImageU8::copy_of(test::load_sample("camera.png").view().sub(100, 100, 96, 80));
    for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian}) {
        FilterPlan p = make_edges(op, false, Border{});
        IMGPAR_CHECK_IMAGES_EQUAL(ref_edges(camera, p), cpu::apply_filter(p, camera.view()));
    }
    ImageU8 chelsea = ImageU8::copy_of(test::load_sample("chelsea.png").view().sub(150, 60, 70, 50));
    FilterPlan gray = make_edges(EdgeOperator::Sobel, true, parse_border("reflect"));
    IMGPAR_CHECK_IMAGES_EQUAL(ref_edges(chelsea, gray), cpu::apply_filter(gray, chelsea.view()));
}

TEST_CASE("custom: correlation, convolution, scale and offset equal a direct 2D implementation") {
    struct K {
        KernelMatrix m;
        CustomKernelOptions o;
        double scale;   // what the reference divides by
        double offset;
    };
    CustomKernelOptions none, norm, flip, scaled, shifted;
    norm.normalize = true;
    flip.flip = true;
    scaled.scale = 3.0;
    shifted.scale = -2.0;
    shifted.offset = 128.0;
    const std::vector<K> kernels = {
        {matrix(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1}), norm, 16, 0},
        {matrix(3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0}), none, 1, 0},                  // sharpen, clamps
        {matrix(3, 2, {1, 2, 3, -4, 5, -6}), flip, 1, 0},                             // even height, true convolution
        {matrix(5, 1, {0.0625, 0.25, 0.375, 0.25, 0.0625}), none, 1, 0},              // dyadic fractions
        {matrix(1, 5, {1, -2, 3, -2, 1}), scaled, 3, 0},                              // a column, thirds
        {matrix(3, 3, {1, 2, 0, -1, 3, 0, 0, 0, 4}), flip, 1, 0},                     // odd, true convolution
        {matrix(3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1}), shifted, -2, 128},            // negative scale + offset
        {matrix(2, 2, {0.5, -0.25, 0.125, 1}), flip, 1, 0},                           // even both ways, flipped
        {matrix(4, 3, {1, 0, 0, 2, 0, 3, 1, 0, 1, 0, 0, 4}), norm, 12, 0},            // asymmetric, even width
    };
    for (const K& k : kernels)
        for (Border b : all_borders())
            for (int ch = 1; ch <= 4; ++ch)
                for (auto [w, h] : kSmallSizes) {
                    FilterPlan p = make_custom(k.m, k.o, b);
                    REQUIRE(p.scale == k.scale);
                    ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(w * 7 + h + ch));
                    INFO("kernel ", k.m.width, "x", k.m.height, " border ", border_name(b), " channels ", ch,
                         " size ", w, "x", h);
                    // The even-sized flipped kernels are checked as correlation with
                    // the reversed kernel: the anchor stays at (w/2, h/2).
                    const bool odd = k.m.width % 2 == 1 && k.m.height % 2 == 1;
                    KernelMatrix used = k.m;
                    bool convolve = k.o.flip;
                    if (k.o.flip && !odd) {
                        std::reverse(used.values.begin(), used.values.end());
                        convolve = false;
                    }
                    IMGPAR_CHECK_IMAGES_EQUAL(ref_custom(src, used, k.scale, k.offset, convolve, b),
                                              cpu::apply_filter(p, src.view()));
                }
    // Flip changes the result of an asymmetric kernel.
    ImageU8 src = test::random_image(20, 10, 1, 2);
    FilterPlan corr = make_custom(matrix(3, 1, {1, 0, 0}), {}, Border{});
    FilterPlan conv = make_custom(matrix(3, 1, {1, 0, 0}), flip, Border{});
    ImageU8 a = cpu::apply_filter(corr, src.view()), c = cpu::apply_filter(conv, src.view());
    CHECK(a.at(5, 3, 0) == src.at(4, 3, 0));  // correlation reads the left neighbour
    CHECK(c.at(5, 3, 0) == src.at(6, 3, 0));  // convolution the right one
}

TEST_CASE("custom: a non-dyadic kernel is within one level of the real-valued one") {
    KernelMatrix k = matrix(3, 3, {0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1});
    ImageU8 photo = test::photo_like_image(50, 40, 3, 3);
    for (Border b : all_borders()) {
        FilterPlan p = make_custom(k, {}, b);
        CHECK(p.frac_bits == 12);
        CHECK(max_abs_diff(cpu::apply_filter(p, photo.view()), ref_custom(photo, k, 1.0, 0.0, false, b)) <= 1);
    }
    // A 63x63 kernel runs and matches on a small image.
    KernelMatrix big = matrix(63, 63, std::vector<double>(63 * 63, 1.0));
    CustomKernelOptions norm;
    norm.normalize = true;
    ImageU8 small = test::random_image(9, 70, 2, 1);
    FilterPlan p = make_custom(big, norm, parse_border("wrap"));
    IMGPAR_CHECK_IMAGES_EQUAL(ref_custom(small, big, 3969.0, 0.0, false, p.border), cpu::apply_filter(p, small.view()));
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

TEST_CASE("a constant image stays constant under blur, box, unsharp and normalised kernels") {
    CustomKernelOptions norm;
    norm.normalize = true;
    std::vector<FilterPlan> plans;
    auto add = [&](Border b) {
        plans.push_back(make_gaussian(0.5, 0, b));
        plans.push_back(make_gaussian(3.0, 0, b));
        plans.push_back(make_gaussian(50.0, 0, b));
        plans.push_back(make_box(1, b));
        plans.push_back(make_box(9, b));
        plans.push_back(make_unsharp(2.0, 0, 3.0, 0.0, b));
        plans.push_back(make_custom(matrix(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1}), norm, b));
        plans.push_back(make_custom(matrix(5, 2, {1, 3, 5, 3, 1, 2, 0, 7, 0, 2}), norm, b));
    };
    for (const char* border : {"replicate", "reflect", "reflect101", "wrap"}) add(parse_border(border));
    for (int v : {0, 1, 77, 128, 254, 255})
        for (int ch = 1; ch <= 4; ++ch)
            for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {13, 7}, {40, 3}}) {
                ImageU8 src = test::constant_image(w, h, ch, v);
                if (has_alpha(ch))
                    for (int y = 0; y < h; ++y)
                        for (int x = 0; x < w; ++x) src.at(x, y, ch - 1) = 255;  // opaque
                std::vector<FilterPlan> these = plans;
                if (!has_alpha(ch)) {  // a constant border of the same value is invisible too
                    Border same = parse_border("constant:" + std::to_string(v));
                    these.push_back(make_gaussian(2.0, 0, same));
                    these.push_back(make_box(4, same));
                    these.push_back(make_custom(matrix(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1}), norm, same));
                }
                for (const FilterPlan& p : these) {
                    INFO(p.describe(), " value ", v, " channels ", ch, " size ", w, "x", h);
                    IMGPAR_CHECK_IMAGES_EQUAL(src, cpu::apply_filter(p, src.view()));
                }
            }
    // ...and its edges are zero.
    ImageU8 flat = test::constant_image(9, 9, 3, 90);
    for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian})
        IMGPAR_CHECK_IMAGES_EQUAL(test::constant_image(9, 9, 3, 0), cpu::apply_filter(make_edges(op, false, Border{}), flat.view()));
}

TEST_CASE("alpha: an opaque white region next to transparent black stays white, with no dark halo") {
    CustomKernelOptions norm;
    norm.normalize = true;
    for (int ch : {2, 4}) {
        ImageU8 src(40, 30, ch);
        for (int y = 0; y < 30; ++y)
            for (int x = 0; x < 40; ++x) {
                const bool opaque = x < 20 && y < 20;  // white square; the rest is transparent black
                for (int c = 0; c < ch; ++c) src.at(x, y, c) = opaque ? 255 : 0;
            }
        for (const FilterPlan& p : {make_gaussian(3.0, 0, Border{}), make_box(3, Border{}),
                                    make_custom(matrix(5, 5, std::vector<double>(25, 1.0)), norm, Border{})}) {
            ImageU8 out = cpu::apply_filter(p, src.view());
            int partial = 0;
            for (int y = 0; y < 30; ++y)
                for (int x = 0; x < 40; ++x) {
                    const int a = out.at(x, y, ch - 1);
                    if (a > 0 && a < 255) ++partial;
                    for (int c = 0; c < ch - 1; ++c) {
                        INFO(p.describe(), " channels ", ch, " at ", x, ",", y, " alpha ", a);
                        REQUIRE(out.at(x, y, c) == (a > 0 ? 255 : 0));
                    }
                }
            CHECK(partial > 40);  // the edge really was blurred
        }
        // Filtering the colour without premultiplying would darken the edge:
        // the check above can fail.
        ImageU8 colour_only(40, 30, 1);
        for (int y = 0; y < 30; ++y)
            for (int x = 0; x < 40; ++x) colour_only.at(x, y, 0) = src.at(x, y, 0);
        ImageU8 naive = cpu::apply_filter(make_gaussian(3.0, 0, Border{}), colour_only.view());
        CHECK(naive.at(20, 10, 0) < 200);
    }
}

TEST_CASE("views: strided source and destination windows, in-place filtering") {
    ImageU8 canvas = test::photo_like_image(50, 40, 3, 12);
    ConstViewU8 window = canvas.view().sub(7, 5, 31, 23);
    ImageU8 packed = ImageU8::copy_of(window);
    for (const FilterPlan& p : {make_gaussian(1.5, 0, Border{}), make_box(2, parse_border("wrap")),
                                make_edges(EdgeOperator::Sobel, false, parse_border("constant:3")),
                                make_unsharp(1.0, 0, 1.0, 0.0, Border{})}) {
        ImageU8 expected = cpu::apply_filter(p, packed.view());
        ImageU8 target = test::constant_image(60, 50, 3, 9);
        cpu::apply_filter(p, window, target.view().sub(11, 13, 31, 23));
        for (int y = 0; y < 50; ++y)
            for (int x = 0; x < 60; ++x)
                for (int c = 0; c < 3; ++c) {
                    const bool inside = x >= 11 && x < 42 && y >= 13 && y < 36;
                    INFO(p.describe(), " at ", x, ",", y);
                    REQUIRE(target.at(x, y, c) == (inside ? expected.at(x - 11, y - 13, c) : 9));
                }
        // In place: the output overwrites its own source.
        ImageU8 inplace = ImageU8::copy_of(packed.view());
        cpu::apply_filter(p, inplace.view(), inplace.view());
        IMGPAR_CHECK_IMAGES_EQUAL(expected, inplace);
    }
}

TEST_CASE("shape and plan errors are usage errors") {
    ImageU8 src = test::random_image(8, 6, 3, 1);
    FilterPlan g = make_gaussian(1.0, 0, Border{});
    ImageU8 wrong_channels(8, 6, 1), wrong_size(8, 5, 3);
    for (ImageU8* dst : {&wrong_channels, &wrong_size}) {
        try {
            cpu::apply_filter(g, src.view(), dst->view());
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Usage);
            CHECK(std::string(e.what()).find("8x6 with 3 channel") != std::string::npos);
        }
    }
    // Gray edges of RGB write one channel, of RGBA two.
    ImageU8 rgb_out(8, 6, 3);
    CHECK_THROWS_AS(cpu::apply_filter(make_edges(EdgeOperator::Sobel, true, Border{}), src.view(), rgb_out.view()), Error);
    CHECK(cpu::apply_filter(make_edges(EdgeOperator::Sobel, true, Border{}), src.view()).channels() == 1);
    ImageU8 rgba = test::alpha_image(8, 6, 4, 1);
    CHECK(cpu::apply_filter(make_edges(EdgeOperator::Sobel, true, Border{}), rgba.view()).channels() == 2);

    FilterPlan bad = g;
    bad.taps[0] += 1;  // no longer sums to 4096
    CHECK_THROWS_AS(cpu::apply_filter(bad, src.view()), Error);
    FilterPlan short_taps = g;
    short_taps.taps.pop_back();
    CHECK_THROWS_AS(cpu::apply_filter(short_taps, src.view()), Error);
    FilterPlan c = make_custom(matrix(2, 1, {1, 1}), {}, Border{});
    c.coeffs[0] = 70000;
    CHECK_THROWS_AS(cpu::apply_filter(c, src.view()), Error);
}
