#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_math.hpp"
#include "tests/support/filter_support.hpp"

using namespace imgpar;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Runs f, which must throw a usage error whose text mentions every one of `words`.
void check_usage_error(const std::function<void()>& f, const std::vector<std::string>& words) {
    try {
        f();
        FAIL("expected a usage error mentioning ", words.front());
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        for (const std::string& w : words) {
            INFO("message: ", e.what(), "  expected word: ", w);
            CHECK(std::string(e.what()).find(w) != std::string::npos);
        }
    }
}

using test::matrix;

}  // namespace

TEST_CASE("gaussian_taps: exact sum, symmetric, non-negative, non-increasing, close to the ideal") {
    const double sigmas[] = {0.1, 0.2, 0.3, 0.5, 0.8, 1.0, 1.3, 2.0, 3.3, 5.0, 7.7, 10.0, 15.0, 20.0, 33.3, 49.9, 50.0};
    int cases = 0;
    for (double sigma : sigmas) {
        const int auto_r = std::max(1, static_cast<int>(std::ceil(3 * sigma)));
        for (int r : {1, 2, 3, 5, auto_r, std::min(150, 2 * auto_r), 150}) {
            INFO("sigma ", sigma, " radius ", r);
            std::vector<std::int32_t> t = gaussian_taps(sigma, r);
            REQUIRE(t.size() == static_cast<std::size_t>(2 * r + 1));
            long long sum = 0;
            for (auto v : t) sum += v;
            CHECK(sum == kGaussianTapSum);
            double ideal_total = 0;
            for (int i = -r; i <= r; ++i) ideal_total += std::exp(-i * i / (2 * sigma * sigma));
            for (int i = 0; i <= r; ++i) {
                const std::size_t right = static_cast<std::size_t>(r + i), left = static_cast<std::size_t>(r - i);
                CHECK(t[left] == t[right]);
                CHECK(t[right] >= 0);
                if (i > 0) CHECK(t[right] <= t[right - 1]);
                double ideal = 4096 * std::exp(-i * i / (2 * sigma * sigma)) / ideal_total;
                CHECK(std::fabs(t[right] - ideal) < 2.0);  // floor plus at most two units
            }
            ++cases;
        }
    }
    CHECK(cases > 100);
}

TEST_CASE("gaussian_taps: known values") {
    // sigma 0.1: the neighbours' weight is exp(-50), nothing survives quantisation.
    CHECK(gaussian_taps(0.1, 1) == std::vector<std::int32_t>{0, 4096, 0});
    // A wide, nearly flat kernel must still peak at the centre.
    std::vector<std::int32_t> flat = gaussian_taps(50.0, 3);
    CHECK(flat[3] >= flat[2]);
    CHECK(flat[0] >= 580);
    // sigma 1, r 3: weights exp(-i^2/2) normalised; the ideal centre is 1634.6.
    std::vector<std::int32_t> t = gaussian_taps(1.0, 3);
    CHECK(t[3] >= 1633);
    CHECK(t[3] <= 1636);
}

TEST_CASE("make_gaussian: radius, taps and description") {
    FilterPlan p = make_gaussian(2.0, 0, Border{});
    CHECK(p.kind == FilterKind::Gaussian);
    CHECK(p.radius == 6);
    CHECK(p.taps.size() == 13);
    CHECK(p.taps == gaussian_taps(2.0, 6));
    CHECK(p.footprint_width() == 13);
    CHECK(p.footprint_height() == 13);
    CHECK(p.separable());
    CHECK(p.output_channels(3) == 3);
    CHECK(p.describe() == "gaussian sigma=2 radius=6 (13x13, separable), border replicate");

    CHECK(make_gaussian(0.1, 0, Border{}).radius == 1);
    CHECK(make_gaussian(0.34, 0, Border{}).radius == 2);
    CHECK(make_gaussian(50.0, 0, Border{}).radius == 150);
    CHECK(make_gaussian(1.0, 10, Border{}).radius == 10);
    CHECK(make_gaussian(20.0, 2, Border{}).radius == 2);
    Border b = parse_border("constant:9");
    CHECK(make_gaussian(1.5, 0, b).describe() == "gaussian sigma=1.5 radius=5 (11x11, separable), border constant:9");
}

