// resize (src/ops/resize.hpp) against references written here, independently
// of its tables: area as the exact rational box mean, nearest as numpy
// indexing, the filters against a float64 evaluation of the same kernels;
// identity, alpha, the tables' invariants, and the sizes a geometry gives.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "src/error.hpp"
#include "src/ops/resize.hpp"
#include "src/ops/resize_ops.hpp"
#include "src/ops/simd/targets.hpp"
#include "tests/support/resize_reference.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

ImageU8 resized(ResizeFilter f, const ImageU8& src, int w, int h) {
    const ResizePlan plan = resize_plan(f, src.width(), src.height(), {w, h, 0, 0, w, h});
    ImageU8 out(w, h, src.channels());
    cpu::resize(plan, src.view(), out.view());
    return out;
}

// The filters in float64 (tests/support/resize_reference.hpp), channels
// interleaved as the image's samples.
std::vector<double> float_reference(ResizeFilter f, const ImageU8& src, int w, int h) {
    const int C = src.channels();
    std::vector<double> out(static_cast<std::size_t>(h) * w * C);
    for (int c = 0; c < C; ++c) {
        const std::vector<double> plane = test::float_resize_pass(f, src.width(), src.height(), w, h,
                                                                  [&](int x, int y) { return src.at(x, y, c); });
        for (std::size_t i = 0; i < plane.size(); ++i) out[i * C + c] = plane[i];
    }
    return out;
}

}  // namespace

TEST_CASE("resize area: the exact box mean rounded half up, at integer and other factors, every layout") {
    const std::pair<int, int> sizes[] = {{6, 4}, {7, 5}, {3, 3}, {13, 1}, {1, 9}, {10, 4}, {21, 11}};
    for (int c : {1, 3}) {
        const ImageU8 src = test::random_image(42, 35, c, 7 + c);
        for (const auto& [w, h] : sizes) {
            CAPTURE(c);
            CAPTURE(w);
            CAPTURE(h);
            const ImageU8 got = resized(ResizeFilter::Area, src, w, h);
            int bad = 0;
            for (int k = 0; k < h; ++k)
                for (int j = 0; j < w; ++j)
                    for (int ch = 0; ch < c; ++ch) bad += got.at(j, k, ch) != test::area_box_mean(src, w, h, j, k, ch);
            CHECK(bad == 0);
        }
    }
    // At integer factors: the plain mean of each block, halves up.
    ImageU8 two(4, 2, 1);
    const std::uint8_t v[] = {0, 1, 10, 11, 0, 0, 10, 10};
    std::copy(v, v + 8, two.data());
    const ImageU8 half = resized(ResizeFilter::Area, two, 2, 1);
    CHECK(half.at(0, 0, 0) == 0);   // 1/4 -> 0
    CHECK(half.at(1, 0, 0) == 10);  // (10 + 11 + 10 + 10) / 4 = 10.25
    ImageU8 up(2, 2, 1);
    const std::uint8_t u[] = {1, 2, 3, 4};
    std::copy(u, u + 4, up.data());
    CHECK(resized(ResizeFilter::Area, up, 1, 1).at(0, 0, 0) == 3);  // 10 / 4 = 2.5 rounds up
}

TEST_CASE("resize nearest: numpy indexing img[(2j+1)*n // (2m)], and copies every channel as stored") {
    const ImageU8 src = test::alpha_image(29, 17, 4, 3);
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{7, 5}, {58, 51}, {29, 17}, {1, 1}, {100, 3}})
        CHECK(test::nearest_mismatches(src, resized(ResizeFilter::Nearest, src, w, h)) == 0);
}

TEST_CASE("resize filters: within one level of a float64 evaluation on at least 99.5% of samples, factors 1/37 to 13") {
    const ImageU8 photo = test::photo_like_image(187, 133, 3, 11);
    const std::pair<int, int> sizes[] = {{5, 4}, {61, 43}, {93, 67}, {200, 140}, {561, 399}, {1300, 900}};
    for (ResizeFilter f : {ResizeFilter::Bilinear, ResizeFilter::Bicubic, ResizeFilter::Lanczos3})
        for (const auto& [w, h] : sizes) {
            CAPTURE(resize_filter_name(f));
            CAPTURE(w);
            const ImageU8 got = resized(f, photo, w, h);
            const std::vector<double> want = float_reference(f, photo, w, h);
            std::size_t near = 0, within2 = 0;
            for (std::size_t i = 0; i < want.size(); ++i) {
                const double d = std::fabs(got.data()[i] - std::clamp(std::round(want[i]), 0.0, 255.0));
                near += d <= 1;
                within2 += d <= 2;
            }
            CHECK(static_cast<double>(near) >= 0.995 * static_cast<double>(want.size()));
            CHECK(within2 == want.size());
        }
}

