// The vector code of the wide domain (images with alpha): the way in
// (src/ops/simd/wide_lanes: premultiplied 16-bit lanes) and out (the
// unpremultiplying sinks) against the contract's functions of wide_math.hpp,
// the division for every A around every quotient step and for every (P, a)
// of the kept-alpha case; the 16-bit lane rows of edges and custom kernels
// (src/ops/simd/wide_rows); and the whole filters on gray+alpha and RGBA
// against the reference suite's oracles for widths 1..70, single rows and
// columns, every border and alpha all 0, all 255 or mixed. Each under every
// instruction set the machine runs (for_each_simd_target).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "src/ops/filter.hpp"
#include "src/ops/simd/targets.hpp"
#include "src/ops/simd/wide_lanes.hpp"
#include "src/ops/simd/wide_rows.hpp"
#include "src/ops/wide_math.hpp"
#include "src/parallel.hpp"
#include "tests/support/filter_reference.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test;

namespace {

// Reports the first few differences and counts them.
struct Mismatches {
    long long count = 0;
    template <typename... Args>
    void add(const Args&... what) {
        if (++count > 5) return;
        std::ostringstream text;
        (text << ... << what);
        FAIL_CHECK(text.str());
    }
};

// Alpha of every pixel 0, every pixel 255, or mixed (test_image: transparent,
// opaque and partial regions, plus random alpha here and there).
enum class AlphaMix { Zero, Opaque, Mixed };
const char* mix_name(AlphaMix m) { return m == AlphaMix::Zero ? "alpha 0" : m == AlphaMix::Opaque ? "alpha 255" : "mixed alpha"; }

ImageU8 alpha_case(int w, int h, int channels, AlphaMix mix, unsigned seed) {
    ImageU8 img = test_image(w, h, channels, seed);
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            std::uint8_t& a = img.at(x, y, channels - 1);
            if (mix == AlphaMix::Zero) a = 0;
            else if (mix == AlphaMix::Opaque) a = 255;
            else if (rng() % 5 == 0) a = static_cast<std::uint8_t>(rng() % 256);
        }
    return img;
}

// Kernels whose sums fit 32 bits on the wide scale and kernels that need 64
// (sum |weights| * 65025 >= 2^31), several shapes and anchors, offsets that
// clip both ways.
std::vector<FilterPlan> wide_kernels(const Border& b) {
    CustomKernelOptions none, norm, shifted;
    norm.normalize = true;
    shifted.scale = -3.0;
    shifted.offset = 100.5;
    std::vector<FilterPlan> plans;
    plans.push_back(make_custom(matrix(1, 1, {2}), none, b));
    plans.push_back(make_custom(matrix(3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0}), none, b));
    plans.push_back(make_custom(matrix(2, 3, {1, -2, 0, 3.5, -0.25, 1}), shifted, b));
    std::vector<double> five(25);
    for (int t = 0; t < 25; ++t) five[static_cast<std::size_t>(t)] = (t * 7 % 5) - 1 + (t == 12 ? 20 : 0);
    plans.push_back(make_custom(matrix(5, 5, five), norm, b));
    FilterPlan corner = make_custom(matrix(3, 2, {1, 2, 3, -4, 5, -6}), shifted, b);
    corner.anchor_x = 0;
    corner.anchor_y = 1;
    plans.push_back(corner);
    plans.push_back(make_custom(matrix(3, 2, {300, -50, 7, 1, 2, -3}), shifted, b));  // large 32-bit sums
    plans.push_back(make_custom(matrix(2, 2, {10, 0, 0, 0.1}), norm, b));       // 40960 in 12 fractional bits
    plans.push_back(make_custom(matrix(3, 1, {-40000, 1, 2}), shifted, b));    // 64-bit sums
    plans.push_back(make_custom(matrix(3, 3, std::vector<double>(9, 0.0)), shifted, b));
    return plans;
}

// The sums' widest sample times sum |weights|: which path of wide_custom_rows
// the kernel takes (32-bit lanes below 2^31, else double lanes).
long long widest_sum(const FilterPlan& p) {
    long long total = 0;
    for (const std::int32_t k : p.coeffs) total += std::llabs(static_cast<long long>(k));
    return total * kWideTop;
}

std::vector<ImageU8> alpha_cases(int channels, AlphaMix mix, int height, unsigned& seed) {
    std::vector<ImageU8> images;
    for (int w = 1; w <= 70; w += (mix == AlphaMix::Mixed ? 1 : 7)) images.push_back(alpha_case(w, height, channels, mix, seed++));
    for (int h : {1, 5, 23}) images.push_back(alpha_case(1, h, channels, mix, seed++));
    images.push_back(alpha_case(45, 1, channels, mix, seed++));
    return images;
}

}  // namespace

