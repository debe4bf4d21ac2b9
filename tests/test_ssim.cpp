// SSIM on the CPU (src/ops/ssim.hpp) against its definition written here
// directly: the 2-D Gaussian window's weighted moments of every pixel in long
// double, no separable passes, no ring of rows; identical images; a case
// computed by hand; the map and its border rule; images too small.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
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

// --ssim-downsample: the shrink (ssim.m's imfilter(img, ones(f)/f^2,
// 'symmetric') then img(1:f:end, 1:f:end)) and SSIM over the shrunk images'
// 'valid' windows, each written here again without the library's code.
namespace {

// A double-precision image, channels interleaved, rows packed.
struct RealImage {
    int width = 0, height = 0, channels = 0;
    std::vector<double> v;
    double at(int x, int y, int c) const { return v[(static_cast<std::size_t>(y) * width + x) * channels + c]; }
};

// MATLAB padarray's 'symmetric' index: the line followed by itself reversed,
// repeated (period 2n).
int symmetric_index(int i, int n) {
    std::vector<int> side(2 * n);
    for (int k = 0; k < n; ++k) side[k] = k, side[2 * n - 1 - k] = k;
    return side[((i % (2 * n)) + 2 * n) % (2 * n)];
}

// Output sample i averages inputs i f - floor((f - 1) / 2) .. + f - 1 (MATLAB's
// kernel centre floor((f + 1) / 2), 1-based); the exact sum over f^2.
RealImage direct_shrink(ConstViewU8 image, int f) {
    RealImage r;
    r.width = (image.width + f - 1) / f, r.height = (image.height + f - 1) / f, r.channels = image.channels;
    const int before = (f - 1) / 2;
    for (int y = 0; y < r.height; ++y)
        for (int x = 0; x < r.width; ++x)
            for (int c = 0; c < r.channels; ++c) {
                long long sum = 0;
                for (int j = 0; j < f; ++j)
                    for (int i = 0; i < f; ++i)
                        sum += image.pixel(symmetric_index(x * f - before + i, image.width),
                                           symmetric_index(y * f - before + j, image.height))[c];
                r.v.push_back(static_cast<double>(sum) / static_cast<double>(f * f));
            }
    return r;
}

// ssim.m on double images: filter2(fspecial('gaussian', 11, 1.5), ., 'valid')
// of each moment (the 2-D window exp(-(i^2 + j^2) / 4.5), normalised), S
// per valid window, its mean per channel; the mean of channels last.
std::vector<Real> direct_valid_ssim(const RealImage& a, const RealImage& b) {
    Real g[11][11], total = 0;
    for (int j = -5; j <= 5; ++j)
        for (int i = -5; i <= 5; ++i) total += g[j + 5][i + 5] = std::exp(-static_cast<Real>(i * i + j * j) / 4.5L);
    const Real c1 = 2.55L * 2.55L, c2 = 7.65L * 7.65L;
    std::vector<Real> means(a.channels + 1, 0);
    for (int c = 0; c < a.channels; ++c) {
        Real sum = 0;
        for (int y = 0; y + 11 <= a.height; ++y)
            for (int x = 0; x + 11 <= a.width; ++x) {
                Real ux = 0, uy = 0, uxx = 0, uyy = 0, uxy = 0;
                for (int j = 0; j < 11; ++j)
                    for (int i = 0; i < 11; ++i) {
                        const Real w = g[j][i] / total, va = a.at(x + i, y + j, c), vb = b.at(x + i, y + j, c);
                        ux += w * va, uy += w * vb, uxx += w * va * va, uyy += w * vb * vb, uxy += w * va * vb;
                    }
                const Real vx = uxx - ux * ux, vy = uyy - uy * uy, vxy = uxy - ux * uy;
                sum += (2 * ux * uy + c1) * (2 * vxy + c2) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
            }
        means[c] = sum / ((a.width - 10) * (a.height - 10));
        means[a.channels] += means[c] / a.channels;
    }
    return means;
}

void check_shrunk_against_direct(const ImageU8& a, const ImageU8& b, int f) {
    CAPTURE(f);
    CAPTURE(a.channels());
    const SsimResult r = cpu::ssim(a.view(), b.view(), nullptr, f);
    REQUIRE(r.defined);
    CHECK(r.downsample == f);
    const RealImage sa = direct_shrink(a.view(), f), sb = direct_shrink(b.view(), f);
    CHECK(r.pixels == static_cast<std::uint64_t>((sa.width - 10) * (sa.height - 10)));
    const std::vector<Real> want = direct_valid_ssim(sa, sb);
    for (int c = 0; c < a.channels(); ++c) {
        CAPTURE(c);
        CHECK(std::fabs(static_cast<Real>(r.channel[c]) - want[c]) < 1e-12L);
    }
    CHECK(std::fabs(static_cast<Real>(r.mean) - want[a.channels()]) < 1e-12L);
    // The factor has to matter: the unshrunk SSIM is another number.
    CHECK(r.mean != cpu::ssim(a.view(), b.view()).mean);
}

// `small` blown up so that shrinking by f gives it back exactly: pixel X of
// the result is small's floor((X + before) / f), the width n f - before, so
// every f x f window (edges included) holds f^2 copies of one sample.
ImageU8 blown_up(const ImageU8& small, int f) {
    const int before = (f - 1) / 2;
    ImageU8 big(small.width() * f - before, small.height() * f - before, small.channels());
    for (int y = 0; y < big.height(); ++y)
        for (int x = 0; x < big.width(); ++x)
            for (int c = 0; c < big.channels(); ++c) big.at(x, y, c) = small.at((x + before) / f, (y + before) / f, c);
    return big;
}

bool same_bits(const SsimResult& x, const SsimResult& y) {
    bool same = x.defined == y.defined && x.channels == y.channels && x.pixels == y.pixels && x.mean == y.mean;
    for (int c = 0; c < kMaxChannels; ++c) same = same && x.channel[c] == y.channel[c];
    return same;
}

}  // namespace