TEST_CASE("resize: the same size is a copy with every filter; the weights sum to one (a filter) or to n (area); starts never decrease") {
    const ImageU8 src = test::photo_like_image(31, 19, 4, 5);
    for (ResizeFilter f : {ResizeFilter::Auto, ResizeFilter::Nearest, ResizeFilter::Bilinear, ResizeFilter::Bicubic,
                           ResizeFilter::Lanczos3, ResizeFilter::Area}) {
        CAPTURE(resize_filter_name(f));
        IMGPAR_CHECK_IMAGES_EQUAL(src, resized(f, src, 31, 19));
    }
    for (ResizeFilter f : {ResizeFilter::Bilinear, ResizeFilter::Bicubic, ResizeFilter::Lanczos3, ResizeFilter::Area})
        for (const auto& [n, m] : std::vector<std::pair<int, int>>{{100, 37}, {37, 100}, {1000, 27}, {5, 65}, {1, 7}, {2, 50}, {37, 129}}) {
            const ResizeAxis a = resize_axis(f, n, m, 0, m);
            for (int k = 0; k < m; ++k) {
                long long sum = 0;
                for (int t = 0; t < a.taps; ++t) sum += a.weight[static_cast<std::size_t>(k) * a.taps + t];
                CHECK(sum == (f == ResizeFilter::Area ? n / std::gcd(n, m) : 1 << kResizeWeightBits));
                CHECK(sum == a.sum);
                CHECK(a.start[static_cast<std::size_t>(k)] >= 0);
                CHECK(a.start[static_cast<std::size_t>(k)] < n);
                if (k > 0) CHECK(a.start[static_cast<std::size_t>(k)] >= a.start[static_cast<std::size_t>(k) - 1]);
            }
        }
}

// A filter's table holds the input pixels inside its support, no more:
// Catmull-Rom reads 4 when enlarging, lanczos3 12 at a half and 24 at a
// quarter, bilinear 2 when enlarging; every output pixel's first and last
// taps inside the image weigh something where its window is whole.
TEST_CASE("resize: a filter's taps are the pixels inside its support, none outside") {
    struct Case {
        ResizeFilter f;
        int n, m, taps;
    } cases[] = {{ResizeFilter::Bicubic, 400, 600, 4}, {ResizeFilter::Bicubic, 97, 1261, 4},
                 {ResizeFilter::Lanczos3, 800, 400, 12}, {ResizeFilter::Lanczos3, 800, 200, 24},
                 {ResizeFilter::Bilinear, 100, 300, 2}, {ResizeFilter::Lanczos3, 100, 250, 6}};
    for (const Case& c : cases) {
        CAPTURE(resize_filter_name(c.f));
        CAPTURE(c.n);
        CAPTURE(c.m);
        const ResizeAxis a = resize_axis(c.f, c.n, c.m, 0, c.m);
        CHECK(a.taps == c.taps);
        int whole = 0;
        for (int k = 0; k < c.m; ++k) {
            const int start = a.start[static_cast<std::size_t>(k)];
            if (start == 0 || start + a.taps > c.n) continue;  // a window cut by the image's edge
            const std::int32_t* w = &a.weight[static_cast<std::size_t>(k) * a.taps];
            // The last tap may be 0 where this pixel's window is one shorter than the widest.
            CHECK((w[0] != 0 || w[1] != 0));
            ++whole;
        }
        CHECK(whole > c.m / 2);
    }
}

