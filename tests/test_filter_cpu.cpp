// The separable CPU filters (Gaussian, box, unsharp) against the references of
// tests/support/filter_reference.hpp, exactly.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "src/parallel.hpp"
#include "tests/support/filter_reference.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test;

// ---------------------------------------------------------------------------
// Gaussian
// ---------------------------------------------------------------------------

TEST_CASE("gaussian: exactly the contract's fixed-point passes, every border, channel count and small size") {
    for (double sigma : {0.6, 1.3, 4.0})  // radius 2, 4, 12: the last is larger than every image here
        for (Border b : all_borders())
            for (int ch = 1; ch <= 4; ++ch)
                for (auto [w, h] : kSmallSizes) {
                    FilterPlan p = make_gaussian(sigma, 0, b);
                    ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(w * 131 + h * 7 + ch));
                    INFO("sigma ", sigma, " border ", border_name(b), " channels ", ch, " size ", w, "x", h);
                    IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(src, p), cpu::apply_filter(p, src.view()));
                }
}

TEST_CASE("gaussian: exact on medium images and the largest radius") {
    ImageU8 photo = test::photo_like_image(67, 45, 3, 5);
    for (Border b : all_borders()) {
        FilterPlan p = make_gaussian(2.5, 0, b);
        IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(photo, p), cpu::apply_filter(p, photo.view()));
    }
    ImageU8 rgba = test::alpha_image(61, 37, 4, 9);
    FilterPlan p = make_gaussian(1.7, 0, parse_border("reflect101"));
    IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(rgba, p), cpu::apply_filter(p, rgba.view()));

    // Radius 150 on tiny images: everything folds many times.
    for (Border b : all_borders())
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {3, 2}, {1, 5}}) {
            FilterPlan big = make_gaussian(50.0, 0, b);
            REQUIRE(big.radius == 150);
            ImageU8 src = test::random_image(w, h, 2, 3);
            INFO("border ", border_name(b), " size ", w, "x", h);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(src, big), cpu::apply_filter(big, src.view()));
        }
    // A single pixel with a non-constant border blurs to itself.
    ImageU8 one = test::random_image(1, 1, 3, 8);
    for (Border b : all_borders()) {
        if (b.mode == BorderMode::Constant) continue;
        IMGPAR_CHECK_IMAGES_EQUAL(one, cpu::apply_filter(make_gaussian(50.0, 0, b), one.view()));
    }
}

TEST_CASE("gaussian: within one level of a float64 textbook Gaussian on photos") {
    const ImageU8 camera = test::load_sample("camera.png");
    const ImageU8 chelsea = test::load_sample("chelsea.png");
    REQUIRE(camera.channels() == 1);
    REQUIRE(chelsea.channels() == 3);
    for (const ImageU8* img : {&camera, &chelsea})
        for (double sigma : {0.8, 2.0, 5.0})
            for (const char* border : {"replicate", "reflect101"}) {
                FilterPlan p = make_gaussian(sigma, 0, parse_border(border));
                ImageU8 ours = cpu::apply_filter(p, img->view());
                ImageU8 ideal = textbook_gaussian(*img, sigma, p.radius, p.border);
                INFO("sigma ", sigma, " channels ", img->channels(), " border ", border);
                CHECK(max_abs_diff(ours, ideal) <= 1);
            }
    // Wide kernels on a photo-like image (also through a constant border).
    ImageU8 photo = test::photo_like_image(160, 120, 3, 2);
    for (const char* border : {"replicate", "constant:40"}) {
        FilterPlan p = make_gaussian(20.0, 0, parse_border(border));
        INFO("sigma 20, border ", border);
        CHECK(max_abs_diff(cpu::apply_filter(p, photo.view()), textbook_gaussian(photo, 20.0, p.radius, p.border)) <= 1);
    }
    // The comparison can fail: a blur with the wrong sigma is far away.
    FilterPlan wrong = make_gaussian(2.5, 6, Border{});
    CHECK(max_abs_diff(cpu::apply_filter(wrong, camera.view()), textbook_gaussian(camera, 2.0, 6, Border{})) > 1);
}

