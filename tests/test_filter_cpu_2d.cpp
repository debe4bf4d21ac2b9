// The 2-D CPU filters (edges, custom kernels) against the references of
// tests/support/filter_reference.hpp, and the rules every filter keeps:
// constant images, alpha without halos, strided views, usage errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "tests/support/filter_reference.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test;

TEST_CASE("edges: sobel, scharr, laplacian, colour and gray, equal a direct 3x3 implementation") {
    for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian})
        for (bool gray : {false, true})
            for (Border b : all_borders())
                for (int ch = 1; ch <= 4; ++ch)
                    for (auto [w, h] : kSmallSizes) {
                        FilterPlan p = make_edges(op, gray, b);
                        ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(w * h + ch));
                        INFO(edge_operator_name(op), gray ? " gray" : "", " border ", border_name(b), " channels ",
                             ch, " size ", w, "x", h);
                        ImageU8 out = cpu::apply_filter(p, src.view());
                        CHECK(out.channels() == p.output_channels(ch));
                        IMGPAR_CHECK_IMAGES_EQUAL(ref_edges(src, p), out);
                    }
    // Real edges: strong responses that saturate, on a photo.
    ImageU8 camera = ImageU8::copy_of(test::load_sample("camera.png").view().sub(100, 100, 96, 80));
    for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian}) {
        FilterPlan p = make_edges(op, false, Border{});
        IMGPAR_CHECK_IMAGES_EQUAL(ref_edges(camera, p), cpu::apply_filter(p, camera.view()));
    }
    ImageU8 chelsea = ImageU8::copy_of(test::load_sample("chelsea.png").view().sub(150, 60, 70, 50));
    FilterPlan gray = make_edges(EdgeOperator::Sobel, true, parse_border("reflect"));
    IMGPAR_CHECK_IMAGES_EQUAL(ref_edges(chelsea, gray), cpu::apply_filter(gray, chelsea.view()));
}

TEST_CASE("custom: correlation, convolution, scale and offset equal a direct 2D implementation") {
    struct K {
        KernelMatrix m;
        CustomKernelOptions o;
        double scale;   // what the reference divides by
        double offset;
    };
    CustomKernelOptions none, norm, flip, scaled, shifted;
    norm.normalize = true;
    flip.flip = true;
    scaled.scale = 3.0;
    shifted.scale = -2.0;
    shifted.offset = 128.0;
    const std::vector<K> kernels = {
        {matrix(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1}), norm, 16, 0},
        {matrix(3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0}), none, 1, 0},                  // sharpen, clamps
        {matrix(3, 2, {1, 2, 3, -4, 5, -6}), flip, 1, 0},                             // even height, true convolution
        {matrix(5, 1, {0.0625, 0.25, 0.375, 0.25, 0.0625}), none, 1, 0},              // dyadic fractions
        {matrix(1, 5, {1, -2, 3, -2, 1}), scaled, 3, 0},                              // a column, thirds
        {matrix(3, 3, {1, 2, 0, -1, 3, 0, 0, 0, 4}), flip, 1, 0},                     // odd, true convolution
        {matrix(3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1}), shifted, -2, 128},            // negative scale + offset
        {matrix(2, 2, {0.5, -0.25, 0.125, 1}), flip, 1, 0},                           // even both ways, flipped
        {matrix(4, 3, {1, 0, 0, 2, 0, 3, 1, 0, 1, 0, 0, 4}), norm, 12, 0},            // asymmetric, even width
    };
    for (const K& k : kernels)
        for (Border b : all_borders())
            for (int ch = 1; ch <= 4; ++ch)
                for (auto [w, h] : kSmallSizes) {
                    FilterPlan p = make_custom(k.m, k.o, b);
                    REQUIRE(p.scale == k.scale);
                    ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(w * 7 + h + ch));
                    INFO("kernel ", k.m.width, "x", k.m.height, " border ", border_name(b), " channels ", ch,
                         " size ", w, "x", h);
                    // The even-sized flipped kernels are checked as correlation with
                    // the reversed kernel: the anchor stays at (w/2, h/2).
                    const bool odd = k.m.width % 2 == 1 && k.m.height % 2 == 1;
                    KernelMatrix used = k.m;
                    bool convolve = k.o.flip;
                    if (k.o.flip && !odd) {
                        std::reverse(used.values.begin(), used.values.end());
                        convolve = false;
                    }
                    IMGPAR_CHECK_IMAGES_EQUAL(ref_custom(src, used, k.scale, k.offset, convolve, b),
                                              cpu::apply_filter(p, src.view()));
                }
    // Flip changes the result of an asymmetric kernel.
    ImageU8 src = test::random_image(20, 10, 1, 2);
    FilterPlan corr = make_custom(matrix(3, 1, {1, 0, 0}), {}, Border{});
    FilterPlan conv = make_custom(matrix(3, 1, {1, 0, 0}), flip, Border{});
    ImageU8 a = cpu::apply_filter(corr, src.view()), c = cpu::apply_filter(conv, src.view());
    CHECK(a.at(5, 3, 0) == src.at(4, 3, 0));  // correlation reads the left neighbour
    CHECK(c.at(5, 3, 0) == src.at(6, 3, 0));  // convolution the right one
}