TEST_CASE("ssim downsample: the factor is ssim.m's max(1, round(min(W, H) / 256)); explicit requests as given") {
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 7680, 4320) == 17);
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 4320, 7680) == 17);  // the shorter side, either way
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 8192, 8192) == 32);
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 451, 300) == 1);
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 512, 512) == 2);
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 384, 384) == 2);   // 1.5: halves away from zero
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 383, 383) == 1);   // 1.496
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 5000, 1152) == 5);  // 4.5
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 5000, 1151) == 4);
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 640, 128) == 1);   // 0.5 rounds to 1
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 100, 100) == 1);   // 0.39: at least 1
    CHECK(ssim_downsample_factor(kSsimAutoDownsample, 1, 1) == 1);
    for (int f : {1, 2, 3, 17, 1023, kSsimMaxDownsample}) CHECK(ssim_downsample_factor(f, 451, 300) == f);
    CHECK_THROWS_AS(ssim_downsample_factor(-1, 451, 300), Error);
    CHECK_THROWS_AS(ssim_downsample_factor(kSsimMaxDownsample + 1, 451, 300), Error);
    CHECK(ssim_shrunk_side(7680, 17) == 452);
    CHECK(ssim_shrunk_side(4320, 17) == 255);
    CHECK(ssim_shrunk_side(30, 3) == 10);
    CHECK(ssim_shrunk_side(31, 3) == 11);
    CHECK(ssim_shrunk_side(1, 3) == 1);
}

TEST_CASE("ssim downsample: the shrink's windows sit where MATLAB's imfilter puts them, by hand") {
    // One row 0 10 20 30 40 (one row high: every window row is that row).
    ImageU8 row(5, 1, 1);
    for (int x = 0; x < 5; ++x) row.at(x, 0, 0) = static_cast<std::uint8_t>(10 * x);
    // f = 2: columns 0-1, 2-3, 4-5 (5 mirrors to 4).
    CHECK(cpu::ssim_shrink(row.view(), 2) == std::vector<double>{5, 25, 40});
    // f = 3: columns -1..1 (-1 mirrors to 0) and 2..4.
    CHECK(cpu::ssim_shrink(row.view(), 3) == std::vector<double>{10.0 / 3, 30});
    // f = 4: columns -1..2 and 3..6 (5, 6 mirror to 4, 3).
    CHECK(cpu::ssim_shrink(row.view(), 4) == std::vector<double>{7.5, 35});
    // f = 17 on 5 samples: one window, -8..8, mirrored past the far end:
    // 20 30 40 40 30 20 10 0 | 0 10 20 30 40 | 40 30 20 10 = 390, 17 rows of it.
    CHECK(cpu::ssim_shrink(row.view(), 17) == std::vector<double>{390.0 * 17 / 289});
}

