// The filters on 16-bit images (the 16-bit contract in src/ops/filter.hpp):
// the CPU reference against a brute-force reference written from the contract
// (tests/support/filter_reference_u16.hpp) at odd sizes, every channel count
// and border rule; the Gaussian and box against float64; the 16-bit taps; the
// job keeping the sample type.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "src/op/operation.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_ops.hpp"
#include "src/ops/filter_u16_math.hpp"
#include "tests/support/filter_reference_u16.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test;

namespace {

CustomKernelOptions opts(bool normalize, std::optional<double> scale = {}, std::optional<double> offset = {},
                         bool flip = false) {
    CustomKernelOptions o;
    o.normalize = normalize;
    o.scale = scale;
    o.offset = offset;
    o.flip = flip;
    return o;
}

std::vector<FilterPlan> plans_u16(const Border& b) {
    return {make_gaussian(0.5, 0, b),
            make_gaussian(1.0, 0, b),
            make_gaussian(2.5, 0, b),
            make_gaussian(3.0, 20, b),  // radius past the small images
            make_unsharp(1.5, 0, 1.2, 0.02, b),
            make_unsharp(1.0, 0, 20.0, 0.0, b),
            make_box(1, b),
            make_box(4, b),
            make_box(12, b),  // a window past the small images
            make_custom(matrix(3, 3, {0.1, 0.2, 0.3, -0.4, 1.7, 0, 0.33, 0, 0}), opts(false, {}, 12.5, true), b),
            make_custom(matrix(4, 6, {1, -2, 3, 0, 2, 2, -1, 1, 0, 4, 1, 1, -3, 2, 1, 0, 1, 1, 1, 2, 0.5, 0.25, -1, 3}),
                        opts(true), b),
            make_custom(matrix(1, 5, {-1, 0, 2, 0, 1}), opts(false, -3.0, 100.0), b),
            make_edges(EdgeOperator::Sobel, false, b),
            make_edges(EdgeOperator::Scharr, true, b),
            make_edges(EdgeOperator::Scharr, false, b),
            make_edges(EdgeOperator::Laplacian, false, b),
            make_edges(EdgeOperator::Laplacian, true, b)};
}

const std::vector<std::pair<int, int>>& sizes_u16() {
    static const std::vector<std::pair<int, int>> s = {{1, 1},   {1, 7},  {7, 1},  {2, 3},
                                                       {13, 11}, {31, 8}, {33, 9}, {17, 29}};
    return s;
}

}  // namespace

TEST_CASE("16-bit filters: the CPU against the brute-force reference, every plan kind, channel count and border") {
    int cases = 0;
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : sizes_u16()) {
            const ImageU16 src = random_u16(w, h, c, static_cast<unsigned>(w * 131 + h * 7 + c));
            for (const Border& b : all_borders())
                for (const FilterPlan& p : plans_u16(b)) {
                    INFO(p.describe(), " | ", w, "x", h, " ", channel_layout_name(c));
                    const ImageU16 expect = ref16::filter(src, p);
                    const ImageU16 got = cpu::apply_filter(p, src.view());
                    IMGPAR_CHECK_IMAGES_EQUAL(expect, got);
                    ++cases;
                }
        }
    CHECK(cases == 4 * 8 * 6 * 17);
}

TEST_CASE("16-bit filters: constant images stay constant (Gaussian, box) at 0, 1, 257, 65534 and 65535") {
    for (int c = 1; c <= 4; ++c)
        for (int v : {0, 1, 257, 40000, 65534, 65535}) {
            ImageU16 src(9, 6, c);
            src.fill(static_cast<std::uint16_t>(v));
            for (const FilterPlan& p : {make_gaussian(2.0, 0, Border{}), make_box(3, Border{}),
                                        make_gaussian(1.0, 0, parse_border("reflect101"))}) {
                const ImageU16 got = cpu::apply_filter(p, src.view());
                // With alpha, colour comes back through round(65535 P / A):
                // exactly v, and alpha v; alpha 0 makes colour 0.
                for (int y = 0; y < 6; ++y)
                    for (int x = 0; x < 9; ++x)
                        for (int k = 0; k < c; ++k) {
                            const int want = has_alpha(c) && k < c - 1 && v == 0 ? 0 : v;
                            REQUIRE(got.at(x, y, k) == want);
                        }
            }
        }
}