TEST_CASE("custom: a non-dyadic kernel is within one level of the real-valued one") {
    KernelMatrix k = matrix(3, 3, {0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1});
    ImageU8 photo = test::photo_like_image(50, 40, 3, 3);
    for (Border b : all_borders()) {
        FilterPlan p = make_custom(k, {}, b);
        CHECK(p.frac_bits == 12);
        CHECK(max_abs_diff(cpu::apply_filter(p, photo.view()), ref_custom(photo, k, 1.0, 0.0, false, b)) <= 1);
    }
    // A 63x63 kernel runs and matches on a small image.
    KernelMatrix big = matrix(63, 63, std::vector<double>(63 * 63, 1.0));
    CustomKernelOptions norm;
    norm.normalize = true;
    ImageU8 small = test::random_image(9, 70, 2, 1);
    FilterPlan p = make_custom(big, norm, parse_border("wrap"));
    IMGPAR_CHECK_IMAGES_EQUAL(ref_custom(small, big, 3969.0, 0.0, false, p.border), cpu::apply_filter(p, small.view()));
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

TEST_CASE("a constant image stays constant under blur, box, unsharp and normalised kernels") {
    CustomKernelOptions norm;
    norm.normalize = true;
    std::vector<FilterPlan> plans;
    auto add = [&](Border b) {
        plans.push_back(make_gaussian(0.5, 0, b));
        plans.push_back(make_gaussian(3.0, 0, b));
        plans.push_back(make_gaussian(50.0, 0, b));
        plans.push_back(make_box(1, b));
        plans.push_back(make_box(9, b));
        plans.push_back(make_unsharp(2.0, 0, 3.0, 0.0, b));
        plans.push_back(make_custom(matrix(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1}), norm, b));
        plans.push_back(make_custom(matrix(5, 2, {1, 3, 5, 3, 1, 2, 0, 7, 0, 2}), norm, b));
    };
    for (const char* border : {"replicate", "reflect", "reflect101", "wrap"}) add(parse_border(border));
    for (int v : {0, 1, 77, 128, 254, 255})
        for (int ch = 1; ch <= 4; ++ch)
            for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {13, 7}, {40, 3}}) {
                ImageU8 src = test::constant_image(w, h, ch, v);
                if (has_alpha(ch))
                    for (int y = 0; y < h; ++y)
                        for (int x = 0; x < w; ++x) src.at(x, y, ch - 1) = 255;  // opaque
                std::vector<FilterPlan> these = plans;
                if (!has_alpha(ch)) {  // a constant border of the same value is invisible too
                    Border same = parse_border("constant:" + std::to_string(v));
                    these.push_back(make_gaussian(2.0, 0, same));
                    these.push_back(make_box(4, same));
                    these.push_back(make_custom(matrix(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1}), norm, same));
                }
                for (const FilterPlan& p : these) {
                    INFO(p.describe(), " value ", v, " channels ", ch, " size ", w, "x", h);
                    IMGPAR_CHECK_IMAGES_EQUAL(src, cpu::apply_filter(p, src.view()));
                }
            }
    // ...and its edges are zero.
    ImageU8 flat = test::constant_image(9, 9, 3, 90);
    for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian})
        IMGPAR_CHECK_IMAGES_EQUAL(test::constant_image(9, 9, 3, 0), cpu::apply_filter(make_edges(op, false, Border{}), flat.view()));
}

