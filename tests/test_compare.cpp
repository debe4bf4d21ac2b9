// Image comparison on the CPU (src/ops/compare.hpp): the exact sums and the
// metrics derived from them against direct formulas written here, small
// cases computed by hand, every channel count, sub-views, sums past 32 bits,
// and the errors for images of different shapes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "src/error.hpp"
#include "src/ops/compare.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// The metrics straight from the definitions, one sample at a time.
struct Direct {
    int max_abs = 0;
    std::uint64_t differ = 0, pixels_differ = 0;
    double sum_abs = 0, sum_sq = 0;
};

Direct direct(ConstViewU8 a, ConstViewU8 b, int channel) {
    Direct d;
    for (int y = 0; y < a.height; ++y)
        for (int x = 0; x < a.width; ++x) {
            bool any = false;
            for (int c = 0; c < a.channels; ++c) {
                const int v = std::abs(static_cast<int>(a.pixel(x, y)[c]) - static_cast<int>(b.pixel(x, y)[c]));
                any = any || v != 0;
                if (channel >= 0 && c != channel) continue;
                d.max_abs = std::max(d.max_abs, v);
                d.differ += v != 0;
                d.sum_abs += v;
                d.sum_sq += static_cast<double>(v) * v;
            }
            d.pixels_differ += any;
        }
    return d;
}

void check_against_direct(const ImageU8& a, const ImageU8& b) {
    const DifferenceSums s = cpu::difference_sums(a.view(), b.view());
    REQUIRE(s.channels == a.channels());
    CHECK(s.pixels == a.pixel_count());
    for (int c = -1; c < a.channels(); ++c) {
        CAPTURE(c);
        const Direct d = direct(a.view(), b.view(), c);
        const DifferenceMetrics m = difference_metrics(s, c);
        const double n = static_cast<double>(a.pixel_count()) * (c < 0 ? a.channels() : 1);
        CHECK(m.samples == static_cast<std::uint64_t>(n));
        CHECK(m.max_abs == d.max_abs);
        CHECK(m.differ == d.differ);
        CHECK(m.differ_share == static_cast<double>(d.differ) / n);
        CHECK(m.mae == d.sum_abs / n);
        CHECK(m.mse == d.sum_sq / n);
        CHECK(m.rmse == std::sqrt(d.sum_sq / n));
        if (d.sum_sq == 0)
            CHECK(std::isinf(m.psnr));
        else
            CHECK(m.psnr == 10.0 * std::log10(65025.0 / (d.sum_sq / n)));
        if (c < 0) CHECK(s.pixels_differ == d.pixels_differ);
    }
}

}  // namespace

TEST_CASE("compare: the sums and metrics equal the direct formulas, every channel count and awkward size") {
    int cases = 0;
    for (const auto& [w, h] : test::awkward_sizes())
        for (int ch = 1; ch <= 4; ++ch) {
            CAPTURE(w);
            CAPTURE(h);
            CAPTURE(ch);
            const ImageU8 a = test::photo_like_image(w, h, ch, 3);
            ImageU8 b = test::photo_like_image(w, h, ch, 4);
            check_against_direct(a, b);
            // Nearly equal images: a few samples off by one.
            b = a;
            for (std::size_t i = 0; i < b.sample_count(); i += 7) b.data()[i] = static_cast<std::uint8_t>(b.data()[i] ^ 1);
            check_against_direct(a, b);
            ++cases;
        }
    CHECK(cases > 40);
}

TEST_CASE("compare: identical images have every difference 0 and an infinite PSNR") {
    const ImageU8 a = test::load_sample("chelsea.png");
    const Comparison r = cpu::compare(a.view(), a.view(), CompareOptions{});
    for (int c = -1; c < 3; ++c) {
        const DifferenceMetrics m = difference_metrics(r.sums, c);
        CHECK(m.max_abs == 0);
        CHECK(m.differ == 0);
        CHECK(m.mae == 0);
        CHECK(m.mse == 0);
        CHECK(m.psnr == std::numeric_limits<double>::infinity());
    }
    CHECK(r.sums.pixels_differ == 0);
    REQUIRE(r.ssim.defined);
    CHECK(r.ssim.mean == 1.0);
}

