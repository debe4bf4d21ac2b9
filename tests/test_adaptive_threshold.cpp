// The adaptive threshold on the CPU (src/ops/adaptive_threshold.hpp): window
// sums from the tables equal brute-force sums over the window with its
// border rule (replicate for mean, reflect-101 for sauvola and niblack), the
// levels are the formulas of the contract, and bad windows are usage errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/op/operation.hpp"
#include "src/ops/adaptive_threshold.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/adaptive_cases.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

int border_index(int i, int size, bool replicate) {
    if (replicate) return i < 0 ? 0 : i >= size ? size - 1 : i;
    return i < 0 ? -i : i >= size ? 2 * (size - 1) - i : i;
}

AdaptiveParams params(AdaptiveMethod method, double k, double offset = 0) {
    AdaptiveSpec spec;
    spec.method = method;
    spec.window = 3;  // n = 9
    spec.k = k;
    spec.offset = offset;
    return adaptive_params(spec);
}

// Every pixel from sums over its window, read sample by sample.
ImageU8 brute_adaptive(const ImageU8& src, const AdaptiveSpec& spec) {
    const int W = src.width(), H = src.height(), C = src.channels(), r = spec.window / 2;
    const bool replicate = spec.method == AdaptiveMethod::Mean;
    ImageU8 out(W, H, threshold_output_channels(C));
    const AdaptiveParams p = adaptive_params(spec);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            unsigned long long sum = 0, squares = 0;
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx) {
                    const int v = intensity_of(&src.row(border_index(y + dy, H, replicate))[border_index(x + dx, W, replicate) * C], C);
                    sum += static_cast<unsigned>(v);
                    squares += static_cast<unsigned>(v * v);
                }
            out.at(x, y, 0) = static_cast<std::uint8_t>(adaptive_decision(intensity_of(&src.row(y)[x * C], C), sum, squares, p));
            if (out.channels() == 2) out.at(x, y, 1) = src.at(x, y, C - 1);
        }
    return out;
}

ImageU8 run(const ImageU8& src, const AdaptiveSpec& spec) {
    ImageU8 out(src.width(), src.height(), threshold_output_channels(src.channels()));
    cpu::adaptive_threshold(src.view(), out.view(), spec);
    return out;
}

}  // namespace

TEST_CASE("adaptive threshold: the tables' window sums are the window's, at every border, for every method") {
    const int runs = test::for_each_adaptive_case({{1, 1}, {1, 9}, {9, 1}, {5, 5}, {17, 13}, {31, 33}, {64, 7}}, {1, 3, 5, 7},
                                                  [](const ImageU8& img, const AdaptiveSpec& spec) {
                                                      IMGPAR_CHECK_IMAGES_EQUAL(brute_adaptive(img, spec), run(img, spec));
                                                  });
    CHECK(runs > 200);
}

TEST_CASE("adaptive threshold: the single-precision shortcut decides every pixel as the reference does") {
    // Windows of real samples (so the sums are consistent), every v, and
    // levels pushed onto integers (k = 0: the level is the mean, an integer
    // whenever the sum is a multiple of n): where the shortcut's estimate is
    // too close to call it must defer to the double reference.
    std::uint32_t state = 12345;
    const auto next = [&state] { return state = state * 1664525u + 1013904223u; };
    long long compared = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int window = 1 + 2 * static_cast<int>(next() % 32);  // 1 .. 63
        const int n = window * window;
        const int base = static_cast<int>(next() % 256), spread = static_cast<int>(next() % 256);
        unsigned long long sum = 0, squares = 0;
        for (int i = 0; i < n; ++i) {
            const int v = std::min(255, base + static_cast<int>(next() % (spread + 1)) * (trial % 3 == 0 ? 0 : 1));
            sum += static_cast<unsigned long long>(v);
            squares += static_cast<unsigned long long>(v) * static_cast<unsigned long long>(v);
        }
        for (AdaptiveMethod m : {AdaptiveMethod::Mean, AdaptiveMethod::Sauvola, AdaptiveMethod::Niblack})
            for (double k : {0.0, 0.2, -0.3, 0.5, 2.0, -10.0, 10.0}) {
                AdaptiveSpec spec;
                spec.method = m;
                spec.window = window;
                spec.k = k;
                spec.offset = trial % 7 - 3;
                const AdaptiveParams p = adaptive_params(spec);
                for (int v = 0; v < 256; ++v) {
                    if (adaptive_decision_fast(v, sum, squares, p) != adaptive_decision(v, sum, squares, p)) {
                        FAIL_CHECK("v=" << v << " sum=" << sum << " squares=" << squares << " n=" << n << " k=" << k
                                        << " method=" << adaptive_method_name(m));
                    }
                    ++compared;
                }
            }
    }
    CHECK(compared == 3000LL * 3 * 7 * 256);
}