TEST_CASE("alpha: an opaque white region next to transparent black stays white, with no dark halo") {
    CustomKernelOptions norm;
    norm.normalize = true;
    for (int ch : {2, 4}) {
        ImageU8 src(40, 30, ch);
        for (int y = 0; y < 30; ++y)
            for (int x = 0; x < 40; ++x) {
                const bool opaque = x < 20 && y < 20;  // white square; the rest is transparent black
                for (int c = 0; c < ch; ++c) src.at(x, y, c) = opaque ? 255 : 0;
            }
        for (const FilterPlan& p : {make_gaussian(3.0, 0, Border{}), make_box(3, Border{}),
                                    make_custom(matrix(5, 5, std::vector<double>(25, 1.0)), norm, Border{})}) {
            ImageU8 out = cpu::apply_filter(p, src.view());
            int partial = 0;
            for (int y = 0; y < 30; ++y)
                for (int x = 0; x < 40; ++x) {
                    const int a = out.at(x, y, ch - 1);
                    if (a > 0 && a < 255) ++partial;
                    for (int c = 0; c < ch - 1; ++c) {
                        INFO(p.describe(), " channels ", ch, " at ", x, ",", y, " alpha ", a);
                        REQUIRE(out.at(x, y, c) == (a > 0 ? 255 : 0));
                    }
                }
            CHECK(partial > 40);  // the edge really was blurred
        }
        // Filtering the colour without premultiplying would darken the edge:
        // the check above can fail.
        ImageU8 colour_only(40, 30, 1);
        for (int y = 0; y < 30; ++y)
            for (int x = 0; x < 40; ++x) colour_only.at(x, y, 0) = src.at(x, y, 0);
        ImageU8 naive = cpu::apply_filter(make_gaussian(3.0, 0, Border{}), colour_only.view());
        CHECK(naive.at(20, 10, 0) < 200);
    }
}

TEST_CASE("views: strided source and destination windows, in-place filtering") {
    ImageU8 canvas = test::photo_like_image(50, 40, 3, 12);
    ConstViewU8 window = canvas.view().sub(7, 5, 31, 23);
    ImageU8 packed = ImageU8::copy_of(window);
    for (const FilterPlan& p : {make_gaussian(1.5, 0, Border{}), make_box(2, parse_border("wrap")),
                                make_edges(EdgeOperator::Sobel, false, parse_border("constant:3")),
                                make_unsharp(1.0, 0, 1.0, 0.0, Border{})}) {
        ImageU8 expected = cpu::apply_filter(p, packed.view());
        ImageU8 target = test::constant_image(60, 50, 3, 9);
        cpu::apply_filter(p, window, target.view().sub(11, 13, 31, 23));
        for (int y = 0; y < 50; ++y)
            for (int x = 0; x < 60; ++x)
                for (int c = 0; c < 3; ++c) {
                    const bool inside = x >= 11 && x < 42 && y >= 13 && y < 36;
                    INFO(p.describe(), " at ", x, ",", y);
                    REQUIRE(target.at(x, y, c) == (inside ? expected.at(x - 11, y - 13, c) : 9));
                }
        // In place: the output overwrites its own source.
        ImageU8 inplace = ImageU8::copy_of(packed.view());
        cpu::apply_filter(p, inplace.view(), inplace.view());
        IMGPAR_CHECK_IMAGES_EQUAL(expected, inplace);
    }
}

TEST_CASE("shape and plan errors are usage errors") {
    ImageU8 src = test::random_image(8, 6, 3, 1);
    FilterPlan g = make_gaussian(1.0, 0, Border{});
    ImageU8 wrong_channels(8, 6, 1), wrong_size(8, 5, 3);
    for (ImageU8* dst : {&wrong_channels, &wrong_size}) {
        try {
            cpu::apply_filter(g, src.view(), dst->view());
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Usage);
            CHECK(std::string(e.what()).find("8x6 with 3 channel") != std::string::npos);
        }
    }
    // Gray edges of RGB write one channel, of RGBA two.
    ImageU8 rgb_out(8, 6, 3);
    CHECK_THROWS_AS(cpu::apply_filter(make_edges(EdgeOperator::Sobel, true, Border{}), src.view(), rgb_out.view()), Error);
    CHECK(cpu::apply_filter(make_edges(EdgeOperator::Sobel, true, Border{}), src.view()).channels() == 1);
    ImageU8 rgba = test::alpha_image(8, 6, 4, 1);
    CHECK(cpu::apply_filter(make_edges(EdgeOperator::Sobel, true, Border{}), rgba.view()).channels() == 2);

    FilterPlan bad = g;
    bad.taps[0] += 1;  // no longer sums to 4096
    CHECK_THROWS_AS(cpu::apply_filter(bad, src.view()), Error);
    FilterPlan short_taps = g;
    short_taps.taps.pop_back();
    CHECK_THROWS_AS(cpu::apply_filter(short_taps, src.view()), Error);
    FilterPlan c = make_custom(matrix(2, 1, {1, 1}), {}, Border{});
    c.coeffs[0] = 70000;
    CHECK_THROWS_AS(cpu::apply_filter(c, src.view()), Error);
}