TEST_CASE("compare: small cases computed by hand") {
    // Gray 2x1: samples (0, 10) against (5, 10).
    ImageU8 a(2, 1, 1), b(2, 1, 1);
    a.at(0, 0, 0) = 0, a.at(1, 0, 0) = 10;
    b.at(0, 0, 0) = 5, b.at(1, 0, 0) = 10;
    const DifferenceMetrics m = difference_metrics(cpu::difference_sums(a.view(), b.view()), -1);
    CHECK(m.max_abs == 5);
    CHECK(m.differ == 1);
    CHECK(m.differ_share == 0.5);
    CHECK(m.mae == 2.5);
    CHECK(m.mse == 12.5);
    CHECK(m.rmse == doctest::Approx(3.5355339059327378));
    CHECK(m.psnr == doctest::Approx(37.16170347859854).epsilon(1e-14));  // 10 log10(65025 / 12.5)

    // RGB 1x1: (10, 20, 30) against (10, 25, 0): one pixel, two samples differ.
    ImageU8 p(1, 1, 3), q(1, 1, 3);
    p.at(0, 0, 0) = 10, p.at(0, 0, 1) = 20, p.at(0, 0, 2) = 30;
    q.at(0, 0, 0) = 10, q.at(0, 0, 1) = 25, q.at(0, 0, 2) = 0;
    const DifferenceSums s = cpu::difference_sums(p.view(), q.view());
    CHECK(s.pixels_differ == 1);
    CHECK(difference_metrics(s, 0).differ == 0);
    CHECK(difference_metrics(s, 1).mse == 25);
    CHECK(difference_metrics(s, 2).max_abs == 30);
    CHECK(difference_metrics(s, -1).mse == doctest::Approx(925.0 / 3));
    CHECK(difference_metrics(s, -1).differ == 2);
}

TEST_CASE("compare: the difference image is |a - b| per sample; sub-views with a wider stride") {
    const ImageU8 big_a = test::random_image(70, 40, 4, 8);
    const ImageU8 big_b = test::random_image(70, 40, 4, 9);
    const ConstViewU8 a = big_a.view().sub(3, 2, 61, 33);
    const ConstViewU8 b = big_b.view().sub(5, 4, 61, 33);
    CompareOptions o;
    o.diff = true;
    o.ssim = false;
    const Comparison r = cpu::compare(a, b, o);
    REQUIRE(r.diff.width() == 61);
    REQUIRE(r.diff.channels() == 4);
    bool same = true;
    for (int y = 0; y < 33; ++y)
        for (int x = 0; x < 61; ++x)
            for (int c = 0; c < 4; ++c)
                same = same && r.diff.at(x, y, c) == std::abs(a.pixel(x, y)[c] - b.pixel(x, y)[c]);
    CHECK(same);
    CHECK(!r.ssim.defined);
    CHECK(r.sums == cpu::difference_sums(ImageU8::copy_of(a).view(), ImageU8::copy_of(b).view()));
}

TEST_CASE("compare: sums past 32 bits stay exact (white against black, 4096x4096 gray+alpha)") {
    const ImageU8 white = test::constant_image(4096, 4096, 2, 255);
    const ImageU8 black = test::constant_image(4096, 4096, 2, 0);
    const DifferenceSums s = cpu::difference_sums(white.view(), black.view());
    const std::uint64_t n = 4096ull * 4096ull;
    CHECK(s.channel[0].sum_abs == 255 * n);            // 4.3e9: past 2^32
    CHECK(s.channel[1].sum_sq == 65025 * n);           // 1.1e12
    CHECK(difference_metrics(s, -1).mse == 65025.0);
    CHECK(difference_metrics(s, -1).psnr == 0.0);
    CHECK(difference_metrics(s, -1).differ_share == 1.0);
}

TEST_CASE("compare: images of different sizes or layouts are an error naming both files") {
    const ImageU8 a(8, 8, 3), b(8, 9, 3), c(8, 8, 4);
    try {
        check_comparable(a.view(), b.view(), "x.png", "y.png");
        FAIL("different sizes were accepted");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        const std::string m = e.what();
        CHECK(m.find("x.png is 8x8 RGB") != std::string::npos);
        CHECK(m.find("y.png is 8x9 RGB") != std::string::npos);
        CHECK(m.find("different sizes") != std::string::npos);
    }
    try {
        check_comparable(a.view(), c.view(), "x.png", "z.png");
        FAIL("different layouts were accepted");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("different channel layouts") != std::string::npos);
        CHECK(std::string(e.what()).find("z.png is 8x8 RGBA") != std::string::npos);
    }
    check_comparable(a.view(), a.view(), "x.png", "x.png");
    CHECK_THROWS_AS(cpu::difference_sums(a.view(), b.view()), Error);
}

TEST_CASE("compare: an SSIM map of an image smaller than the window is refused; without it SSIM is left out") {
    const ImageU8 a = test::random_image(10, 40, 3, 1);
    CompareOptions o;
    const Comparison r = cpu::compare(a.view(), a.view(), o);
    CHECK(!r.ssim.defined);
    CHECK(r.sums.pixels == 400);
    o.ssim_map = true;
    CHECK_THROWS_AS(cpu::compare(a.view(), a.view(), o), Error);
}