TEST_CASE("wide simd: the sinks' division equals unpremultiply_filtered for every A at every quotient step") {
    simd::for_each_simd_target([&](const std::string& target) {
        INFO("instruction set ", target);
        // Gray+alpha lanes (P, A): for each A, the P on either side of each
        // step of (510 P + A) / (2 A) up to past the clip at 255, and the ends.
        std::vector<std::int32_t> values;
        std::vector<std::uint8_t> got, want;
        Mismatches wrong;
        for (int a = 0; a <= kWideTop; ++a) {
            values.clear();
            const auto add = [&](long long p) {
                if (p < 0 || p > kWideTop) return;
                values.push_back(static_cast<std::int32_t>(p));
                values.push_back(a);
            };
            add(0);
            add(kWideTop);
            for (long long k = 0; k <= 258; ++k) {
                const long long first = ((2 * k - 1) * a + 509) / 510;  // the least P with quotient >= k
                add(first - 1);
                add(first);
            }
            const std::size_t pixels = values.size() / 2;
            got.assign(2 * pixels, 0);
            want.assign(2 * pixels, 0);
            simd::filtered_row_bytes(values.data(), 2, pixels, got.data());
            for (std::size_t x = 0; x < pixels; ++x) simd::filtered_pixel_bytes(&values[2 * x], 2, &want[2 * x]);
            for (std::size_t t = 0; t < got.size(); ++t)
                if (got[t] != want[t]) wrong.add("A ", a, " P ", values[t & ~std::size_t{1}], ": byte ", t % 2, " ", int(got[t]), " instead of ", int(want[t]));
        }
        CHECK(wrong.count == 0);
    });
}

TEST_CASE("wide simd: the kept-alpha division equals unpremultiply_wide for every P and alpha byte") {
    simd::for_each_simd_target([&](const std::string& target) {
        INFO("instruction set ", target);
        simd::KeptAlpha k;
        k.lanes = 1;
        k.channels = 2;
        std::vector<std::int32_t> values(kWideTop + 1);
        for (int p = 0; p <= kWideTop; ++p) values[static_cast<std::size_t>(p)] = p;
        std::vector<std::uint8_t> src(2 * values.size()), got(2 * values.size());
        Mismatches wrong;
        for (int a = 0; a <= 255; ++a) {
            for (std::size_t x = 0; x < values.size(); ++x) {
                src[2 * x] = static_cast<std::uint8_t>(x * 7);
                src[2 * x + 1] = static_cast<std::uint8_t>(a);
            }
            simd::kept_row_bytes(k, values.data(), src.data(), values.size(), got.data());
            for (std::size_t x = 0; x < values.size(); ++x) {
                const int want = unpremultiply_wide(values[x], alpha_wide(a));
                if (got[2 * x] != want || got[2 * x + 1] != a)
                    wrong.add("a ", a, " P ", values[x], ": ", int(got[2 * x]), ",", int(got[2 * x + 1]), " instead of ", want);
            }
        }
        CHECK(wrong.count == 0);
    });
}