TEST_CASE("ssim downsample: cpu::ssim_shrink is the exact f x f window sum over f^2, every channel count") {
    const std::vector<std::pair<int, int>> sizes{{1, 1}, {37, 23}, {30, 30}, {34, 17}, {51, 68}, {5, 3}, {40, 9}};
    for (int ch = 1; ch <= 4; ++ch)
        for (const auto& [w, h] : sizes)
            for (int f : {2, 3, 5, 17}) {
                CAPTURE(ch);
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(f);
                const ImageU8 image = test::random_image(w, h, ch, static_cast<unsigned>(w * 7 + h + f));
                const std::vector<double> got = cpu::ssim_shrink(image.view(), f);
                const RealImage want = direct_shrink(image.view(), f);
                CHECK(want.width == ssim_shrunk_side(w, f));
                CHECK(want.height == ssim_shrunk_side(h, f));
                CHECK(got == want.v);
            }
    // A view into a larger image: its stride, not its width, steps the rows.
    const ImageU8 camera = test::load_sample("camera.png");
    const ConstViewU8 part = camera.view().sub(101, 57, 73, 41);
    CHECK(cpu::ssim_shrink(part, 3) == direct_shrink(part, 3).v);
}

TEST_CASE("ssim downsample: SSIM equals ssim.m's on the shrunk images ('valid' windows, long double)") {
    for (int ch = 1; ch <= 4; ++ch) {
        const ImageU8 a = test::photo_like_image(97, 71, ch, 31);
        ImageU8 noisy = a;  // a disturbed copy: SSIM near 1
        for (std::size_t i = 0; i < noisy.sample_count(); i += 3)
            noisy.data()[i] = static_cast<std::uint8_t>(noisy.data()[i] / 2 + 50);
        for (int f : {2, 3, 5}) {
            check_shrunk_against_direct(a, noisy, f);
            check_shrunk_against_direct(a, test::photo_like_image(97, 71, ch, 32), f);
        }
    }
    // The smallest that fits: 11x11 once shrunk (f = 4: 41..44 -> 11), one window.
    check_shrunk_against_direct(test::random_image(44, 41, 3, 7), test::random_image(44, 41, 3, 8), 4);
    // A photo and its 1-pixel shift, at its auto factor (2) and more.
    const ImageU8 camera = test::load_sample("camera.png");
    const ImageU8 a = ImageU8::copy_of(camera.view().sub(0, 0, 300, 260)),
                  b = ImageU8::copy_of(camera.view().sub(1, 0, 300, 260));
    for (int f : {2, 7, 17}) check_shrunk_against_direct(a, b, f);
}

TEST_CASE("ssim downsample: f = 1 is the unshrunk SSIM bit for bit; identical images give 1 at any f") {
    const ImageU8 chelsea = test::load_sample("chelsea.png");
    ImageU8 other = chelsea;
    for (std::size_t i = 0; i < other.sample_count(); i += 7) other.data()[i] = static_cast<std::uint8_t>(other.data()[i] ^ 0x15);
    const SsimResult plain = cpu::ssim(chelsea.view(), other.view());
    const SsimResult one = cpu::ssim(chelsea.view(), other.view(), nullptr, 1);
    CHECK(same_bits(plain, one));
    CHECK(one.downsample == 1);
    ImageU8 map_plain(451, 300, 3), map_one(451, 300, 3);
    const ViewU8 mp = map_plain.view(), mo = map_one.view();
    cpu::ssim(chelsea.view(), other.view(), &mp);
    cpu::ssim(chelsea.view(), other.view(), &mo, 1);
    IMGPAR_CHECK_IMAGES_EQUAL(map_plain, map_one);
    for (int f : {2, 3, 4, 9, 27}) {
        CAPTURE(f);
        const SsimResult same = cpu::ssim(chelsea.view(), chelsea.view(), nullptr, f);
        CHECK(same.defined);
        CHECK(same.downsample == f);
        CHECK(same.mean == 1.0);
        for (int c = 0; c < 3; ++c) CHECK(same.channel[c] == 1.0);
    }
    // Any number of threads, the same bits (the shrink is split by rows too).
    SsimResult once;
    {
        CpuThreadLimit single(1);
        once = cpu::ssim(chelsea.view(), other.view(), nullptr, 3);
    }
    CHECK(same_bits(once, cpu::ssim(chelsea.view(), other.view(), nullptr, 3)));
}

TEST_CASE("ssim downsample: images that shrink back to small ones give those SSIMs and maps, bit for bit") {
    // Each f x f window of the blown-up images holds one sample of the small
    // ones, so the shrunk images are the small ones exactly: results, pixel
    // counts and maps must match the small images' unshrunk ones.
    for (int ch = 1; ch <= 4; ++ch)
        for (int f : {2, 3, 4, 5, 8}) {
            CAPTURE(ch);
            CAPTURE(f);
            const ImageU8 a = test::photo_like_image(23, 19, ch, 41), b = test::photo_like_image(23, 19, ch, 42);
            ImageU8 small_map(23, 19, ch), big_map(23, 19, ch);
            const ViewU8 sm = small_map.view(), bm = big_map.view();
            const SsimResult small = cpu::ssim(a.view(), b.view(), &sm);
            const ImageU8 big_a = blown_up(a, f), big_b = blown_up(b, f);
            REQUIRE(ssim_shrunk_side(big_a.width(), f) == 23);
            const SsimResult big = cpu::ssim(big_a.view(), big_b.view(), &bm, f);
            CHECK(same_bits(small, big));
            CHECK(big.downsample == f);
            IMGPAR_CHECK_IMAGES_EQUAL(small_map, big_map);
        }
}

