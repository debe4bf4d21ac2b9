// The CPU box filter against its brute-force oracle (ref_box: the (2R+1)^2
// window summed sample by sample through its own border folding), byte for
// byte, on the shapes where running sums and padding go wrong: single rows
// and columns, primes, every width modulo 16, windows larger than the image,
// bands of rows starting anywhere; and the reciprocal that rounds the sums,
// at every step of every window size.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/ops/box_rounding.hpp"
#include "src/ops/filter.hpp"
#include "src/parallel.hpp"
#include "tests/support/filter_reference.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test;

namespace {

std::vector<Border> borders_with_white() {
    std::vector<Border> b = all_borders();
    b.push_back(parse_border("constant:255"));
    return b;
}

void check_box(const ImageU8& src, int radius, const Border& border) {
    const FilterPlan p = make_box(radius, border);
    INFO("radius ", radius, " border ", border_name(border), " channels ", src.channels(), " size ", src.width(), "x",
         src.height());
    IMGPAR_CHECK_IMAGES_EQUAL(ref_box(src, p), cpu::apply_filter(p, src.view()));
}

}  // namespace

TEST_CASE("box rounding: the reciprocal gives (S + n/2) / n at every step of every window size") {
    // The rounding is monotonic in S, so agreeing on both sides of every
    // step k * n - n/2 (and at the ends) is agreeing everywhere.
    for (int radius = 0; radius <= kMaxBoxRadius; ++radius) {
        const std::int64_t n = static_cast<std::int64_t>(2 * radius + 1) * (2 * radius + 1);
        const cpu::detail::BoxRounding rounding(static_cast<int>(n));
        const std::int64_t half = n / 2;
        int narrow_wrong = 0;
        for (std::int64_t k = 1; k <= 255; ++k) {
            const auto below = static_cast<std::int32_t>(k * n - half - 1);
            narrow_wrong += rounding(below) != k - 1;
            narrow_wrong += rounding(below + 1) != k;
        }
        narrow_wrong += rounding(std::int32_t{0}) != 0;
        narrow_wrong += rounding(static_cast<std::int32_t>(255 * n)) != 255;
        std::int64_t wide_wrong = 0;
        for (std::int64_t k = 1; k <= 65025; ++k) {
            const std::int64_t below = k * n - half - 1;
            wide_wrong += rounding(below) != k - 1;
            wide_wrong += rounding(below + 1) != k;
        }
        wide_wrong += rounding(std::int64_t{0}) != 0;
        wide_wrong += rounding(65025 * n) != 65025;
        if (narrow_wrong != 0 || wide_wrong != 0) {
            FAIL_CHECK("radius ", radius, ": ", narrow_wrong, " narrow and ", wide_wrong, " wide steps wrong");
        }
    }
}

TEST_CASE("box: the oracle's bytes on single rows and columns, primes and every width modulo 16") {
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {1, 2}, {2, 1}, {1, 37}, {41, 1}, {17, 13}, {31, 7}, {53, 29}};
    for (int w = 16; w < 32; ++w) sizes.emplace_back(w, 3);
    unsigned seed = 1;
    for (auto [w, h] : sizes)
        for (int ch = 1; ch <= 4; ++ch)
            for (const Border& b : borders_with_white())
                for (int radius : {1, 3}) check_box(test_image(w, h, ch, seed++), radius, b);
}

TEST_CASE("box: the oracle's bytes with windows larger than the image, every border and layout") {
    for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {5, 1}, {1, 6}, {7, 4}})
        for (int ch = 1; ch <= 4; ++ch)
            for (const Border& b : borders_with_white())
                for (int radius : {4, 13, 40}) check_box(test_image(w, h, ch, static_cast<unsigned>(w * 31 + h + ch)), radius, b);
}

TEST_CASE("box: black, white and constant images stay so (constant borders aside), at the column-sum widths' edge") {
    // Radius 128 is the largest whose column sums of 8-bit samples fit 16
    // bits (255 * 257 = 65535); 129 takes the 32-bit ones.
    for (int value : {0, 255, 77})
        for (int ch = 1; ch <= 4; ++ch)
            for (int radius : {1, 15, 128, 129}) {
                const ImageU8 flat = constant_image(23, 9, ch, value);
                for (const Border& b : borders_with_white()) {
                    const FilterPlan p = make_box(radius, b);
                    INFO("value ", value, " channels ", ch, " radius ", radius, " border ", border_name(b));
                    const ImageU8 got = cpu::apply_filter(p, flat.view());
                    if (b.mode != BorderMode::Constant || b.value == value) {
                        IMGPAR_CHECK_IMAGES_EQUAL(flat, got);
                    } else if (radius <= 15) {
                        IMGPAR_CHECK_IMAGES_EQUAL(ref_box(flat, p), got);
                    }
                }
            }
    // The largest sums of both column widths, against the oracle.
    for (int radius : {128, 129}) {
        const ImageU8 src = random_image(9, 5, 1, static_cast<unsigned>(radius));
        check_box(src, radius, parse_border("constant:255"));
        check_box(src, radius, parse_border("reflect"));
    }
}

TEST_CASE("box: the oracle's bytes on a photo-like image, whatever rows each thread's band starts at") {
    // 700 x 130 RGB: about 31 rows per band at least (row_grain), so up to 5
    // bands, each starting its running column sums from its own first row.
    const ImageU8 photo = photo_like_image(700, 130, 3, 6);
    const ImageU8 rgba = alpha_image(700, 130, 4, 7);
    for (const char* border : {"replicate", "reflect101", "wrap", "constant:40"}) {
        const FilterPlan p2 = make_box(2, parse_border(border)), p3 = make_box(3, parse_border(border));
        const ImageU8 want_photo = ref_box(photo, p2), want_rgba = ref_box(rgba, p3);
        for (int threads : {1, 2, 3, 7}) {
            set_cpu_thread_count(threads);
            INFO("border ", border, " threads ", threads);
            IMGPAR_CHECK_IMAGES_EQUAL(want_photo, cpu::apply_filter(p2, photo.view()));
            IMGPAR_CHECK_IMAGES_EQUAL(want_rgba, cpu::apply_filter(p3, rgba.view()));
        }
    }
    set_cpu_thread_count(0);
}
