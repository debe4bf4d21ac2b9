// The CPU Gaussian's vector loops (src/ops/simd/weighted_rows.cpp) against
// the contract's plain reference (tests/support/filter_reference.hpp), under
// every instruction set this machine runs: the 16-bit pairwise sums of short
// kernels (radius 1..8, sigma up to about 2.7) and the 32-bit sums beyond,
// the horizontal pass reading the row in place between its borders, and the
// output written as bytes (blur) or as unsharp's values.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "src/ops/filter.hpp"
#include "src/ops/simd/targets.hpp"
#include "src/parallel.hpp"
#include "tests/support/filter_reference.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test;

namespace {

// Sigmas whose radii are 1, 2, 3, 5, 8 (the pairwise path's last) and 9 (the
// first beyond it).
const double kSigmas[] = {0.4, 0.7, 1.0, 1.6, 2.6, 3.0};

void check_gaussian(const ImageU8& src, const FilterPlan& p) {
    if (p.kind == FilterKind::Unsharp)
        IMGPAR_CHECK_IMAGES_EQUAL(ref_unsharp(src, p), cpu::apply_filter(p, src.view()));
    else
        IMGPAR_CHECK_IMAGES_EQUAL(ref_gaussian(src, p), cpu::apply_filter(p, src.view()));
}

}  // namespace

TEST_CASE("gaussian simd: every width residue, 1xN and Nx1, every layout, border and radius, on every instruction set") {
    const std::vector<Border> borders = all_borders();
    simd::for_each_simd_target([&](const std::string& target) {
        int k = 0;
        for (double sigma : kSigmas)
            for (int ch = 1; ch <= 4; ++ch) {
                // Widths 1..70: every residue of the widest vector (32
                // 16-bit lanes) times the channels, rows shorter and longer
                // than the kernel (the in-place horizontal pass needs more
                // than 2r pixels).
                for (int w = 1; w <= 70; ++w, ++k) {
                    const Border b = borders[static_cast<std::size_t>(k) % borders.size()];
                    const int h = 1 + w % 4;
                    const ImageU8 src = test_image(w, h, ch, static_cast<unsigned>(k));
                    INFO(target, " sigma ", sigma, " channels ", ch, " size ", w, "x", h, " border ", border_name(b));
                    check_gaussian(src, make_gaussian(sigma, 0, b));
                }
                // A column (N x 1 is covered above): heights 1..40, one pixel wide.
                for (int h = 1; h <= 40; h += 3, ++k) {
                    const Border b = borders[static_cast<std::size_t>(k) % borders.size()];
                    const ImageU8 src = test_image(1, h, ch, static_cast<unsigned>(k));
                    INFO(target, " sigma ", sigma, " channels ", ch, " size 1x", h, " border ", border_name(b));
                    check_gaussian(src, make_gaussian(sigma, 0, b));
                }
            }
    });
}

TEST_CASE("gaussian simd: unsharp's bytes, every amount and threshold, on every instruction set") {
    const std::vector<Border> borders = all_borders();
    simd::for_each_simd_target([&](const std::string& target) {
        int k = 0;
        for (double sigma : {0.7, 1.0, 2.6, 3.0})
            for (double amount : {0.0, 0.5, 1.0, 4.0})
                for (double threshold : {0.0, 0.05, 0.5})
                    for (int ch : {1, 3, 4})
                        for (int w : {1, 5, 31, 33, 67}) {
                            const Border b = borders[static_cast<std::size_t>(k) % borders.size()];
                            const ImageU8 src = test_image(w, 6, ch, static_cast<unsigned>(++k));
                            INFO(target, " sigma ", sigma, " amount ", amount, " threshold ", threshold, " channels ", ch,
                                 " width ", w, " border ", border_name(b));
                            check_gaussian(src, make_unsharp(sigma, 0, amount, threshold, b));
                        }
    });
}

TEST_CASE("gaussian simd: bands of several threads over a photo-like image, on every instruction set") {
    set_cpu_thread_count(3);
    const ImageU8 photo = photo_like_image(301, 157, 3, 9);
    simd::for_each_simd_target([&](const std::string& target) {
        for (double sigma : {1.0, 2.0, 2.6})
            for (Border b : all_borders()) {
                INFO(target, " sigma ", sigma, " border ", border_name(b));
                check_gaussian(photo, make_gaussian(sigma, 0, b));
                check_gaussian(photo, make_unsharp(sigma, 0, 1.0, 0.05, b));
            }
    });
    set_cpu_thread_count(0);
}
