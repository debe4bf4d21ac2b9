// SSIM on the CPU (src/ops/ssim.hpp) against its definition written here
// directly: the 2-D Gaussian window's weighted moments of every pixel in long
// double, no separable passes, no ring of rows; identical images; a case
// computed by hand; the map and its border rule; images too small.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/compare.hpp"
#include "src/ops/ssim.hpp"
#include "src/parallel.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

using Real = long double;

// S at (x, y, c) from the definition: moments over the 11 x 11 window of
// weights g(i) g(j), g(k) = exp(-k^2 / 4.5) / sum, the image reflected
// (dcba|abcd) outside.
Real direct_ssim_at(ConstViewU8 a, ConstViewU8 b, int x, int y, int c) {
    Real g[11], total = 0;
    for (int k = -5; k <= 5; ++k) total += g[k + 5] = std::exp(-static_cast<Real>(k * k) / 4.5L);
    for (Real& v : g) v /= total;
    const auto reflect = [](int i, int n) {
        while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
        return i;
    };
    Real ux = 0, uy = 0, uxx = 0, uyy = 0, uxy = 0;
    for (int j = -5; j <= 5; ++j)
        for (int i = -5; i <= 5; ++i) {
            const Real w = g[i + 5] * g[j + 5];
            const int sx = reflect(x + i, a.width), sy = reflect(y + j, a.height);
            const Real va = a.pixel(sx, sy)[c], vb = b.pixel(sx, sy)[c];
            ux += w * va, uy += w * vb, uxx += w * va * va, uyy += w * vb * vb, uxy += w * va * vb;
        }
    const Real c1 = 2.55L * 2.55L, c2 = 7.65L * 7.65L;
    const Real vx = uxx - ux * ux, vy = uyy - uy * uy, vxy = uxy - ux * uy;
    return (2 * ux * uy + c1) * (2 * vxy + c2) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
}

// The mean over the crop, per channel, and of the channels.
std::vector<Real> direct_ssim(ConstViewU8 a, ConstViewU8 b) {
    std::vector<Real> means(a.channels + 1, 0);
    for (int c = 0; c < a.channels; ++c) {
        Real sum = 0;
        for (int y = 5; y < a.height - 5; ++y)
            for (int x = 5; x < a.width - 5; ++x) sum += direct_ssim_at(a, b, x, y, c);
        means[c] = sum / ((a.width - 10) * (a.height - 10));
        means[a.channels] += means[c] / a.channels;
    }
    return means;
}

void check_against_direct(const ImageU8& a, const ImageU8& b) {
    const SsimResult r = cpu::ssim(a.view(), b.view());
    REQUIRE(r.defined);
    const std::vector<Real> want = direct_ssim(a.view(), b.view());
    for (int c = 0; c < a.channels(); ++c) {
        CAPTURE(c);
        CHECK(std::fabs(static_cast<Real>(r.channel[c]) - want[c]) < 1e-12L);
    }
    CHECK(std::fabs(static_cast<Real>(r.mean) - want[a.channels()]) < 1e-12L);
    CHECK(r.pixels == static_cast<std::uint64_t>((a.width() - 10) * (a.height() - 10)));
}

}  // namespace

TEST_CASE("ssim: the window's taps are scipy's Gaussian of sigma 1.5 truncated at radius 5") {
    const SsimTaps& t = ssim_taps();
    double sum = t.w[0];
    for (int k = 1; k <= 5; ++k) sum += 2 * t.w[k];
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-15));
    CHECK(t.w[1] / t.w[0] == doctest::Approx(std::exp(-1.0 / 4.5)).epsilon(1e-15));
    CHECK(t.w[5] / t.w[0] == doctest::Approx(std::exp(-25.0 / 4.5)).epsilon(1e-15));
    // scipy.ndimage's _gaussian_kernel1d(1.5, 0, 5)[5:7]
    CHECK(t.w[0] == doctest::Approx(0.26601172486179436).epsilon(1e-15));
    CHECK(t.w[1] == doctest::Approx(0.2130055377112537).epsilon(1e-15));
    CHECK(t.c1 == doctest::Approx(6.5025));
    CHECK(t.c2 == doctest::Approx(58.5225));
}

TEST_CASE("ssim: equals the 2-D definition on photos, noise and blurred copies, every channel count") {
    for (int ch = 1; ch <= 4; ++ch) {
        CAPTURE(ch);
        const ImageU8 a = test::photo_like_image(37, 23, ch, 11);
        const ImageU8 b = test::photo_like_image(37, 23, ch, 12);
        check_against_direct(a, b);
        ImageU8 c = a;  // a lightly disturbed copy: SSIM near 1
        for (std::size_t i = 0; i < c.sample_count(); i += 5) c.data()[i] = static_cast<std::uint8_t>(c.data()[i] / 2 + 60);
        check_against_direct(a, c);
    }
    check_against_direct(test::random_image(11, 11, 1, 3), test::random_image(11, 11, 1, 4));  // one pixel counts
    check_against_direct(test::random_image(12, 40, 3, 5), test::random_image(12, 40, 3, 6));
    const ImageU8 camera = test::load_sample("camera.png");
    const ConstViewU8 part = camera.view().sub(200, 100, 64, 48);
    const ConstViewU8 shifted = camera.view().sub(201, 100, 64, 48);
    check_against_direct(ImageU8::copy_of(part), ImageU8::copy_of(shifted));
}

