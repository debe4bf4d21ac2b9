// GPU filters on images with alpha against the CPU reference.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "src/gpu/session.hpp"
#include "src/ops/filter.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/gpu_filter_bench.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test::gpu_filters;
using test::matrix;

// Images with alpha run the wide integer kernels (cuda/filter_wide.cu):
// every filter kind against the CPU at the alphas that stress the way back
// (0, 1, 2, 255, random, low random), on constant images and on sizes around
// the 32 x 8 blocks and 32-sample box runs, through every border rule.
namespace {

// Alpha everywhere `alpha` (0..255), or random (-1), or random in 1..3 (-2).
ImageU8 alpha_variant(int w, int h, int c, int alpha, unsigned seed) {
    ImageU8 img = test::random_image(w, h, c, seed);
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int a = alpha;
            if (alpha == -1) a = static_cast<int>(rng() % 256);
            if (alpha == -2) a = 1 + static_cast<int>(rng() % 3);
            img.at(x, y, c - 1) = static_cast<std::uint8_t>(a);
        }
    return img;
}

std::vector<FilterPlan> alpha_plans(const Border& b) {
    return {make_gaussian(1.0, 0, b),
            make_gaussian(2.0, 0, b),
            make_gaussian(20.0, 0, b),
            make_unsharp(1.5, 0, 1.2, 0.02, b),
            make_unsharp(1.0, 0, 20.0, 0.0, b),
            make_box(1, b),
            make_box(15, b),
            make_box(40, b),
            make_edges(EdgeOperator::Sobel, false, b),
            make_edges(EdgeOperator::Scharr, true, b),
            make_edges(EdgeOperator::Laplacian, false, b),
            make_edges(EdgeOperator::Laplacian, true, b),
            make_custom(matrix(3, 3, {1, -2, 0.5, 3, 1, -1, 0, 2, 1}), options(false, 2.0, 5.0), b),
            make_custom(random_matrix(4, 6, 11), options(true), b),
            make_custom(random_matrix(7, 7, 12), options(false, -3.0, 100.0, true), b)};
}

}  // namespace

TEST_CASE("GPU filters on images with alpha: every kind, alphas 0/1/2/255/random, every border, odd sizes") {
    const std::vector<std::pair<int, int>> sizes = {{1, 1},  {1, 9},  {9, 1},   {2, 3},  {7, 5},   {31, 7},
                                                    {32, 8}, {33, 9}, {63, 17}, {65, 15}, {97, 61}, {1, 130}};
    for (int c : {2, 4})
        for (int alpha : {0, 1, 2, 255, -1, -2})
            for (auto [w, h] : sizes) {
                const ImageU8 src = alpha_variant(w, h, c, alpha, static_cast<unsigned>(w * 31 + h + c + alpha + 7));
                GpuBench gpu(src);
                for (const Border& b : all_borders())
                    for (const FilterPlan& p : alpha_plans(b)) gpu.check(p, "alpha " + std::to_string(alpha));
            }
}

TEST_CASE("GPU filters on images with alpha: constant images, large radii, misaligned rows, the kernel's name") {
    for (int c : {2, 4})
        for (int value : {0, 1, 2, 200, 255}) {
            const ImageU8 src = test::constant_image(45, 37, c, value);
            GpuBench gpu(src);
            for (const Border& b : {Border{BorderMode::Replicate, 0}, Border{BorderMode::Constant, 2},
                                    Border{BorderMode::Constant, 255}})
                for (const FilterPlan& p : alpha_plans(b)) gpu.check(p, "constant " + std::to_string(value));
        }
    for (int c : {2, 4}) {
        const ImageU8 src = alpha_variant(301, 203, c, -1, 5);
        GpuBench gpu(src);
        for (const Border& b : {Border{BorderMode::Reflect101, 0}, Border{BorderMode::Constant, 9}}) {
            gpu.check(make_gaussian(50.0, 150, b), "gaussian radius 150");
            gpu.check(make_box(1000, b), "box r=1000");
            gpu.check(make_box(129, b), "box r=129");
            gpu.check(make_custom(random_matrix(63, 63, 6), options(false, 900.0, 128.0), b), "custom 63x63");
        }
        const ImageU8 odd = alpha_variant(97, 61, c, -2, 6);
        GpuBench misaligned(odd, Layout::Misaligned);
        for (const FilterPlan& p : alpha_plans({BorderMode::Reflect, 0})) misaligned.check(p, "misaligned");
    }
    const ImageU8 src = alpha_variant(64, 48, 4, -2, 3);
    for (const FilterPlan& plan : alpha_plans({})) {
        std::string kernel;
        const ImageU8 got = gpu::run_on_images(test::session(), src.view(), plan.output_channels(4),
                                               [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
                                                   gpu::apply_filter(test::session(), plan, in, out, &kernel);
                                               });
        INFO(plan.describe(), " ran ", kernel);
        IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_filter(plan, src.view()), got);
        // Box radii up to 128 run the one-pass box on the wide lanes (unless
        // IMGPAR_BOX_ONE_PASS=0 sends them to the two-pass kernels).
        const char* forced = std::getenv("IMGPAR_BOX_ONE_PASS");
        const bool one_pass = plan.kind == FilterKind::Box && plan.radius <= 128 &&
                              (forced == nullptr || *forced == '\0' || std::atoi(forced) != 0);
        CHECK(kernel.find(one_pass ? "one pass" : "wide integer") != std::string::npos);
        CHECK(kernel.find("premultiplied") != std::string::npos);
    }
}