TEST_CASE("resize alpha: colour is resampled premultiplied; a constant colour stays that colour at any alpha") {
    ImageU8 src(40, 30, 4);
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x) {
            const bool opaque = (x / 5 + y / 5) % 2 == 0;
            src.at(x, y, 0) = opaque ? 200 : 0;  // transparent pixels store black
            src.at(x, y, 1) = opaque ? 100 : 0;
            src.at(x, y, 2) = opaque ? 50 : 0;
            src.at(x, y, 3) = opaque ? static_cast<std::uint8_t>(2 + x * 6) : 0;
        }
    for (ResizeFilter f : {ResizeFilter::Bilinear, ResizeFilter::Lanczos3, ResizeFilter::Area}) {
        const ImageU8 got = resized(f, src, 17, 13);
        int off = 0;
        for (int k = 0; k < 13; ++k)
            for (int j = 0; j < 17; ++j)
                if (got.at(j, k, 3) > 0)
                    off += std::abs(got.at(j, k, 0) - 200) > 1 || std::abs(got.at(j, k, 1) - 100) > 1 ||
                           std::abs(got.at(j, k, 2) - 50) > 1;
        CAPTURE(resize_filter_name(f));
        CHECK(off == 0);
    }
}

TEST_CASE("resize geometry: the sizes the forms give, rounded half up") {
    const auto size_of = [](const std::string& g, int w, int h) {
        const ResizeGeometry r = resize_geometry(parse_resize_geometry(g), w, h);
        return std::to_string(r.crop_width) + "x" + std::to_string(r.crop_height);
    };
    CHECK(size_of("50%", 451, 300) == "226x150");
    CHECK(size_of("50%x25%", 400, 300) == "200x75");
    CHECK(size_of("800x600", 1000, 1000) == "600x600");
    CHECK(size_of("800x600", 1600, 900) == "800x450");
    CHECK(size_of("800x600!", 10, 10) == "800x600");
    CHECK(size_of("800x600^", 1600, 900) == "1067x600");
    CHECK(size_of("800x", 1600, 900) == "800x450");
    CHECK(size_of("x300", 1600, 900) == "533x300");
    CHECK(size_of("800x600>", 640, 480) == "640x480");
    CHECK(size_of("800x600>", 1600, 900) == "800x450");
    CHECK(size_of("800x600<", 1600, 900) == "1600x900");
    CHECK(size_of("800x600<", 400, 200) == "800x400");
    CHECK(size_of("1%", 10, 10) == "1x1");
    CHECK(size_of("50", 200, 100) == "50x25");
    ResizeSpec fill;
    fill.mode = ResizeSpec::Mode::Fill;
    fill.width = 100;
    fill.height = 100;
    fill.gravity = Gravity::North;
    const ResizeGeometry g = resize_geometry(fill, 451, 300);
    CHECK(g.width == 150);
    CHECK(g.height == 100);
    CHECK(g.crop_width == 100);
    CHECK(g.x == 25);
    CHECK(g.y == 0);
    for (const char* bad : {"", "x", "50%%", "0x10", "10x0", "-5%", "800x600!!", "50%!", "axb", "800x600x2"})
        CHECK_THROWS_AS(parse_resize_geometry(bad), Error);
}

TEST_CASE("resize: the vectorised passes give the plain passes' bytes, under every SIMD target") {
    simd::for_each_simd_target([](const std::string& target) {
        int compared = 0;
        for (ResizeFilter f : {ResizeFilter::Auto, ResizeFilter::Bilinear, ResizeFilter::Bicubic, ResizeFilter::Lanczos3,
                               ResizeFilter::Area, ResizeFilter::Nearest})
            for (int c = 1; c <= 4; ++c)
                for (const auto& [iw, ih, ow, oh] : std::vector<std::array<int, 4>>{
                         {1, 1, 3, 2}, {37, 1, 13, 1}, {97, 61, 50, 31}, {61, 97, 129, 200}, {300, 41, 17, 40}, {1031, 33, 345, 11}}) {
                    const ImageU8 img = has_alpha(c) ? test::alpha_image(iw, ih, c, 5) : test::photo_like_image(iw, ih, c, 5);
                    const ResizePlan plan = resize_plan(f, iw, ih, {ow, oh, 0, 0, ow, oh});
                    ImageU8 fast(ow, oh, c), plain(ow, oh, c);
                    cpu::resize(plan, img.view(), fast.view());
                    cpu::resize_one_lane(plan, img.view(), plain.view());
                    CAPTURE(target);
                    CAPTURE(resize_filter_name(f));
                    CAPTURE(c);
                    CAPTURE(iw);
                    CAPTURE(ow);
                    IMGPAR_CHECK_IMAGES_EQUAL(plain, fast);
                    ++compared;
                }
        CHECK(compared == 144);
    });
}