TEST_CASE("gaussian: exact on the awkward sizes and on a whole photo (several row chunks)") {
    const std::vector<Border> borders = all_borders();
    std::size_t k = 0;
    for (auto [w, h] : test::awkward_sizes())
        for (int ch = 1; ch <= 4; ++ch, ++k) {
            const Border b = borders[k % borders.size()];
            FilterPlan p = make_gaussian(2.0, 0, b);
            ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(k));
            INFO("border ", border_name(b), " channels ", ch, " size ", w, "x", h);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(src, p), cpu::apply_filter(p, src.view()));
        }
    const ImageU8 camera = test::load_sample("camera.png");
    for (const char* border : {"reflect", "constant:255"}) {
        FilterPlan p = make_gaussian(3.0, 0, parse_border(border));
        INFO("border ", border);
        IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(camera, p), cpu::apply_filter(p, camera.view()));
    }
}

TEST_CASE("gaussian: the vectorised passes equal the contract at every width residue, across bands and column chunks") {
    // Every residue of the row length modulo the widest vector (16 lanes).
    for (int ch : {1, 3})
        for (int w = 1; w <= 40; ++w) {
            FilterPlan p = make_gaussian(1.1, 0, parse_border(w % 2 ? "reflect101" : "constant:7"));
            ImageU8 src = test_image(w, 3, ch, static_cast<unsigned>(w));
            INFO("width ", w, " channels ", ch);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(src, p), cpu::apply_filter(p, src.view()));
        }
    // Several threads: bands whose rings restart inside the image, with the
    // border rows of every rule (wrap reads the far end of the image).
    set_cpu_thread_count(4);
    const ImageU8 tall = test::photo_like_image(37, 700, 3, 4);
    for (Border b : all_borders()) {
        FilterPlan p = make_gaussian(2.0, 0, b);
        INFO("tall, border ", border_name(b));
        IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(tall, p), cpu::apply_filter(p, tall.view()));
    }
    // Rows longer than a column chunk of the vertical pass (sigma 20: 2048
    // values), and heights that are not a multiple of its row group.
    const ImageU8 wide = test::photo_like_image(2100, 29, 3, 6);
    for (const char* border : {"wrap", "constant:90"}) {
        FilterPlan p = make_gaussian(20.0, 0, parse_border(border));
        INFO("wide, border ", border);
        IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(wide, p), cpu::apply_filter(p, wide.view()));
    }
    set_cpu_thread_count(0);
}

// ---------------------------------------------------------------------------
// Box
// ---------------------------------------------------------------------------

TEST_CASE("box: equals a brute-force mean, rounded half up") {
    for (int radius : {1, 2, 7})
        for (Border b : all_borders())
            for (int ch = 1; ch <= 4; ++ch)
                for (auto [w, h] : kSmallSizes) {
                    FilterPlan p = make_box(radius, b);
                    ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(radius + w * 3 + h * 5 + ch));
                    INFO("radius ", radius, " border ", border_name(b), " channels ", ch, " size ", w, "x", h);
                    IMGPAR_CHECK_IMAGES_EQUAL(ref_box(src, p), cpu::apply_filter(p, src.view()));
                }
    ImageU8 photo = test::photo_like_image(53, 41, 3, 4);
    for (Border b : all_borders()) {
        FilterPlan p = make_box(4, b);
        IMGPAR_CHECK_IMAGES_EQUAL(ref_box(photo, p), cpu::apply_filter(p, photo.view()));
    }
}

TEST_CASE("box: exact on the awkward sizes and on a tall image (running sums restart per row chunk)") {
    const std::vector<Border> borders = all_borders();
    std::size_t k = 0;
    for (auto [w, h] : test::awkward_sizes())
        for (int ch = 1; ch <= 4; ++ch, ++k) {
            const Border b = borders[(k + 3) % borders.size()];
            FilterPlan p = make_box(3, b);
            ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(k));
            INFO("border ", border_name(b), " channels ", ch, " size ", w, "x", h);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_box(src, p), cpu::apply_filter(p, src.view()));
        }
    ImageU8 tall = test::photo_like_image(160, 600, 1, 8);
    for (int radius : {5, 12})
        for (const char* border : {"reflect101", "constant:30"}) {
            FilterPlan p = make_box(radius, parse_border(border));
            INFO("radius ", radius, " border ", border);
            IMGPAR_CHECK_IMAGES_EQUAL(ref_box(tall, p), cpu::apply_filter(p, tall.view()));
        }
}