TEST_CASE("16-bit filters: the constant border reads 257 V") {
    ImageU16 src(5, 5, 1);
    src.fill(0);
    const ImageU16 got = cpu::apply_filter(make_box(1, parse_border("constant:255")), src.view());
    // The corner's window holds five border samples of 65535 and four of 0.
    CHECK(got.at(0, 0, 0) == (5 * 65535 + 4) / 9);
    CHECK(got.at(2, 2, 0) == 0);
}

TEST_CASE("16-bit Gaussian taps: symmetric, non-negative, summing to 65536, close to the sampled Gaussian") {
    for (double sigma : {0.3, 0.5, 1.0, 2.0, 5.0, 20.0, 50.0}) {
        const FilterPlan p = make_gaussian(sigma, 0, Border{});
        const std::vector<std::int32_t> t = gaussian_taps16(p);
        REQUIRE(t.size() == p.taps.size());
        long long sum = 0;
        double total = 0;
        const int r = p.radius;
        for (int i = -r; i <= r; ++i) total += std::exp(-static_cast<double>(i) * i / (2 * sigma * sigma));
        for (int i = -r; i <= r; ++i) {
            const std::int32_t v = t[static_cast<std::size_t>(i + r)];
            CHECK(v >= 0);
            CHECK(v == t[static_cast<std::size_t>(r - i)]);
            sum += v;
            const double ideal = 65536.0 * std::exp(-static_cast<double>(i) * i / (2 * sigma * sigma)) / total;
            // Largest-remainder rounding keeps pairs together: the centre
            // may take two units, a pair one each.
            INFO("sigma ", sigma, " tap ", i);
            CHECK(std::abs(v - ideal) <= (i == 0 ? 2.0 : 1.0));
        }
        CHECK(sum == 65536);
    }
}

TEST_CASE(
    "16-bit Gaussian and box against float64: within a level of the same taps, within the stated bound of the "
    "ideal Gaussian") {
    for (int c : {1, 3}) {
        const ImageU16 src = random_u16(37, 23, c, 99u + static_cast<unsigned>(c));
        for (double sigma : {0.8, 2.0, 4.0}) {
            const FilterPlan p = make_gaussian(sigma, 0, parse_border("reflect101"));
            const std::vector<std::int32_t> t = gaussian_taps16(p);
            const int r = p.radius, w = src.width(), h = src.height();
            // The ideal normalised Gaussian and the taps' distance from it.
            std::vector<double> g(t.size());
            double total = 0, dist = 0;
            for (int i = -r; i <= r; ++i)
                total += g[static_cast<std::size_t>(i + r)] = std::exp(-0.5 * i * i / (sigma * sigma));
            for (std::size_t i = 0; i < g.size(); ++i) {
                g[i] /= total;
                dist += std::abs(t[i] / 65536.0 - g[i]);
            }
            const ImageU16 got = cpu::apply_filter(p, src.view());
            double worst_same = 0, worst_ideal = 0;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    for (int k = 0; k < c; ++k) {
                        double same = 0, ideal = 0;
                        for (int j = -r; j <= r; ++j)
                            for (int i = -r; i <= r; ++i) {
                                const double s = src.at(fold(x + i, w, BorderMode::Reflect101),
                                                        fold(y + j, h, BorderMode::Reflect101), k);
                                same += t[static_cast<std::size_t>(i + r)] / 65536.0 *
                                        (t[static_cast<std::size_t>(j + r)] / 65536.0) * s;
                                ideal += g[static_cast<std::size_t>(i + r)] * g[static_cast<std::size_t>(j + r)] * s;
                            }
                        worst_same = std::max(worst_same, std::abs(got.at(x, y, k) - same));
                        worst_ideal = std::max(worst_ideal, std::abs(got.at(x, y, k) - ideal));
                    }
            INFO("sigma ", sigma, " taps' distance ", dist);
            CHECK(worst_same <= 1.0);
            CHECK(worst_ideal <= 1.0 + 2 * 65535.0 * dist);
        }
        const ImageU16 box = cpu::apply_filter(make_box(2, Border{}), src.view());
        for (int y = 0; y < src.height(); ++y)
            for (int x = 0; x < src.width(); ++x)
                for (int k = 0; k < c; ++k) {
                    double mean = 0;
                    for (int j = -2; j <= 2; ++j)
                        for (int i = -2; i <= 2; ++i)
                            mean += src.at(fold(x + i, src.width(), BorderMode::Replicate),
                                           fold(y + j, src.height(), BorderMode::Replicate), k);
                    mean /= 25.0;
                    REQUIRE(std::abs(box.at(x, y, k) - mean) <= 0.5);
                }
    }
}

