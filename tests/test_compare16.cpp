// Comparing 16-bit images (src/ops/compare.hpp and src/ops/ssim.hpp, 16-bit
// contracts): the exact sums against a plain pass, PSNR with data range
// 65535 as scikit-image's peak_signal_noise_ratio, the u16 difference image,
// and SSIM against its 2-D definition with L = 65535 in long double.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/compare.hpp"
#include "src/ops/ssim.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

using Real = long double;

// b: a with noise of up to +-amount, clamped (some samples equal, some at the ends).
ImageU16 noisy16(const ImageU16& a, int amount, unsigned seed) {
    ImageU16 b = ImageU16::copy_of(a.view());
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < b.sample_count(); ++i) {
        const int d = static_cast<int>(rng() % (2 * amount + 1)) - amount;
        b.data()[i] = static_cast<std::uint16_t>(std::clamp(b.data()[i] + d, 0, 65535));
    }
    return b;
}

Real direct_ssim_at16(const ImageU16& a, const ImageU16& b, int x, int y, int c) {
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
            const int sx = reflect(x + i, a.width()), sy = reflect(y + j, a.height());
            const Real va = a.at(sx, sy, c), vb = b.at(sx, sy, c);
            ux += w * va, uy += w * vb, uxx += w * va * va, uyy += w * vb * vb, uxy += w * va * vb;
        }
    const Real c1 = (0.01L * 65535) * (0.01L * 65535), c2 = (0.03L * 65535) * (0.03L * 65535);
    const Real vx = uxx - ux * ux, vy = uyy - uy * uy, vxy = uxy - ux * uy;
    return (2 * ux * uy + c1) * (2 * vxy + c2) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
}

}  // namespace

TEST_CASE("compare u16: exact sums, PSNR over 65535 and the difference image, odd sizes and every layout") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c) {
            CAPTURE(w);
            CAPTURE(h);
            CAPTURE(c);
            const ImageU16 a = test::random_runs_image16(w, h, c, static_cast<unsigned>(w + h + c));
            const ImageU16 b = (w + h) % 2 ? noisy16(a, 3000, 5) : test::random_runs_image16(w, h, c, 77);
            ImageU16 diff(w, h, c);
            const ViewU16 dv = diff.view();
            const DifferenceSums s = cpu::difference_sums(a.view(), b.view(), &dv);
            CHECK(s.data_range == 65535);
            CHECK(s.pixels == static_cast<std::uint64_t>(w) * h);
            std::uint64_t pixels_differ = 0, total_sq = 0;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    bool any = false;
                    for (int k = 0; k < c; ++k) {
                        const int d = std::abs(static_cast<int>(a.at(x, y, k)) - static_cast<int>(b.at(x, y, k)));
                        CHECK(diff.at(x, y, k) == d);
                        any = any || d != 0;
                    }
                    pixels_differ += any;
                }
            CHECK(s.pixels_differ == pixels_differ);
            for (int k = 0; k < c; ++k) {
                int max_abs = 0;
                std::uint64_t differ = 0, sum_abs = 0, sum_sq = 0;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        const std::uint64_t d = static_cast<std::uint64_t>(std::abs(static_cast<int>(a.at(x, y, k)) - static_cast<int>(b.at(x, y, k))));
                        max_abs = std::max(max_abs, static_cast<int>(d));
                        differ += d != 0;
                        sum_abs += d;
                        sum_sq += d * d;
                    }
                CHECK(s.channel[k].max_abs == max_abs);
                CHECK(s.channel[k].differ == differ);
                CHECK(s.channel[k].sum_abs == sum_abs);
                CHECK(s.channel[k].sum_sq == sum_sq);
                total_sq += sum_sq;
            }
            const DifferenceMetrics all = difference_metrics(s, -1);
            const double mse = static_cast<double>(total_sq) / (static_cast<double>(w) * h * c);
            CHECK(all.mse == mse);
            if (total_sq != 0) CHECK(all.psnr == doctest::Approx(10.0 * std::log10(65535.0 * 65535.0 / mse)).epsilon(1e-15));
        }
}