TEST_CASE("make_gaussian: parameter validation") {
    for (double s : {0.0, -1.0, 50.0001, 1e9, kNaN, kInf, -kInf})
        check_usage_error([&] { make_gaussian(s, 0, Border{}); }, {"--sigma", "50"});
    for (int r : {-1, 151, 100000})
        check_usage_error([&] { make_gaussian(1.0, r, Border{}); }, {"--radius", "150"});
}

TEST_CASE("make_box") {
    FilterPlan p = make_box(3, Border{});
    CHECK(p.kind == FilterKind::Box);
    CHECK(p.radius == 3);
    CHECK(p.footprint_width() == 7);
    CHECK(p.footprint_height() == 7);
    CHECK(p.separable());
    CHECK(p.describe() == "box radius=3 (7x7, separable), border replicate");
    CHECK(make_box(1000, Border{}).footprint_width() == 2001);
    for (int r : {0, -1, 1001})
        check_usage_error([&] { make_box(r, Border{}); }, {"--radius", "1000"});
}

TEST_CASE("make_unsharp: fixed-point amount and threshold, validation") {
    FilterPlan p = make_unsharp(1.0, 0, 1.5, 0.02, Border{});
    CHECK(p.kind == FilterKind::Unsharp);
    CHECK(p.radius == 3);
    CHECK(p.taps == gaussian_taps(1.0, 3));
    CHECK(p.amount_q8 == 384);
    CHECK(p.threshold_level == 6);  // ceil(5.1): 2|d| < 5.1 means 2|d| < 6
    CHECK(p.separable());
    CHECK(p.describe().find("unsharp sigma=1 radius=3 amount=1.5 threshold=0.02") == 0);
    CHECK(make_unsharp(1.0, 0, 20.0, 1.0, Border{}).amount_q8 == 5120);
    CHECK(make_unsharp(1.0, 0, 20.0, 1.0, Border{}).threshold_level == 255);
    CHECK(make_unsharp(1.0, 0, 0.0, 0.0, Border{}).amount_q8 == 0);
    CHECK(make_unsharp(1.0, 0, 0.7, 0.5, Border{}).amount_q8 == 179);  // 179.2
    CHECK(make_unsharp(1.0, 0, 0.7, 0.5, Border{}).threshold_level == 128);  // ceil(127.5)
    CHECK(make_unsharp(1.0, 0, 1.0, 0.05, Border{}).threshold_level == 13);  // ImageMagick's default: ceil(12.75)
    CHECK(make_unsharp(1.0, 0, 1.0, 0.2, Border{}).threshold_level == 51);   // exactly 51, not 52

    for (double a : {-0.01, 20.01, kNaN, kInf})
        check_usage_error([&] { make_unsharp(1.0, 0, a, 0.0, Border{}); }, {"--amount", "20"});
    for (double t : {-0.01, 1.01, kNaN})
        check_usage_error([&] { make_unsharp(1.0, 0, 1.0, t, Border{}); }, {"--threshold", "1"});
    check_usage_error([&] { make_unsharp(0.0, 0, 1.0, 0.0, Border{}); }, {"--sigma"});
    check_usage_error([&] { make_unsharp(1.0, 151, 1.0, 0.0, Border{}); }, {"--radius"});
}

TEST_CASE("make_edges and edge operator names") {
    for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian})
        CHECK(parse_edge_operator(edge_operator_name(op)) == op);
    CHECK(std::string(edge_operator_name(EdgeOperator::Scharr)) == "scharr");
    check_usage_error([] { parse_edge_operator("canny"); }, {"canny", "sobel", "scharr", "laplacian"});
    check_usage_error([] { parse_edge_operator("Sobel"); }, {"sobel"});

    FilterPlan p = make_edges(EdgeOperator::Sobel, true, Border{});
    CHECK(p.kind == FilterKind::Edges);
    CHECK(p.footprint_width() == 3);
    CHECK(p.footprint_height() == 3);
    CHECK_FALSE(p.separable());
    CHECK(p.output_channels(1) == 1);
    CHECK(p.output_channels(2) == 2);
    CHECK(p.output_channels(3) == 1);
    CHECK(p.output_channels(4) == 2);
    CHECK(p.describe() == "edges sobel gray (3x3), border replicate");
    FilterPlan c = make_edges(EdgeOperator::Laplacian, false, parse_border("reflect101"));
    for (int ch = 1; ch <= 4; ++ch) CHECK(c.output_channels(ch) == ch);
    CHECK(c.describe() == "edges laplacian (3x3), border reflect101");
}