TEST_CASE("16-bit filters with alpha keep colour at alphas 1 to 3: round(65535 P / A) of exact premultiplied lanes") {
    // A flat colour under a tiny alpha comes back within a level (the two
    // roundings of P' and A'), not the few levels a 16-bit premultiply keeps.
    for (int c : {2, 4}) {
        ImageU16 src(11, 7, c);
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 11; ++x) {
                for (int k = 0; k < c - 1; ++k) src.at(x, y, k) = static_cast<std::uint16_t>(12345 + 1000 * k);
                src.at(x, y, c - 1) = static_cast<std::uint16_t>(1 + (x + y) % 3);
            }
        for (const FilterPlan& p : {make_gaussian(1.5, 0, Border{}), make_box(2, Border{})}) {
            const ImageU16 got = cpu::apply_filter(p, src.view());
            for (int y = 0; y < 7; ++y)
                for (int x = 0; x < 11; ++x)
                    for (int k = 0; k < c - 1; ++k) REQUIRE(std::abs(got.at(x, y, k) - (12345 + 1000 * k)) <= 1);
        }
    }
}

TEST_CASE("16-bit filter jobs: take u16, keep the sample type in the output shape, name the CPU kernel") {
    for (const char* name : {"blur", "box", "sharpen", "edges", "convolve"}) {
        const Operation* op = find_operation(name);
        REQUIRE(op != nullptr);
        std::vector<std::pair<std::string, std::string>> given;
        if (std::string(name) == "convolve") given = {{"kernel", "1 2 1; 2 4 2; 1 2 1"}, {"normalize", ""}};
        const auto job = op->make_image_job(op->values(given));
        CHECK(job->takes_u16());
        const ImageShape in{9, 4, 4, SampleType::U16};
        CHECK(job->output_shape(in).type == SampleType::U16);
        CHECK(job->output_shape(ImageShape{9, 4, 3, SampleType::U8}).type == SampleType::U8);
        const ImageU16 src = random_u16(9, 4, 4, 5);
        RunNotes notes;
        const ImageU16 out = job->run_cpu(src.view(), notes);
        CHECK(out.width() == 9);
        CHECK(notes.kernel.find("16-bit") != std::string::npos);
        const auto* fj = dynamic_cast<const FilterJob*>(job.get());
        REQUIRE(fj != nullptr);
        IMGPAR_CHECK_IMAGES_EQUAL(ref16::filter(src, fj->plan()), out);
    }
}

TEST_CASE("16-bit filters: a shape mismatch is a usage error; filtering in place reads the source first") {
    const ImageU16 src = random_u16(6, 5, 3, 3);
    ImageU16 wrong(6, 4, 3);
    CHECK_THROWS(cpu::apply_filter(make_box(1, Border{}), src.view(), wrong.view()));
    ImageU16 inplace = ImageU16::copy_of(src.view());
    const FilterPlan p = make_gaussian(1.0, 0, Border{});
    cpu::apply_filter(p, inplace.cview(), inplace.view());
    IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_filter(p, src.view()), inplace);
}