TEST_CASE("wide simd: rows of lanes and sinks equal the per-pixel functions at every length, layout and unsharp setting") {
    simd::for_each_simd_target([&](const std::string& target) {
        INFO("instruction set ", target);
        std::mt19937 rng(7);
        Mismatches wrong;
        for (int channels : {2, 4})
            for (std::size_t pixels = 1; pixels <= 70; ++pixels) {
                std::vector<std::uint8_t> src(pixels * channels);
                for (auto& b : src) b = static_cast<std::uint8_t>(rng() % 4 == 0 ? (rng() % 2) * 255 : rng() % 256);
                // In: every lane layout.
                for (simd::WideLanes lanes : {simd::WideLanes::Colours, simd::WideLanes::WithAlpha, simd::WideLanes::Luma}) {
                    if (lanes == simd::WideLanes::Luma && channels != 4) continue;
                    const int count = simd::wide_lane_count(lanes, channels);
                    std::vector<std::uint16_t> got(pixels * count + 1, 7), want(pixels * count + 1, 7);
                    simd::wide_lanes_row(lanes, src.data(), channels, pixels, got.data());
                    for (std::size_t x = 0; x < pixels; ++x)
                        simd::wide_pixel_lanes(lanes, &src[x * channels], channels, &want[x * count]);
                    if (got != want) wrong.add("lanes ", int(lanes), " channels ", channels, " pixels ", pixels);
                }
                // Out, filtered: P' and A' anywhere in 0..65025, A' often small.
                std::vector<std::int32_t> values(pixels * channels);
                for (auto& v : values) v = static_cast<std::int32_t>(rng() % 3 == 0 ? rng() % 400 : rng() % (kWideTop + 1));
                std::vector<std::uint8_t> got(pixels * channels + 1, 9), want(pixels * channels + 1, 9);
                simd::filtered_row_bytes(values.data(), channels, pixels, got.data());
                for (std::size_t x = 0; x < pixels; ++x)
                    simd::filtered_pixel_bytes(&values[x * channels], channels, &want[x * channels]);
                if (got != want) wrong.add("filtered channels ", channels, " pixels ", pixels);
                // Out, kept alpha: edges (any lanes) and unsharp (colour lanes).
                for (int lanes : {1, 3}) {
                    if (lanes == 3 && channels != 4) continue;
                    for (bool unsharp : {false, true}) {
                        if (unsharp && lanes != channels - 1) continue;
                        simd::KeptAlpha k;
                        k.lanes = lanes;
                        k.channels = channels;
                        k.unsharp = unsharp;
                        k.amount_q8 = static_cast<int>(rng() % 5121);
                        k.threshold_level = static_cast<int>(rng() % 3 == 0 ? 0 : rng() % 256);
                        std::vector<std::int32_t> v(pixels * lanes);
                        for (auto& e : v) e = static_cast<std::int32_t>(rng() % (kWideTop + 1));
                        std::vector<std::uint8_t> kg(pixels * (lanes + 1) + 1, 3), kw(pixels * (lanes + 1) + 1, 3);
                        simd::kept_row_bytes(k, v.data(), src.data(), pixels, kg.data());
                        for (std::size_t x = 0; x < pixels; ++x)
                            simd::kept_pixel_bytes(k, &v[x * lanes], &src[x * channels], &kw[x * (lanes + 1)]);
                        if (kg != kw)
                            wrong.add("kept lanes ", lanes, " channels ", channels, " unsharp ", unsharp, " amount_q8 ", k.amount_q8,
                                      " threshold ", k.threshold_level, " pixels ", pixels);
                    }
                }
            }
        CHECK(wrong.count == 0);
    });
}

TEST_CASE("wide simd: Gaussian, box and unsharp on gray+alpha and RGBA equal the references at widths 1..70, every border and alpha") {
    simd::for_each_simd_target([&](const std::string& target) {
        INFO("instruction set ", target);
        unsigned seed = 3;
        for (const Border& b : all_borders()) {
            const FilterPlan gauss = make_gaussian(1.2, 3, b), box = make_box(2, b);
            const FilterPlan sharp = make_unsharp(1.0, 2, 1.5, 0.02, b);
            for (int ch : {2, 4})
                for (AlphaMix mix : {AlphaMix::Zero, AlphaMix::Opaque, AlphaMix::Mixed}) {
                    for (const ImageU8& img : alpha_cases(ch, mix, 2, seed)) {
                        INFO("border ", border_name(b), " channels ", ch, " ", mix_name(mix), " size ", img.width(), "x", img.height());
                        IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(img, gauss), cpu::apply_filter(gauss, img.view()));
                        IMGPAR_CHECK_IMAGES_EQUAL(ref_box(img, box), cpu::apply_filter(box, img.view()));
                        IMGPAR_CHECK_IMAGES_EQUAL(ref_unsharp(img, sharp), cpu::apply_filter(sharp, img.view()));
                    }
                }
        }
    });
}

TEST_CASE("wide simd: the edge magnitude equals edge_output_wide on both sides of every rounding boundary") {
    simd::for_each_simd_target([&](const std::string& target) {
        INFO("instruction set ", target);
        std::mt19937 rng(13);
        for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr}) {
            const long long d = op == EdgeOperator::Scharr ? 16 : 4, g = d * kWideTop;  // the largest |gx|, |gy|
            std::vector<std::int32_t> gx, gy;
            const auto add = [&](long long x, long long y) {
                gx.push_back(static_cast<std::int32_t>(x));
                gy.push_back(static_cast<std::int32_t>(y));
            };
            // The boundaries: sqrt(m) = b = d (k - 1/2); m = b^2 (a tie, up),
            // b^2 + 1, and the largest m below b^2 that is (b - 1)^2 + y^2.
            for (long long k = 1; k <= kWideTop + 1; ++k) {
                const long long b = d * (2 * k - 1) / 2;
                add(b, 0);
                add(-b, 1);
                long long y = static_cast<long long>(std::sqrt(static_cast<double>(2 * b - 2)));
                while ((b - 1) * (b - 1) + y * y >= b * b) --y;
                while ((b - 1) * (b - 1) + (y + 1) * (y + 1) < b * b) ++y;
                add(y, b - 1);
            }
            for (int i = 0; i < 200000; ++i) {
                const long long x = static_cast<long long>(rng() % (2 * g + 1)) - g, y = static_cast<long long>(rng() % (2 * g + 1)) - g;
                add(x, y);
            }
            add(g, g);
            add(-g, -g);
            std::vector<std::int32_t> got(gx.size());
            simd::wide_edge_magnitudes(op, gx.data(), gy.data(), gx.size(), got.data());
            Mismatches wrong;
            for (std::size_t t = 0; t < gx.size(); ++t) {
                const int want = edge_output_wide(op, gx[t], gy[t]);
                if (got[t] != want) wrong.add(edge_operator_name(op), " gx ", gx[t], " gy ", gy[t], ": ", got[t], " instead of ", want);
            }
            CHECK(wrong.count == 0);
        }
    });
}