TEST_CASE("filter kind names") {
    CHECK(std::string(filter_kind_name(FilterKind::Gaussian)) == "gaussian");
    CHECK(std::string(filter_kind_name(FilterKind::Box)) == "box");
    CHECK(std::string(filter_kind_name(FilterKind::Unsharp)) == "unsharp");
    CHECK(std::string(filter_kind_name(FilterKind::Edges)) == "edges");
    CHECK(std::string(filter_kind_name(FilterKind::Custom)) == "custom");
}

TEST_CASE("make_custom: integer kernels, normalise, anchor, rank-1 hint") {
    KernelMatrix k = matrix(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1});
    FilterPlan p = make_custom(k, {}, Border{});
    CHECK(p.kind == FilterKind::Custom);
    CHECK(p.frac_bits == 0);
    CHECK(p.coeffs == std::vector<std::int32_t>{1, 2, 1, 2, 4, 2, 1, 2, 1});
    CHECK(p.scale == 1.0);
    CHECK(p.offset == 0.0);
    CHECK(p.anchor_x == 1);
    CHECK(p.anchor_y == 1);
    CHECK(p.separable_hint);
    CHECK_FALSE(p.separable());
    CHECK(p.footprint_width() == 3);
    CHECK_FALSE(p.flipped);

    CustomKernelOptions norm;
    norm.normalize = true;
    FilterPlan n = make_custom(k, norm, Border{});
    CHECK(n.scale == 16.0);
    CHECK(n.describe() == "custom correlation scale=16 offset=0 frac_bits=0 (3x3, rank 1), border replicate");

    FilterPlan lap = make_custom(matrix(3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0}), {}, Border{});
    CHECK_FALSE(lap.separable_hint);

    FilterPlan even = make_custom(matrix(4, 2, {1, 1, 1, 1, 1, 1, 1, 1}), {}, Border{});
    CHECK(even.anchor_x == 2);
    CHECK(even.anchor_y == 1);
    CHECK(even.footprint_width() == 4);
    CHECK(even.footprint_height() == 2);
}

TEST_CASE("make_custom: fixed-point choice") {
    // Dyadic coefficients: the fewest fractional bits that are exact.
    FilterPlan a = make_custom(matrix(3, 1, {0.25, 0.5, 0.25}), {}, Border{});
    CHECK(a.frac_bits == 2);
    CHECK(a.coeffs == std::vector<std::int32_t>{1, 2, 1});
    FilterPlan b = make_custom(matrix(2, 1, {-0.125, 3}), {}, Border{});
    CHECK(b.frac_bits == 3);
    CHECK(b.coeffs == std::vector<std::int32_t>{-1, 24});
    // Not representable: the most bits that keep sum |c| <= 65535.
    FilterPlan c = make_custom(matrix(3, 3, std::vector<double>(9, 0.1)), {}, Border{});
    CHECK(c.frac_bits == 12);
    CHECK(c.coeffs == std::vector<std::int32_t>(9, 410));  // round(409.6)
    FilterPlan d = make_custom(matrix(1, 1, {1000.3}), {}, Border{});
    CHECK(d.frac_bits == 6);  // 1000.3 * 64 = 64019.2; * 128 would exceed the limit
    CHECK(d.coeffs == std::vector<std::int32_t>{64019});
    // Exact at 1 bit but too large there; 0 bits (rounded) fits.
    FilterPlan e = make_custom(matrix(2, 1, {0.5, 40000}), {}, Border{});
    CHECK(e.frac_bits == 0);
    CHECK(e.coeffs == std::vector<std::int32_t>{1, 40000});  // 0.5 rounds away from zero
    // Integers right at the limit.
    FilterPlan f = make_custom(matrix(2, 1, {-60000, 5535}), {}, Border{});
    CHECK(f.frac_bits == 0);
    CHECK(f.coeffs == std::vector<std::int32_t>{-60000, 5535});
    // Exact 12-bit coefficients use all 12 bits.
    FilterPlan g = make_custom(matrix(1, 1, {1.0 / 4096}), {}, Border{});
    CHECK(g.frac_bits == 12);
    CHECK(g.coeffs == std::vector<std::int32_t>{1});
    // All-zero kernels are exact with 0 bits.
    FilterPlan z = make_custom(matrix(2, 2, {0, 0, 0, 0}), {}, Border{});
    CHECK(z.frac_bits == 0);

    check_usage_error([] { make_custom(matrix(2, 1, {-60000, 5536}), {}, Border{}); }, {"65535"});
    check_usage_error([] { make_custom(matrix(1, 1, {1e12}), {}, Border{}); }, {"65535"});
    check_usage_error([] { make_custom(matrix(2, 1, {1e-6, 2e-6}), {}, Border{}); }, {"too small", "--scale"});
}

