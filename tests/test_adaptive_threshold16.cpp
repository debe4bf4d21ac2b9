// The adaptive threshold on 16-bit images (src/ops/adaptive_threshold.hpp,
// 16-BIT CONTRACT): every pixel against brute-force window sums read sample
// by sample with the border rule (replicate for mean, reflect-101 for
// sauvola and niblack); the mean level in plain integers; the 128-bit
// variance numerator against unsigned __int128; alpha copied.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/adaptive_threshold.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

int border_index16(int i, int size, bool replicate) {
    if (replicate) return i < 0 ? 0 : i >= size ? size - 1 : i;
    return i < 0 ? -i : i >= size ? 2 * (size - 1) - i : i;
}

int intensity16(const ImageU16& img, int x, int y) {
    if (img.channels() < 3) return img.at(x, y, 0);
    return (77 * img.at(x, y, 0) + 150 * img.at(x, y, 1) + 29 * img.at(x, y, 2) + 128) / 256;
}

ImageU16 brute_adaptive16(const ImageU16& src, const AdaptiveSpec& spec) {
    const int W = src.width(), H = src.height(), C = src.channels(), r = spec.window / 2;
    const bool replicate = spec.method == AdaptiveMethod::Mean;
    ImageU16 out(W, H, threshold_output_channels(C));
    const AdaptiveParams p = adaptive_params16(spec);
    const long long n = static_cast<long long>(spec.window) * spec.window;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            unsigned long long sum = 0, squares = 0;
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx) {
                    const unsigned long long v = static_cast<unsigned long long>(
                        intensity16(src, border_index16(x + dx, W, replicate), border_index16(y + dy, H, replicate)));
                    sum += v;
                    squares += v * v;
                }
            const int v = intensity16(src, x, y);
            int decision;
            if (replicate) {
                // round(sum / n) - ceil(C), written out: n odd, so no tie.
                const long long mean = (static_cast<long long>(sum) + n / 2) / n;
                decision = v > mean - static_cast<long long>(std::ceil(spec.offset)) ? 65535 : 0;
            } else {
                decision = adaptive_decision16(v, sum, squares, p);
            }
            out.at(x, y, 0) = static_cast<std::uint16_t>(decision);
            if (out.channels() == 2) out.at(x, y, 1) = src.at(x, y, C - 1);
        }
    return out;
}

ImageU16 run16(const ImageU16& src, const AdaptiveSpec& spec) {
    ImageU16 out(src.width(), src.height(), threshold_output_channels(src.channels()));
    cpu::adaptive_threshold(src.view(), out.view(), spec);
    return out;
}

}  // namespace

TEST_CASE("adaptive threshold u16: every method, window, size and layout against brute-force windows") {
    int runs = 0;
    for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 17}, {17, 1}, {7, 5}, {13, 31}, {33, 31}, {64, 65}, {97, 61}})
        for (int c = 1; c <= 4; ++c)
            for (AdaptiveMethod m : {AdaptiveMethod::Mean, AdaptiveMethod::Sauvola, AdaptiveMethod::Niblack})
                for (int window : {1, 3, 5, 15, 31}) {
                    if (window > w || window > h) continue;
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(adaptive_method_name(m));
                    CAPTURE(window);
                    AdaptiveSpec spec;
                    spec.method = m;
                    spec.window = window;
                    spec.offset = runs % 2 ? 7.5 : -200.0;
                    spec.k = m == AdaptiveMethod::Niblack ? -0.3 : 0.25;
                    const ImageU16 img = runs % 3 == 0 ? test::few_values16(w, h, c, static_cast<unsigned>(runs))
                                                       : test::random_runs_image16(w, h, c, static_cast<unsigned>(runs));
                    IMGPAR_CHECK_IMAGES_EQUAL(brute_adaptive16(img, spec), run16(img, spec));
                    ++runs;
                }
    CHECK(runs > 200);
}

TEST_CASE("adaptive threshold u16: the variance numerator past 64 bits is exact") {
    // A window of n = 2047^2 samples of 0 and 65535: n * squares and sum^2 pass 2^64.
    const unsigned long long n = 2047ull * 2047ull, ones = n / 2;
    const unsigned long long sum = ones * 65535ull, squares = ones * 65535ull * 65535ull;
    const unsigned __int128 spread = static_cast<unsigned __int128>(n) * squares - static_cast<unsigned __int128>(sum) * sum;
    CHECK(spread > (static_cast<unsigned __int128>(1) << 64));
    AdaptiveSpec spec;
    spec.method = AdaptiveMethod::Niblack;
    spec.window = 2047;
    spec.k = 0;
    const AdaptiveParams p = adaptive_params16(spec);
    // k = 0: the level is the mean, 32767.49..., whatever the deviation.
    CHECK(adaptive_decision16(32767, sum, squares, p) == 0);
    CHECK(adaptive_decision16(32768, sum, squares, p) == 65535);
    spec.k = 1;
    const AdaptiveParams q = adaptive_params16(spec);
    const double m = static_cast<double>(sum) / static_cast<double>(n);
    const double s = std::sqrt(static_cast<double>(spread) / (static_cast<double>(n) * static_cast<double>(n)));
    const int level = static_cast<int>(std::floor(m - s));  // just below 0: the deviation is just above m
    CHECK(adaptive_decision16(level, sum, squares, q) == 0);
    CHECK(adaptive_decision16(level + 2, sum, squares, q) == 65535);
}

TEST_CASE("adaptive threshold u16: Sauvola's r is scaled to 16 bits") {
    AdaptiveSpec spec;
    spec.method = AdaptiveMethod::Sauvola;
    spec.window = 3;
    CHECK(adaptive_params16(spec).r == 32768.0);
    CHECK(adaptive_params(spec).r == 128.0);
}
