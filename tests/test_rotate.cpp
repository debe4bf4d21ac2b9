// Rotation by any angle on the CPU against its stated contract: the size
// rule, the exact turns at right angles, a float64 bilinear, constant images,
// the Catmull-Rom weights, premultiplied colour, and every pixel of the fast
// paths (outside, inside) against the checked per-pixel arithmetic.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <optional>

#include "src/error.hpp"
#include "src/ops/geometry.hpp"
#include "src/ops/rotate.hpp"
#include "tests/support/operation_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

TEST_CASE("rotate: the output size is the ceiling of the rotated box, whole sides kept whole") {
    int w = 0, h = 0;
    rotated_size(30, 451, 300, w, h);  // 451 cos 30 + 300 sin 30 = 540.58; 451 sin 30 + 300 cos 30 = 485.31
    CHECK(w == 541);
    CHECK(h == 486);
    rotated_size(45, 100, 100, w, h);  // 141.42
    CHECK(w == 142);
    CHECK(h == 142);
    rotated_size(90, 37, 11, w, h);
    CHECK(w == 11);
    CHECK(h == 37);
    rotated_size(0, 37, 11, w, h);
    CHECK(w == 37);
    CHECK(h == 11);
    rotated_size(-30, 451, 300, w, h);
    CHECK(w == 541);
    CHECK(h == 486);
    rotated_size(1e-9, 1, 1, w, h);
    CHECK(w == 1);
    CHECK(h == 1);
    for (double a : {1.0, 17.5, 45.0, 89.0, 123.0, 200.0, 333.3}) {
        rotated_size(a, 64, 40, w, h);
        const double t = a * 3.14159265358979323846 / 180.0;
        CHECK(w == static_cast<int>(std::ceil(64 * std::fabs(std::cos(t)) + 40 * std::fabs(std::sin(t)) - 1e-6)));
        CHECK(h == static_cast<int>(std::ceil(64 * std::fabs(std::sin(t)) + 40 * std::fabs(std::cos(t)) - 1e-6)));
    }
    const auto job = test::image_job("rotate", {{"angle", "30"}});
    CHECK(job->output_shape({451, 300, 4, SampleType::U8}) == ImageShape{541, 486, 4, SampleType::U8});
}

TEST_CASE("rotate: 0, 90, 180 and 270 degrees through the general path equal the exact turns") {
    for (const auto& [w, h] : test::awkward_sizes())
        for (int c = 1; c <= 4; ++c)
            for (Interpolation in : {Interpolation::Bilinear, Interpolation::Bicubic}) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                ImageU8 a = test::layout_image(w, h, c, static_cast<unsigned>(w * h + c));
                if (has_alpha(c))  // the general path gives a transparent pixel colour 0
                    for (int y = 0; y < h; ++y)
                        for (int x = 0; x < w; ++x)
                            if (a.at(x, y, c - 1) == 0)
                                for (int k = 0; k < c - 1; ++k) a.at(x, y, k) = 0;
                const std::pair<double, Turn> turns[] = {
                    {0, Turn::None}, {90, Turn::Rotate90}, {180, Turn::Rotate180}, {270, Turn::Rotate270}, {-90, Turn::Rotate270}};
                for (const auto& [deg, t] : turns) {
                    CAPTURE(deg);
                    RotateSpec s;
                    s.degrees = deg;
                    s.interpolation = in;
                    s.background = Rgba{9, 99, 199, 255};  // must not show anywhere
                    IMGPAR_CHECK_IMAGES_EQUAL(cpu::turn(a.view(), t), cpu::rotate(a.view(), s));
                }
            }
}

TEST_CASE("rotate: a constant image stays constant wherever every tap lies inside it, bilinear and bicubic") {
    for (int c = 1; c <= 4; ++c)
        for (Interpolation in : {Interpolation::Bilinear, Interpolation::Bicubic})
            for (double deg : {45.0, 30.0, -17.5, 123.0}) {
                CAPTURE(c);
                CAPTURE(deg);
                const ImageU8 a = test::constant_image(57, 41, c, 0);
                ImageU8 k = ImageU8::copy_of(a.view());
                const std::uint8_t value[4] = {200, 37, 180, 90};
                for (int y = 0; y < 41; ++y)
                    for (int x = 0; x < 57; ++x)
                        for (int ch = 0; ch < c; ++ch)
                            k.at(x, y, ch) = has_alpha(c) && ch == c - 1 ? 90 : value[ch];
                RotateSpec s;
                s.degrees = deg;
                s.interpolation = in;
                const ImageU8 r = cpu::rotate(k.view(), s);
                const RotateMap m = rotate_map(s, 57, 41, c);
                const int reach = in == Interpolation::Bicubic ? 1 : 0;
                int inside = 0;
                for (int y = 0; y < r.height(); ++y)
                    for (int x = 0; x < r.width(); ++x) {
                        int ix, fx, iy, fy;
                        rotate_position(m, x, y, ix, fx, iy, fy);
                        if (ix - reach < 0 || iy - reach < 0 || ix + 1 + reach >= 57 || iy + 1 + reach >= 41) continue;
                        ++inside;
                        for (int ch = 0; ch < c; ++ch) REQUIRE(r.at(x, y, ch) == k.at(0, 0, ch));
                    }
                CHECK(inside > 57 * 41 / 2);
            }
}