TEST_CASE("ssim: identical images give exactly 1; constant images by hand") {
    const ImageU8 photo = test::load_sample("chelsea.png");
    const SsimResult same = cpu::ssim(photo.view(), photo.view());
    CHECK(same.mean == 1.0);
    for (int c = 0; c < 3; ++c) CHECK(same.channel[c] == 1.0);
    // Constant 100 against constant 110: no variance, so
    // S = (2 100 110 + c1) c2 / ((100^2 + 110^2 + c1) c2) = 22006.5025 / 22106.5025.
    const SsimResult flat = cpu::ssim(test::constant_image(16, 13, 1, 100).view(), test::constant_image(16, 13, 1, 110).view());
    CHECK(flat.mean == doctest::Approx(22006.5025 / 22106.5025).epsilon(1e-12));
    // Black against white: (c1 c2) / ((65025 + c1) c2) = 6.5025 / 65031.5025.
    const SsimResult bw = cpu::ssim(test::constant_image(20, 20, 2, 0).view(), test::constant_image(20, 20, 2, 255).view());
    CHECK(bw.mean == doctest::Approx(6.5025 / 65031.5025).epsilon(1e-9));
}

TEST_CASE("ssim: the map holds round(255 S), border pixels with the reflected window, negatives as 0") {
    const ImageU8 a = test::photo_like_image(24, 17, 3, 21);
    ImageU8 b = a;
    for (std::size_t i = 0; i < b.sample_count(); ++i) b.data()[i] = static_cast<std::uint8_t>(255 - b.data()[i]);
    ImageU8 map(24, 17, 3);
    const ViewU8 mv = map.view();
    cpu::ssim(a.view(), b.view(), &mv);
    int negatives = 0, checked = 0;
    for (int y = 0; y < 17; ++y)
        for (int x = 0; x < 24; ++x)
            for (int c = 0; c < 3; ++c) {
                const Real s = direct_ssim_at(a.view(), b.view(), x, y, c);
                const Real scaled = s * 255 + 0.5L;
                // Values within 1e-9 of a rounding edge may go either way.
                if (std::fabs(scaled - std::floor(scaled)) < 1e-9L) continue;
                const int want = s <= 0 ? 0 : s >= 1 ? 255 : static_cast<int>(scaled);
                negatives += s < 0;
                CHECK(map.at(x, y, c) == want);
                ++checked;
            }
    CHECK(negatives > 0);  // the inverted image is anti-correlated somewhere
    CHECK(checked > 1000);
    // Identical images: every pixel 255.
    cpu::ssim(a.view(), a.view(), &mv);
    bool all_white = true;
    for (std::size_t i = 0; i < map.sample_count(); ++i) all_white = all_white && map.data()[i] == 255;
    CHECK(all_white);
}

TEST_CASE("ssim: the reflection reaches any distance, as scipy's 'reflect' mode") {
    CHECK(ssim_reflect(-1, 5) == 0);
    CHECK(ssim_reflect(-5, 5) == 4);
    CHECK(ssim_reflect(5, 5) == 4);
    CHECK(ssim_reflect(9, 5) == 0);
    CHECK(ssim_reflect(10, 5) == 0);  // period 10: dcba|abcd|dcba|abcd
    CHECK(ssim_reflect(-6, 5) == 4);
    CHECK(ssim_reflect(-3, 1) == 0);
    CHECK(ssim_reflect(4, 2) == 0);
}

TEST_CASE("ssim: images smaller than the 11x11 window have none (scikit-image raises); 1x1 included") {
    CHECK(!ssim_fits(10, 11));
    CHECK(!ssim_fits(11, 10));
    CHECK(!ssim_fits(1, 1));
    CHECK(ssim_fits(11, 11));
    const ImageU8 tiny = test::random_image(1, 1, 3, 1);
    try {
        cpu::ssim(tiny.view(), tiny.view());
        FAIL("a 1x1 image got an SSIM");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("smaller than the 11x11 window") != std::string::npos);
    }
    const Comparison r = cpu::compare(tiny.view(), tiny.view(), CompareOptions{});
    CHECK(!r.ssim.defined);
    CHECK(difference_metrics(r.sums, -1).mse == 0);
    CHECK(!ssim_from_sums(SsimSums{}, 6, 6, 1).defined);  // too small: nothing to average
}

TEST_CASE("ssim: the mean is the exact sum of the quantized values, whatever the threads") {
    // Sums by hand: a 12 x 11 image counts 2 x 1 pixels; high parts 2^26
    // (one pixel's 1.0) and low parts 2^25: (1 + 2^-27) / 2.
    SsimSums sums;
    sums.high[0] = std::int64_t{1} << 26;
    sums.low[0] = std::int64_t{1} << 25;
    const SsimResult r = ssim_from_sums(sums, 12, 11, 1);
    CHECK(r.pixels == 2);
    CHECK(r.mean == (1.0 + std::ldexp(1.0, -27)) / 2);
    // A total past 64 bits (2^82 quanta: 2^30 pixels of 1.0) combines exactly.
    sums.high[0] = std::int64_t{1} << 56;
    sums.low[0] = 0;
    CHECK(ssim_from_sums(sums, 1024 * 1024 + 10, 1024 + 10, 1).mean == 1.0);  // 2^82 / 2^52 / 2^30 pixels
    CHECK(ssim_high(-1) == -1);
    CHECK(ssim_low(-1) == (1 << 26) - 1);
    CHECK(ssim_quantize(1.0) == std::int64_t{1} << 52);
    CHECK(ssim_quantize(-0.5) == -(std::int64_t{1} << 51));
    const ImageU8 a = test::photo_like_image(300, 200, 3, 1), b = test::photo_like_image(300, 200, 3, 2);
    SsimResult once;
    {
        CpuThreadLimit one(1);
        once = cpu::ssim(a.view(), b.view());
    }
    const SsimResult again = cpu::ssim(a.view(), b.view());
    for (int c = 0; c < 3; ++c) CHECK(once.channel[c] == again.channel[c]);
}