TEST_CASE("16-bit edge magnitudes: the 128-bit rounded square root at every rounding edge, against a search") {
    // m on both sides of each edge (2k +- 1)^2 d^2 / 4 for k across the whole
    // wide range (up to 65535^2, where 4m passes 2^64), and m = 0.
    std::mt19937_64 rng(7);
    for (int d : {4, 16})
        for (int t = 0; t < 4000; ++t) {
            const long long k = t == 0 ? 0 : static_cast<long long>(rng() % (65535ull * 65535ull + 2));
            const test::ref16::u128 edge = static_cast<test::ref16::u128>(2 * k + 1) * (2 * k + 1) * d * d;
            for (int delta = -2; delta <= 2; ++delta) {
                using test::ref16::u128;
                const u128 base = edge / 4, step = static_cast<u128>(delta < 0 ? -delta : delta);
                const u128 m = delta >= 0 ? base + step : (base >= step ? base - step : 0);
                const long long top = 65535LL * 65535LL;
                CHECK(static_cast<long long>(round_sqrt_div128(m, d, static_cast<std::uint64_t>(top))) ==
                      test::ref16::round_sqrt(m, d, top));
            }
        }
    CHECK(edge_output_wide16(EdgeOperator::Sobel, 4 * 4294836225LL, 4 * 4294836225LL) == 4294836225ull);
    CHECK(edge_output16(EdgeOperator::Scharr, 16 * 65535, -16 * 65535) == 65535);
    CHECK(edge_output16(EdgeOperator::Sobel, 3, 4) == 1);  // sqrt(25) / 4 = 1.25
    CHECK(edge_output16(EdgeOperator::Sobel, 6, 0) == 2);  // 1.5: ties up
}

TEST_CASE("16-bit unsharp: the threshold in 16-bit levels, ceil(threshold x 65535), compared with 2|d|") {
    CHECK(threshold_level16(0.0) == 0);
    CHECK(threshold_level16(0.05) == 3277);  // 3276.75
    CHECK(threshold_level16(0.2) == 13107);  // an exact product is not rounded up
    CHECK(threshold_level16(1.0) == 65535);
    // Steps around the threshold's size, against the reference.
    for (int step : {1000, 1638, 1639, 3277, 3278, 6554}) {
        ImageU16 src(9, 1, 1);
        for (int x = 0; x < 9; ++x) src.at(x, 0, 0) = static_cast<std::uint16_t>(x < 4 ? 30000 : 30000 + step);
        const FilterPlan p = make_unsharp(0.3, 1, 1.0, 0.05, Border{});
        const ImageU16 got = cpu::apply_filter(p, src.view());
        IMGPAR_CHECK_IMAGES_EQUAL(ref16::filter(src, p), got);
    }
}

TEST_CASE("16-bit Gaussian and unsharp across the CPU's bands of rows (64, or 4r past radius 16), every channel count") {
    for (int c = 1; c <= 4; ++c)
        for (int h : {63, 64, 65, 129, 161, 250}) {
            const ImageU16 src = random_u16(3, h, c, static_cast<unsigned>(h * 5 + c));
            for (const Border& b : {parse_border("reflect"), parse_border("wrap"), parse_border("constant:3")})
                for (const FilterPlan& p : {make_gaussian(1.5, 0, b), make_gaussian(6.0, 0, b), make_gaussian(1.0, 40, b),
                                            make_unsharp(2.0, 0, 1.5, 0.01, b)}) {
                    INFO(p.describe(), " | 3x", h, " ", channel_layout_name(c));
                    IMGPAR_CHECK_IMAGES_EQUAL(ref16::filter(src, p), cpu::apply_filter(p, src.view()));
                }
        }
}

TEST_CASE("16-bit filters on strided views: a window of a larger image, into a window of another, as a packed copy") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU16 big = random_u16(41, 23, c, 77u + static_cast<unsigned>(c));
        const ConstViewU16 window = big.view().sub(3, 2, 29, 17);  // stride > row bytes
        const ImageU16 packed = ImageU16::copy_of(window);
        for (const FilterPlan& p : plans_u16(parse_border("reflect101"))) {
            ImageU16 canvas(37, 20, p.output_channels(c));
            canvas.fill(0xBEEF);
            const ViewU16 out = canvas.view().sub(5, 1, 29, 17);
            cpu::apply_filter(p, window, out);
            INFO(p.describe(), " ", channel_layout_name(c));
            IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_filter(p, packed.view()), ImageU16::copy_of(out));
            // Outside the window the canvas is untouched.
            CHECK(canvas.at(4, 1, 0) == 0xBEEF);
            CHECK(canvas.at(34, 18, 0) == 0xBEEF);
            CHECK(canvas.at(5, 0, 0) == 0xBEEF);
        }
    }
}
