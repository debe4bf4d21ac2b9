// 16-bit thresholding (src/ops/threshold.hpp, 16-BIT CONTRACT): a given level
// in 0..65535 compared with the 16-bit intensity, output 0 / 65535 with
// alpha copied; Otsu's level over the exact 65,536-value histogram against
// the within-class variance minimised over every distinct level.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

int intensity16(const ImageU16& img, int x, int y) {
    if (img.channels() < 3) return img.at(x, y, 0);
    return (77 * img.at(x, y, 0) + 150 * img.at(x, y, 1) + 29 * img.at(x, y, 2) + 128) / 256;
}

ImageU16 reference_threshold16(const ImageU16& img, int t) {
    const bool alpha = img.channels() == 2 || img.channels() == 4;
    ImageU16 out(img.width(), img.height(), alpha ? 2 : 1);
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            out.at(x, y, 0) = intensity16(img, x, y) > t ? 65535 : 0;
            if (alpha) out.at(x, y, 1) = img.at(x, y, img.channels() - 1);
        }
    return out;
}

// The lowest level minimising the within-class variance; levels between two
// neighbouring distinct values split the samples alike, so the distinct
// values (all but the largest) are the candidates. -1: no split.
int brute_otsu16(const ImageU16& img) {
    std::vector<long long> s;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) s.push_back(intensity16(img, x, y));
    std::sort(s.begin(), s.end());
    long double q_all = 0, s_all = 0;
    for (long long v : s) s_all += v, q_all += static_cast<long double>(v) * v;
    const long double n = static_cast<long double>(s.size());
    long double s0 = 0, q0 = 0;
    int best_t = -1;
    long double best = 0;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
        s0 += s[i];
        q0 += static_cast<long double>(s[i]) * s[i];
        if (s[i] == s[i + 1]) continue;
        const long double n0 = static_cast<long double>(i + 1), n1 = n - n0, s1 = s_all - s0, q1 = q_all - q0;
        const long double w = (q0 - s0 * s0 / n0) + (q1 - s1 * s1 / n1);
        if (best_t < 0 || w < best) best = w, best_t = static_cast<int>(s[i]);
    }
    return best_t;
}

ImageU16 bimodal16(int w, int h, int c, int low, int high, unsigned seed) {
    ImageU16 img(w, h, c);
    std::mt19937 rng(seed);
    std::normal_distribution<double> a(low, 900), b(high, 1100);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const bool fg = ((x / 9) + (y / 5)) % 3 == 0;
            const int v = std::clamp(static_cast<int>(std::lround(fg ? b(rng) : a(rng))), 0, 65535);
            for (int k = 0; k < c; ++k) img.at(x, y, k) = static_cast<std::uint16_t>(k == 3 ? 40000 + x : v);
        }
    return img;
}

}  // namespace

TEST_CASE("threshold u16: fixed levels across 0..65535 at odd sizes and every layout") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c)
            for (int t : {0, 255, 257, 32767, 65534, 65535}) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(t);
                const ImageU16 img = test::random_runs_image16(w, h, c, static_cast<unsigned>(w + h + c));
                ImageU16 out(w, h, threshold_output_channels(c));
                CHECK(cpu::threshold(img.view(), out.view(), threshold_at_any_depth(t)) == t);
                IMGPAR_CHECK_IMAGES_EQUAL(reference_threshold16(img, t), out);
            }
}

TEST_CASE("threshold u16: levels are 0..65535; 8-bit images keep 0..255") {
    CHECK_NOTHROW(threshold_at_any_depth(65535));
    CHECK_THROWS_AS(threshold_at_any_depth(65536), Error);
    CHECK_THROWS_AS(threshold_at_any_depth(-1), Error);
    const ImageU8 img8 = test::random_image(4, 4, 1);
    ImageU8 out8(4, 4, 1);
    CHECK_THROWS_AS(cpu::threshold(img8.view(), out8.view(), threshold_at_any_depth(256)), Error);
}

TEST_CASE("threshold u16: Otsu over 65,536 values") {
    for (int c = 1; c <= 4; ++c)
        for (auto [low, high] : std::vector<std::pair<int, int>>{{8000, 50000}, {20000, 26000}, {300, 65000}}) {
            CAPTURE(c);
            CAPTURE(low);
            CAPTURE(high);
            const ImageU16 img = bimodal16(97, 61, c, low, high, static_cast<unsigned>(c + low));
            ImageU16 out(97, 61, threshold_output_channels(c));
            const int t = cpu::threshold(img.view(), out.view(), threshold_otsu());
            CHECK(t == brute_otsu16(img));
            IMGPAR_CHECK_IMAGES_EQUAL(reference_threshold16(img, t), out);
        }
    // One value: no split, T = that value, all 0.
    const ImageU16 flat = test::flat_image16(9, 7, 1, 40000);
    ImageU16 out(9, 7, 1);
    CHECK(cpu::threshold(flat.view(), out.view(), threshold_otsu()) == 40000);
    CHECK(*std::max_element(out.data(), out.data() + out.sample_count()) == 0);
    // Two values: the lower one.
    const ImageU16 few = test::few_values16(1, 2, 1, 1);
    ImageU16 out2(1, 2, 1);
    const int t2 = cpu::threshold(few.view(), out2.view(), threshold_otsu());
    CHECK(t2 == std::min(few.at(0, 0, 0), few.at(0, 1, 0)));
}