TEST_CASE("wide simd: edges on gray+alpha and RGBA equal the reference at widths 1..70, every operator, border and alpha") {
    simd::for_each_simd_target([&](const std::string& target) {
        INFO("instruction set ", target);
        unsigned seed = 17;
        for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian})
            for (const Border& b : all_borders())
                for (bool gray : {false, true}) {
                    const FilterPlan p = make_edges(op, gray, b);
                    for (int ch : {2, 4})
                        for (AlphaMix mix : {AlphaMix::Zero, AlphaMix::Opaque, AlphaMix::Mixed})
                            for (const ImageU8& img : alpha_cases(ch, mix, 3, seed)) {
                                INFO(edge_operator_name(op), gray ? " gray" : "", " border ", border_name(b), " channels ", ch, " ",
                                     mix_name(mix), " size ", img.width(), "x", img.height());
                                IMGPAR_CHECK_IMAGES_EQUAL(ref_edges(img, p), cpu::apply_filter(p, img.view()));
                            }
                }
    });
}

TEST_CASE("wide simd: custom kernels on gray+alpha and RGBA equal the oracle at widths 1..70, 32- and 64-bit sums, every border and alpha") {
    simd::for_each_simd_target([&](const std::string& target) {
        INFO("instruction set ", target);
        int int32_sums = 0, double_sums = 0;
        for (const FilterPlan& p : wide_kernels(Border{})) (widest_sum(p) <= 0x7fffffffLL ? int32_sums : double_sums) += 1;
        CHECK(int32_sums >= 5);  // both paths of wide_custom_rows
        CHECK(double_sums == 2);
        unsigned seed = 23;
        for (const Border& b : all_borders())
            for (const FilterPlan& p : wide_kernels(b))
                for (int ch : {2, 4})
                    for (AlphaMix mix : {AlphaMix::Zero, AlphaMix::Opaque, AlphaMix::Mixed})
                        for (const ImageU8& img : alpha_cases(ch, mix, 2, seed)) {
                            INFO("kernel ", p.kernel_width, "x", p.kernel_height, " anchor ", p.anchor_x, ",", p.anchor_y, " border ",
                                 border_name(b), " channels ", ch, " ", mix_name(mix), " size ", img.width(), "x", img.height());
                            IMGPAR_CHECK_IMAGES_EQUAL(ref_custom_plan(img, p), cpu::apply_filter(p, img.view()));
                        }
    });
}

TEST_CASE("wide simd: edges and custom kernels with alpha whatever rows each thread's band starts at") {
    simd::for_each_simd_target([&](const std::string& target) {
        INFO("instruction set ", target);
        const ImageU8 rgba = photo_like_image(300, 200, 4, 3), ga = photo_like_image(301, 230, 2, 4);
        for (const char* border : {"replicate", "reflect101", "wrap", "constant:40"}) {
            const Border b = parse_border(border);
            const FilterPlan sobel = make_edges(EdgeOperator::Sobel, false, b), scharr = make_edges(EdgeOperator::Scharr, true, b);
            const FilterPlan kernel = wide_kernels(b)[3];
            const ImageU8 want_sobel = ref_edges(rgba, sobel), want_scharr = ref_edges(ga, scharr);
            const ImageU8 want_custom = ref_custom_plan(rgba, kernel);
            for (int threads : {1, 2, 3, 7}) {
                set_cpu_thread_count(threads);
                INFO("border ", border, " threads ", threads);
                IMGPAR_CHECK_IMAGES_EQUAL(want_sobel, cpu::apply_filter(sobel, rgba.view()));
                IMGPAR_CHECK_IMAGES_EQUAL(want_scharr, cpu::apply_filter(scharr, ga.view()));
                IMGPAR_CHECK_IMAGES_EQUAL(want_custom, cpu::apply_filter(kernel, rgba.view()));
            }
        }
        set_cpu_thread_count(0);
    });
}