TEST_CASE("compare u16: PSNR by hand; identical images give infinity") {
    ImageU16 a(2, 1, 1), b(2, 1, 1);
    a.at(0, 0, 0) = 65535;  // one sample off by 65535: MSE = 65535^2 / 2
    const DifferenceMetrics m = difference_metrics(cpu::difference_sums(a.view(), b.view()), 0);
    CHECK(m.psnr == doctest::Approx(10.0 * std::log10(2.0)));
    CHECK(m.max_abs == 65535);
    const DifferenceMetrics same = difference_metrics(cpu::difference_sums(a.view(), a.view()), -1);
    CHECK(same.psnr == std::numeric_limits<double>::infinity());
    // The 8-bit peak is unchanged.
    const ImageU8 a8 = test::random_image(3, 3, 1, 1), b8 = test::random_image(3, 3, 1, 2);
    CHECK(cpu::difference_sums(a8.view(), b8.view()).data_range == 255);
}

TEST_CASE("ssim u16: equals the 2-D definition with L = 65535, every channel count") {
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{11, 11}, {12, 17}, {29, 23}}) {
            CAPTURE(c);
            CAPTURE(w);
            CAPTURE(h);
            const ImageU16 a = test::random_runs_image16(w, h, c, static_cast<unsigned>(c + w));
            const ImageU16 b = noisy16(a, 5000, static_cast<unsigned>(h));
            const SsimResult r = cpu::ssim(a.view(), b.view());
            REQUIRE(r.defined);
            Real mean = 0;
            for (int k = 0; k < c; ++k) {
                Real sum = 0;
                for (int y = 5; y < h - 5; ++y)
                    for (int x = 5; x < w - 5; ++x) sum += direct_ssim_at16(a, b, x, y, k);
                const Real want = sum / ((w - 10) * (h - 10));
                CHECK(std::fabs(static_cast<Real>(r.channel[k]) - want) < 1e-10L);
                mean += want / c;
            }
            CHECK(std::fabs(static_cast<Real>(r.mean) - mean) < 1e-10L);
        }
    const ImageU16 a = test::random_runs_image16(20, 20, 3, 1);
    CHECK(cpu::ssim(a.view(), a.view()).mean == 1.0);
}

TEST_CASE("compare u16: the map, the diff image, and what is refused") {
    const ImageU16 a = test::random_runs_image16(40, 30, 2, 3), b = noisy16(a, 100, 4);
    CompareOptions o;
    o.diff = true;
    o.ssim_map = true;
    const Comparison16 r = cpu::compare(a.view(), b.view(), o);
    CHECK(r.ssim.defined);
    CHECK(r.diff.width() == 40);
    CHECK(r.ssim_map.channels() == 2);
    o.ssim_downsample = kSsimMaxDownsample + 1;
    CHECK_THROWS_AS(cpu::compare(a.view(), b.view(), o), Error);
    const ImageU16 small = test::random_runs_image16(10, 30, 1, 3);
    CompareOptions plain;
    CHECK(!cpu::compare(small.view(), small.view(), plain).ssim.defined);
    const ImageU16 other = test::random_runs_image16(41, 30, 2, 3);
    CHECK_THROWS_AS(cpu::difference_sums(a.view(), other.view()), Error);
}

TEST_CASE("ssim u16 downsampled: an image of f x f blocks shrinks to its blocks, whose SSIM it then is") {
    for (int f : {2, 3}) {
        for (int c = 1; c <= 4; ++c) {
            CAPTURE(f);
            CAPTURE(c);
            const ImageU16 small_a = test::random_runs_image16(23, 19, c, static_cast<unsigned>(f * 5 + c));
            const ImageU16 small_b = noisy16(small_a, 4000, static_cast<unsigned>(c));
            // Blocks aligned with the shrink's windows: they start (f - 1) / 2 before each output pixel.
            const auto blown_up = [f](const ImageU16& s) {
                const int before = (f - 1) / 2;
                ImageU16 big(s.width() * f, s.height() * f, s.channels());
                for (int y = 0; y < big.height(); ++y)
                    for (int x = 0; x < big.width(); ++x)
                        for (int k = 0; k < s.channels(); ++k)
                            big.at(x, y, k) = s.at(std::min(s.width() - 1, (x + before) / f),
                                                   std::min(s.height() - 1, (y + before) / f), k);
                return big;
            };
            const ImageU16 a = blown_up(small_a), b = blown_up(small_b);
            const SsimResult shrunk = cpu::ssim(a.view(), b.view(), nullptr, f);
            const SsimResult direct = cpu::ssim(small_a.view(), small_b.view());
            REQUIRE(shrunk.defined);
            CHECK(shrunk.mean == direct.mean);
            for (int k = 0; k < c; ++k) CHECK(shrunk.channel[k] == direct.channel[k]);
        }
    }
}