TEST_CASE("rotate: bilinear stays within one level of a float64 evaluation of the stated mapping") {
    const ImageU8 a = test::photo_like_image(61, 43, 3, 5);
    for (double deg : {30.0, -17.5, 45.0, 200.0}) {
        CAPTURE(deg);
        RotateSpec s;
        s.degrees = deg;
        const ImageU8 r = cpu::rotate(a.view(), s);
        const double t = reduced_degrees(deg) * 3.14159265358979323846 / 180.0, co = std::cos(t), si = std::sin(t);
        int worst = 0;
        for (int y = 0; y < r.height(); ++y)
            for (int x = 0; x < r.width(); ++x) {
                const double dx = x + 0.5 - r.width() / 2.0, dy = y + 0.5 - r.height() / 2.0;
                const double sx = co * dx + si * dy + (a.width() - 1) / 2.0, sy = -si * dx + co * dy + (a.height() - 1) / 2.0;
                const int x0 = static_cast<int>(std::floor(sx)), y0 = static_cast<int>(std::floor(sy));
                const double fx = sx - x0, fy = sy - y0;
                for (int c = 0; c < 3; ++c) {
                    const auto at = [&](int xx, int yy) -> double {
                        return xx < 0 || yy < 0 || xx >= a.width() || yy >= a.height() ? 0.0 : a.at(xx, yy, c);
                    };
                    const double v = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
                                     fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
                    worst = std::max(worst, std::abs(static_cast<int>(std::lround(v)) - r.at(x, y, c)));
                }
            }
        CHECK(worst <= 1);
    }
}

TEST_CASE("rotate: Catmull-Rom weights sum to 256 and follow the cubic; bilinear's are linear") {
    for (int f = 0; f < 256; ++f) {
        int w[4];
        interpolation_weights(4, f, w);
        CHECK(w[0] + w[1] + w[2] + w[3] == 256);
        const double t = f / 256.0;
        const double e[4] = {(-t * t * t + 2 * t * t - t) / 2, (3 * t * t * t - 5 * t * t + 2) / 2,
                             (-3 * t * t * t + 4 * t * t + t) / 2, (t * t * t - t * t) / 2};
        for (int i = 0; i < 4; ++i) CHECK(std::fabs(w[i] - 256 * e[i]) <= 1.5);
        interpolation_weights(2, f, w);
        CHECK(w[0] == 256 - f);
        CHECK(w[1] == f);
    }
    int w[4];
    interpolation_weights(4, 0, w);
    CHECK(w[0] == 0);
    CHECK(w[1] == 256);
    CHECK(w[2] == 0);
    CHECK(w[3] == 0);
}

TEST_CASE("rotate: colour is premultiplied (no fringe from transparent pixels), corners take the background") {
    // Opaque red on the left, transparent black on the right.
    ImageU8 a(40, 30, 4);
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x)
            if (x < 20) {
                a.at(x, y, 0) = 255;
                a.at(x, y, 3) = 255;
            }
    for (Interpolation in : {Interpolation::Bilinear, Interpolation::Bicubic}) {
        RotateSpec s;
        s.degrees = 33;
        s.interpolation = in;
        const ImageU8 r = cpu::rotate(a.view(), s);
        int seen = 0;
        for (int y = 0; y < r.height(); ++y)
            for (int x = 0; x < r.width(); ++x) {
                if (r.at(x, y, 3) == 0) {
                    CHECK(r.at(x, y, 0) == 0);
                    continue;
                }
                ++seen;
                REQUIRE(r.at(x, y, 0) == 255);
                REQUIRE(r.at(x, y, 1) == 0);
                REQUIRE(r.at(x, y, 2) == 0);
            }
        CHECK(seen > 500);
        CHECK(r.at(0, 0, 3) == 0);  // the default background is transparent
    }
    // Without alpha the corners are black, or --background (gray: its luma).
    const ImageU8 g = test::constant_image(30, 20, 1, 200);
    RotateSpec s;
    s.degrees = 45;
    CHECK(cpu::rotate(g.view(), s).at(0, 0, 0) == 0);
    s.background = Rgba{255, 0, 0, 255};
    CHECK(cpu::rotate(g.view(), s).at(0, 0, 0) == 77);
    const ImageU8 rgb = test::constant_image(30, 20, 3, 200);
    const ImageU8 r = cpu::rotate(rgb.view(), s);
    CHECK(r.at(0, 0, 0) == 255);
    CHECK(r.at(0, 0, 1) == 0);
    CHECK(r.at(r.width() / 2, r.height() / 2, 1) == 200);
}