TEST_CASE("ssim downsample: the map has the shrunk shape; a map of another shape is refused") {
    const ImageU8 a = test::photo_like_image(100, 61, 3, 51), b = test::photo_like_image(100, 61, 3, 52);
    ImageU8 map(34, 21, 3);  // ceil(100 / 3) x ceil(61 / 3)
    const ViewU8 mv = map.view();
    CHECK(cpu::ssim(a.view(), b.view(), &mv, 3).defined);
    for (const auto& [w, h, c] : {std::tuple<int, int, int>{100, 61, 3}, {33, 20, 3}, {34, 20, 3}, {33, 21, 3}, {34, 21, 1}}) {
        CAPTURE(w);
        CAPTURE(h);
        ImageU8 wrong(w, h, c);
        const ViewU8 wv = wrong.view();
        CHECK_THROWS_AS(cpu::ssim(a.view(), b.view(), &wv, 3), Error);
    }
    CHECK_THROWS_AS(cpu::ssim(a.view(), b.view(), nullptr, 0), Error);
    CHECK_THROWS_AS(cpu::ssim(a.view(), b.view(), nullptr, kSsimMaxDownsample + 1), Error);
    // cpu::compare writes it at that size, and resolves "auto".
    CompareOptions o;
    o.ssim_map = true;
    o.ssim_downsample = 3;
    Comparison r = cpu::compare(a.view(), b.view(), o);
    CHECK(r.ssim_map.width() == 34);
    CHECK(r.ssim_map.height() == 21);
    IMGPAR_CHECK_IMAGES_EQUAL(map, r.ssim_map);
    CHECK(same_bits(r.ssim, cpu::ssim(a.view(), b.view(), nullptr, 3)));
    const ImageU8 wide = test::photo_like_image(700, 520, 1, 53), wide_b = test::photo_like_image(700, 520, 1, 54);
    o.ssim_downsample = kSsimAutoDownsample;  // round(520 / 256) = 2
    r = cpu::compare(wide.view(), wide_b.view(), o);
    CHECK(r.ssim.downsample == 2);
    CHECK(r.ssim_map.width() == 350);
    CHECK(r.ssim_map.height() == 260);
    CHECK(same_bits(r.ssim, cpu::ssim(wide.view(), wide_b.view(), nullptr, 2)));
}

TEST_CASE("ssim downsample: shrunk under 11x11, no SSIM from compare (no throw); a map of it throws") {
    const ImageU8 chelsea = test::load_sample("chelsea.png");  // 451x300
    CompareOptions o;
    o.ssim_downsample = 40;  // 12x8
    const SsimPlan plan = ssim_plan(o, 451, 300);
    CHECK(plan.downsample == 40);
    CHECK(plan.width == 12);
    CHECK(plan.height == 8);
    CHECK(!plan.fits);
    CHECK(plan.shortfall().find("shrunk 40x (--ssim-downsample) is 12x8") != std::string::npos);
    Comparison r = cpu::compare(chelsea.view(), chelsea.view(), o);
    CHECK(!r.ssim.defined);
    CHECK(difference_metrics(r.sums, -1).mse == 0);
    o.ssim_downsample = 27;  // 17x12: still fits
    CHECK(ssim_plan(o, 451, 300).fits);
    CHECK(cpu::compare(chelsea.view(), chelsea.view(), o).ssim.defined);
    o.ssim_downsample = 29;  // 16x11: the last that fits
    CHECK(cpu::compare(chelsea.view(), chelsea.view(), o).ssim.defined);
    o.ssim_downsample = 30;  // 16x10
    CHECK(!cpu::compare(chelsea.view(), chelsea.view(), o).ssim.defined);
    o.ssim_map = true;
    CHECK_THROWS_AS(cpu::compare(chelsea.view(), chelsea.view(), o), Error);
    CHECK_THROWS_AS(cpu::ssim(chelsea.view(), chelsea.view(), nullptr, 30), Error);
    o.ssim_downsample = kSsimAutoDownsample;  // 1: fits
    CHECK(cpu::compare(chelsea.view(), chelsea.view(), o).ssim.downsample == 1);
}