TEST_CASE("adaptive threshold: the levels are OpenCV's mean - C and scikit-image's Sauvola and Niblack") {
    AdaptiveParams p = params(AdaptiveMethod::Mean, 0.2, 3);
    // mean 103 (927 / 9): level 100 with C = 3 (and C = 2.5, rounded up as OpenCV does).
    CHECK(adaptive_decision(100, 927, 0, p) == 0);
    CHECK(adaptive_decision(101, 927, 0, p) == 255);
    p.offset = 0;
    CHECK(adaptive_decision(103, 926, 0, p) == 0);    // 102.9 rounds to 103
    CHECK(adaptive_decision(103, 922, 0, p) == 255);  // 102.4 rounds to 102
    // Niblack and Sauvola against the formulas in long double, away from ties.
    for (const double k : {-0.4, 0.2, 0.5})
        for (unsigned long long sum : {90ull, 900ull, 2000ull})
            for (unsigned long long squares : {sum * sum / 9 + 50, sum * sum / 9 + 5000}) {
                const long double m = sum / 9.0L;
                const long double s = std::sqrt(std::max(0.0L, (9.0L * squares - (long double)sum * sum) / 81.0L));
                const long double niblack = m - k * s, sauvola = m * (1 + k * (s / 128 - 1));
                for (int v = 0; v < 256; ++v) {
                    CAPTURE(v);
                    if (std::fabs(v - niblack) > 1e-6)
                        CHECK(adaptive_decision(v, sum, squares, params(AdaptiveMethod::Niblack, k)) == (v > niblack ? 255 : 0));
                    if (std::fabs(v - sauvola) > 1e-6)
                        CHECK(adaptive_decision(v, sum, squares, params(AdaptiveMethod::Sauvola, k)) == (v > sauvola ? 255 : 0));
                }
            }
}

TEST_CASE("adaptive threshold: bad windows and mixed modes are usage errors naming the option") {
    const Operation& op = *find_operation("threshold");
    const auto error_of = [&](const std::vector<std::pair<std::string, std::string>>& values) -> std::string {
        try {
            (void)op.make_image_job(op.values(values));
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Usage);
            return e.what();
        }
        return "";
    };
    CHECK(error_of({{"adaptive", "mean"}}).find("--window") == 0);
    CHECK(error_of({{"adaptive", "mean"}, {"window", "4"}}).find("--window: 4 is not allowed") == 0);
    CHECK(error_of({{"adaptive", "mean"}, {"window", "15"}, {"otsu", ""}}).find("give exactly one") != std::string::npos);
    CHECK(error_of({{"adaptive", "sauvola"}, {"window", "15"}}).empty());
    // Larger than the image: a usage error from the run, naming the largest allowed.
    AdaptiveSpec spec;
    spec.window = 15;
    const ImageU8 small = test::photo_like_image(20, 9, 1);
    CHECK_THROWS_WITH_AS(run(small, spec), doctest::Contains("--window: 15 is larger than the 20x9 image (allowed: an odd W up to 9)"), Error);
}

TEST_CASE("adaptive threshold: a flat window's shortcut gives the general formula's level") {
    // adaptive_decision decides windows whose samples are all equal without
    // the square root: here the general formula, written out, on every value
    // of such windows and every v, with k near 0, 1 and beyond.
    long long compared = 0;
    for (int window : {1, 3, 15, 63})
        for (AdaptiveMethod m : {AdaptiveMethod::Sauvola, AdaptiveMethod::Niblack})
            for (double k : {0.0, 1e-17, 0.2, -0.3, 0.5, 1.0, 1.0 + 1e-15, 2.0, -10.0}) {
                AdaptiveSpec spec;
                spec.method = m;
                spec.window = window;
                spec.k = k;
                const AdaptiveParams p = adaptive_params(spec);
                const unsigned long long n = static_cast<unsigned long long>(p.n);
                for (unsigned long long c = 0; c < 256; ++c) {
                    const unsigned long long sum = n * c, squares = n * c * c;
                    const double mean = static_cast<double>(sum) / static_cast<double>(n);
                    const double s = std::sqrt(0.0);
                    const double level = m == AdaptiveMethod::Niblack
                                             ? mean - p.k * s
                                             : mean * (1.0 + p.k * (s / p.r - 1.0));
                    for (int v = 0; v < 256; ++v) {
                        CAPTURE(window);
                        CAPTURE(k);
                        CAPTURE(c);
                        CAPTURE(v);
                        REQUIRE(adaptive_decision(v, sum, squares, p) == (static_cast<double>(v) > level ? 255 : 0));
                        ++compared;
                    }
                }
            }
    CHECK(compared == 4LL * 2 * 9 * 256 * 256);
}

TEST_CASE("adaptive threshold: the mean test's linear bound decides as adaptive_mean_decision") {
    // Every v, offsets past the clamps, windows 1 to 63 (the tensor-core
    // kernel takes up to 17); the sums around each decision's edge and at
    // the ends, and for window 3 every sum.
    int checked = 0;
    for (int window : {1, 3, 5, 9, 15, 17, 31, 63}) {
        const std::int32_t n = window * window;
        for (int offset : {-100000, -300, -257, -256, -255, -7, -1, 0, 1, 3, 254, 255, 256, 257, 300, 100000}) {
            const std::int32_t base = adaptive_mean_bound_base(n, offset);
            for (int v = 0; v <= 255; ++v) {
                const long long t = v + static_cast<long long>(offset), edge = n * (2 * t - 1) / 2;
                std::vector<long long> sums = {0, 1, 255LL * n - 1, 255LL * n, static_cast<long long>(n) * v};
                for (long long d = -2; d <= 2; ++d) sums.push_back(edge + d);
                if (window == 3)
                    for (long long s = 0; s <= 255LL * n; ++s) sums.push_back(s);
                for (long long s : sums) {
                    if (s < 0 || s > 255LL * n) continue;
                    CAPTURE(window);
                    CAPTURE(offset);
                    CAPTURE(v);
                    CAPTURE(s);
                    REQUIRE(adaptive_mean_decision_linear(static_cast<std::int32_t>(s), v, n, base) ==
                            adaptive_mean_decision(static_cast<std::uint32_t>(s), v, n, offset));
                    ++checked;
                }
            }
        }
    }
    CHECK(checked > 1000000);
}