TEST_CASE("box: the largest radius folds correctly and costs nothing extra") {
    // With radius 1000 the window covers a tiny image hundreds of times; the
    // reference counts how often each pixel (and the constant) is read.
    for (Border b : all_borders())
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {3, 2}, {1, 7}, {5, 1}})
            for (int ch : {1, 4}) {
                const int R = 1000;
                ImageU8 src = test_image(w, h, ch, 11);
                Source s{src, b};
                auto counts = [&](int centre, int n) {
                    std::vector<long long> c(static_cast<std::size_t>(n) + 1, 0);  // last: the constant
                    for (int i = centre - R; i <= centre + R; ++i) {
                        int m = fold(i, n, b.mode);
                        ++c[m < 0 ? static_cast<std::size_t>(n) : static_cast<std::size_t>(m)];
                    }
                    return c;
                };
                Plane plane(w, h, s.lanes());
                const long long n = 2001LL * 2001;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        auto cx = counts(x, w), cy = counts(y, h);
                        for (int c = 0; c < s.lanes(); ++c) {
                            long long sum = 0;
                            for (int my = 0; my <= h; ++my)
                                for (int mx = 0; mx <= w; ++mx) {
                                    const bool out = my == h || mx == w;
                                    sum += cx[static_cast<std::size_t>(mx)] * cy[static_cast<std::size_t>(my)] *
                                           (out ? s.at(-1, -1, c) : s.at(mx, my, c));
                                }
                            plane.at(x, y, c) = static_cast<int>((2 * sum + n) / (2 * n));
                        }
                    }
                INFO("border ", border_name(b), " size ", w, "x", h, " channels ", ch);
                IMGPAR_CHECK_IMAGES_EQUAL(compose_filtered_alpha(plane, ch), cpu::apply_filter(make_box(R, b), src.view()));
            }
    // A radius of 1000 on a real image runs in about the time of radius 1.
    ImageU8 camera = test::load_sample("camera.png");
    ImageU8 big = cpu::apply_filter(make_box(1000, Border{}), camera.view());
    CHECK(big.width() == camera.width());
}

// ---------------------------------------------------------------------------
// Unsharp, edges, custom
// ---------------------------------------------------------------------------

TEST_CASE("unsharp: exactly the contract, every border and channel count") {
    struct P { double sigma, amount, threshold; };
    for (P prm : {P{1.0, 1.5, 0.0}, P{2.0, 0.7, 0.05}, P{0.8, 20.0, 0.0}, P{1.2, 0.0, 1.0}})
        for (Border b : all_borders())
            for (int ch = 1; ch <= 4; ++ch)
                for (auto [w, h] : kSmallSizes) {
                    FilterPlan p = make_unsharp(prm.sigma, 0, prm.amount, prm.threshold, b);
                    ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(w + h + ch));
                    INFO("sigma ", prm.sigma, " amount ", prm.amount, " threshold ", prm.threshold, " border ",
                         border_name(b), " channels ", ch, " size ", w, "x", h);
                    IMGPAR_CHECK_IMAGES_EQUAL(ref_unsharp(src, p), cpu::apply_filter(p, src.view()));
                }
    ImageU8 photo = test::photo_like_image(64, 48, 4, 6);
    FilterPlan p = make_unsharp(1.5, 0, 2.0, 0.01, Border{});
    ImageU8 out = cpu::apply_filter(p, photo.view());
    IMGPAR_CHECK_IMAGES_EQUAL(ref_unsharp(photo, p), out);
    for (int y = 0; y < 48; ++y)
        for (int x = 0; x < 64; ++x) REQUIRE(out.at(x, y, 3) == photo.at(x, y, 3));  // alpha unchanged
}