TEST_CASE("make_custom: flip rotates 180 degrees") {
    KernelMatrix k = matrix(3, 2, {1, 2, 3, 4, 5, 6});
    CustomKernelOptions o;
    o.flip = true;
    FilterPlan p = make_custom(k, o, Border{});
    CHECK(p.flipped);
    CHECK(p.coeffs == std::vector<std::int32_t>{6, 5, 4, 3, 2, 1});
    CHECK(p.anchor_x == 1);
    CHECK(p.anchor_y == 1);
    CHECK(p.describe().find("custom convolution") == 0);
    FilterPlan q = make_custom(k, {}, Border{});
    CHECK(q.coeffs == std::vector<std::int32_t>{1, 2, 3, 4, 5, 6});
    CHECK(q.separable_hint == false);
}

TEST_CASE("make_custom: where scale and offset come from") {
    KernelMatrix k = matrix(3, 1, {1, 2, 1});
    k.scale = 8.0;
    k.offset = 10.0;
    FilterPlan file = make_custom(k, {}, Border{});
    CHECK(file.scale == 8.0);
    CHECK(file.offset == 10.0);

    CustomKernelOptions o;
    o.scale = 2.5;
    o.offset = -3.0;
    FilterPlan opt = make_custom(k, o, Border{});
    CHECK(opt.scale == 2.5);
    CHECK(opt.offset == -3.0);

    CustomKernelOptions n;
    n.normalize = true;
    FilterPlan norm = make_custom(k, n, Border{});
    CHECK(norm.scale == 4.0);   // the sum of the original coefficients, not the file's scale
    CHECK(norm.offset == 10.0);

    // Normalising uses the original coefficients, before fixed point.
    FilterPlan tenth = make_custom(matrix(3, 1, {0.1, 0.1, 0.1}), n, Border{});
    CHECK(tenth.scale == doctest::Approx(0.3).epsilon(1e-15));
    CHECK(tenth.scale != 3 * 410 / 4096.0);

    FilterPlan plain = make_custom(matrix(3, 1, {1, 2, 1}), {}, Border{});
    CHECK(plain.scale == 1.0);
    CHECK(plain.offset == 0.0);
}