namespace {

// rotate_pixel (the checked reference arithmetic) at one output pixel.
void reference_pixel(const RotateMap& m, const ImageU8& img, int x, int y, std::uint8_t* out) {
    const auto& v = img.view();
    with_rotate_layout(img.channels(), m.taps, [&](auto c, auto t) { rotate_pixel<c, t>(m, v.data, v.stride, x, y, out); });
}

}  // namespace

TEST_CASE("rotate: every pixel equals the checked per-pixel arithmetic; the outside pixel is what all-outside taps give") {
    // cpu::rotate and the GPU write m.outside where every tap lies outside
    // and read inside pixels without bounds checks: both must be rotate_pixel.
    const std::optional<Rgba> fills[] = {std::nullopt, Rgba{250, 128, 3, 200}, Rgba{9, 200, 77, 0}, Rgba{255, 255, 255, 255}};
    for (int c = 1; c <= 4; ++c)
        for (Interpolation in : {Interpolation::Bilinear, Interpolation::Bicubic})
            for (const auto& fill : fills) {
                CAPTURE(c);
                CAPTURE(interpolation_name(in));
                RotateSpec s;
                s.degrees = 33.0;
                s.interpolation = in;
                s.background = fill;
                const ImageU8 a = test::photo_like_image(23, 17, c, 3);
                const ImageU8 r = cpu::rotate(a.view(), s);
                const RotateMap m = rotate_map(s, 23, 17, c);
                const int reach = in == Interpolation::Bicubic ? 1 : 0, taps = m.taps;
                int outside = 0;
                for (int y = 0; y < r.height(); ++y)
                    for (int x = 0; x < r.width(); ++x) {
                        std::uint8_t want[4];
                        reference_pixel(m, a, x, y, want);
                        for (int ch = 0; ch < c; ++ch) REQUIRE(r.at(x, y, ch) == want[ch]);
                        int ix, fx, iy, fy;
                        rotate_position(m, x, y, ix, fx, iy, fy);
                        const int x0 = ix - reach, y0 = iy - reach;
                        if (!(x0 + taps - 1 < 0 || x0 >= 23 || y0 + taps - 1 < 0 || y0 >= 17)) continue;
                        ++outside;
                        for (int ch = 0; ch < c; ++ch) REQUIRE(want[ch] == m.outside[ch]);
                    }
                CHECK(outside > 20);
            }
}

TEST_CASE("rotate: images with a side above 2^24 are refused for angles off the right angles; bad angles too") {
    RotateSpec s;
    s.degrees = 10;
    CHECK_THROWS_WITH_AS(rotate_map(s, kMaxRotateSide + 1, 1, 1), doctest::Contains("too large"), Error);
    CHECK_NOTHROW(rotate_map(s, 1000, 1000, 1));
    const Operation& rotate = *find_operation("rotate");
    CHECK_THROWS_WITH_AS(rotate.make_image_job(rotate.values()), doctest::Contains("--angle"), Error);
    CHECK_THROWS_WITH_AS(rotate.make_image_job(rotate.values({{"angle", "30"}, {"interpolation", "cubic"}})),
                         doctest::Contains("--interpolation"), Error);
    CHECK_THROWS_WITH_AS(rotate.make_image_job(rotate.values({{"angle", "30"}, {"background", "purple"}})),
                         doctest::Contains("--background"), Error);
    ParamValues v = rotate.values();
    rotate.extra.apply("-45", v);
    CHECK(v.real("angle") == -45);
    CHECK_THROWS_AS(rotate.extra.apply("45", v), Error);  // given twice
    const auto exact = rotate.make_image_job(rotate.values({{"angle", "-90"}}));
    CHECK(exact->output_shape({10, 3, 1, SampleType::U8}) == ImageShape{3, 10, 1, SampleType::U8});
    CHECK(exact->details().str().find("\"exact\":true") != std::string::npos);
}