TEST_CASE("make_custom: validation") {
    KernelMatrix ok = matrix(3, 1, {1, 2, 1});
    CustomKernelOptions both;
    both.normalize = true;
    both.scale = 2.0;
    check_usage_error([&] { make_custom(ok, both, Border{}); }, {"--normalize", "--scale"});

    CustomKernelOptions norm;
    norm.normalize = true;
    check_usage_error([&] { make_custom(matrix(3, 1, {-1, 0, 1}), norm, Border{}); }, {"sum", "--scale"});

    for (double s : {0.0, kNaN, kInf}) {
        CustomKernelOptions o;
        o.scale = s;
        check_usage_error([&] { make_custom(ok, o, Border{}); }, {"--scale", "non-zero"});
    }
    CustomKernelOptions bad_offset;
    bad_offset.offset = kNaN;
    check_usage_error([&] { make_custom(ok, bad_offset, Border{}); }, {"--offset"});

    KernelMatrix zero_scale = ok;
    zero_scale.scale = 0.0;
    check_usage_error([&] { make_custom(zero_scale, {}, Border{}); }, {"scale", "--scale"});
    CustomKernelOptions rescue;
    rescue.scale = 4.0;
    CHECK(make_custom(zero_scale, rescue, Border{}).scale == 4.0);

    check_usage_error([] { make_custom(matrix(0, 1, {}), {}, Border{}); }, {"1 to 63"});
    check_usage_error([] { make_custom(matrix(64, 1, std::vector<double>(64, 1.0)), {}, Border{}); }, {"63"});
    check_usage_error([] { make_custom(matrix(1, 64, std::vector<double>(64, 1.0)), {}, Border{}); }, {"63"});
    check_usage_error([] { make_custom(matrix(2, 2, {1, 2, 3}), {}, Border{}); }, {"4 values"});
    check_usage_error([] { make_custom(matrix(2, 1, {1, kNaN}), {}, Border{}); }, {"finite"});
    check_usage_error([] { make_custom(matrix(2, 1, {1, kInf}), {}, Border{}); }, {"finite"});

    // The largest kernel is fine.
    FilterPlan big = make_custom(matrix(63, 63, std::vector<double>(63 * 63, 1.0)), norm, Border{});
    CHECK(big.scale == 3969.0);
    CHECK(big.coeffs.size() == 3969);
    CHECK(big.describe().find("(63x63, rank 1)") != std::string::npos);
}

TEST_CASE("check_plan: every plan make_* builds passes; the one validator rejects inconsistent ones") {
    CustomKernelOptions norm;
    norm.normalize = true;
    for (const FilterPlan& p : {make_gaussian(0.3, 0, {}), make_gaussian(50.0, 150, {}), make_box(1, {}),
                                make_box(kMaxBoxRadius, {}), make_unsharp(1.0, 0, 0.0, 0.0, {}),
                                make_unsharp(20.0, 0, kMaxUnsharpAmount, 1.0, {}),
                                make_edges(EdgeOperator::Laplacian, true, {}),
                                make_custom(test::matrix(63, 1, std::vector<double>(63, 1.0)), norm, {})})
        CHECK_NOTHROW(check_plan(p));

    std::vector<FilterPlan> bad;
    bad.push_back(make_box(1, {}));
    bad.back().radius = 0;  // the GPU once accepted this
    bad.push_back(make_unsharp(1.0, 0, 1.0, 0.05, {}));
    bad.back().amount_q8 = -256;  // and this
    bad.push_back(make_gaussian(2.0, 0, {}));
    bad.back().taps[0] += 1;
    bad.push_back(make_gaussian(2.0, 0, {}));
    bad.back().taps.pop_back();
    bad.push_back(make_custom(test::matrix(2, 1, {1, 1}), {}, {}));
    bad.back().coeffs[0] = 70000;
    bad.push_back(make_custom(test::matrix(2, 1, {1, 1}), {}, {}));
    bad.back().anchor_x = 2;
    for (const FilterPlan& p : bad) {
        INFO(p.describe());
        try {
            check_plan(p);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Usage);
            CHECK(std::string(e.what()).find("filter plan") == 0);
        }
    }
}

TEST_CASE("unsharp_output: ImageMagick's threshold test, 2|d| < T * 255") {
    const int level = make_unsharp(1.0, 0, 1.0, 0.05, Border{}).threshold_level;  // T * 255 = 12.75
    CHECK(unsharp_output(100, 94, 256, level) == 100);   // 2 * 6 = 12 < 12.75: left alone
    CHECK(unsharp_output(100, 93, 256, level) == 107);   // 2 * 7 = 14: sharpened by d = 7
    CHECK(unsharp_output(100, 107, 256, level) == 93);   // the same for negative d
    CHECK(unsharp_output(100, 87, 256, level) == 113);   // |d| = 13 was the old cut-off
    CHECK(unsharp_output(250, 240, 512, 0) == 255);      // clamped
}
