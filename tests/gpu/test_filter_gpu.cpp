// GPU convolution filters against the CPU reference: every filter kind, every
// border rule, 1-4 channels (alpha images: test_filter_alpha_gpu.cpp), awkward and 8K sizes,
// constant images, pitched / packed / misaligned device layouts, both
// Gaussian implementations and the no-allocation form reused across calls.
// Every comparison is exact; a mismatch reports (x, y, channel, cpu, gpu).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/filter.hpp"
#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/gpu_filter_bench.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test::gpu_filters;
using cuda::CustomPath;
using cuda::SeparablePath;
using test::constant_image;
using test::matrix;
using test::stream;
using test::test_image;


TEST_CASE("GPU filters: every kind, border and channel count on awkward sizes") {
    for (auto [w, h] : test::awkward_sizes()) {
        for (int c = 1; c <= 4; ++c) {
            const ImageU8 src = test_image(w, h, c, static_cast<unsigned>(w * 131 + h * 7 + c));
            GpuBench gpu(src);
            for (const Border& b : all_borders()) {
                gpu.check_all_paths(make_gaussian(1.0, 0, b), "gaussian sigma 1");
                gpu.check_all_paths(make_gaussian(20.0, 0, b), "gaussian sigma 20 (radius far beyond the image)");
                gpu.check_all_paths(make_unsharp(1.5, 0, 1.2, 0.02, b), "unsharp");
                gpu.check(make_box(2, b), "box r=2");
                gpu.check(make_box(40, b), "box r=40");
                gpu.check(make_edges(EdgeOperator::Sobel, false, b), "sobel per channel");
                gpu.check(make_edges(EdgeOperator::Scharr, true, b), "scharr gray");
                gpu.check(make_edges(EdgeOperator::Laplacian, false, b), "laplacian per channel");
                gpu.check_custom(make_custom(matrix(3, 3, {1, -2, 0.5, 3, 1, -1, 0, 2, 1}), options(false, 2.0, 5.0), b),
                          "custom 3x3");
                gpu.check_custom(make_custom(random_matrix(4, 6, 11), options(true), b), "custom 4x6 (even sides)");
            }
        }
    }
}

// Past radius 16 the FP16 path runs both passes as u8 MMAs where every tap
// fits a byte (sigma 6.5 and up: largest tap 252), else as FP16 MMAs
// (sigma 5.3 to 6.4: 256 at 6.4). Sigma 5.5 at radius 20 (trimmed to
// 19) takes the second way; sigma 6.6 at radius 17 the first at the
// smallest radius it serves. Sigma 0.3 to 0.8 have centre taps from 4064
// down to 2042, even past 2048, so exact in f16: the FP16 path takes them.
TEST_CASE("GPU Gaussian: sigmas 0.3 to 25, radius 1 and 150, both implementations") {
    const cuda::FilterWorkspace ws;
    for (double sigma : {0.3, 0.5, 0.75})
        CHECK(std::string(cuda::filter_path_name(make_gaussian(sigma, 0, {}), 3, ws)).find("FP16 MMA, both passes") !=
              std::string::npos);
    struct Case {
        double sigma;
        int radius;
    } cases[] = {{0.5, 0}, {1.0, 0},  {2.0, 0},   {5.0, 0},  {20.0, 0}, {1.0, 1}, {50.0, 150}, {2.0, 150},
                 {6.3, 0}, {7.0, 0},  {12.0, 0},  {16.0, 0}, {21.0, 0}, {30.0, 64}, {30.0, 65}, {0.8, 0},
                 {5.5, 20}, {6.4, 0},  {6.5, 0},   {6.6, 17}, {0.3, 0}, {0.65, 0}, {0.75, 0}, {25.0, 0},
                 {30.0, 80}, {30.0, 81}};
    for (int c = 1; c <= 4; ++c) {
        const ImageU8 src = test_image(203, 157, c, static_cast<unsigned>(c));
        GpuBench gpu(src);
        for (const Border& b : all_borders())
            for (const Case& k : cases)
                gpu.check_all_paths(make_gaussian(k.sigma, k.radius, b), "gaussian");
    }
}

// The FP16 Gaussian gives each block a segment of one strip's rows; how many
// segments depends on the GPU's size and the image's width. On a tall image
// they come out uneven (lengths differing by one block), as short as one
// block after the warm-up blocks, and, where there are rows enough, with the
// last fifth of the rows in shorter segments. At every window size: sigma 1, 4, 7,
// 12, 20, 25 are radius 3 (M = 0, the radius <= 8 variant), 12, 21, 36, 60
// and 75 (M = 1..5).
TEST_CASE("GPU Gaussian: tall images, uneven row segments, every window size") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU8 src = test::photo_like_image(1500, 2500, c, static_cast<unsigned>(60 + c));
        GpuBench gpu(src);
        for (const Border& b : {Border{BorderMode::Reflect101, 0}, Border{BorderMode::Constant, 77}})
            for (double sigma : {1.0, 4.0, 7.0, 12.0, 20.0, 25.0})
                gpu.check(make_gaussian(sigma, 0, b), "gaussian, tall image", SeparablePath::HalfMma);
    }
}

TEST_CASE("GPU unsharp: amounts, thresholds and sigmas") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU8 src = has_alpha(c) ? test_image(151, 97, c, 5) : test::photo_like_image(151, 97, c, 5);
        GpuBench gpu(src);
        for (const Border& b : {Border{BorderMode::Replicate, 0}, Border{BorderMode::Constant, 200}})
            for (double sigma : {0.7, 1.0, 2.0, 6.0})
                for (double amount : {0.0, 0.5, 1.0, 3.7, 20.0})
                    for (double threshold : {0.0, 0.05, 0.5})
                        gpu.check_all_paths(make_unsharp(sigma, 0, amount, threshold, b), "unsharp");
    }
}

TEST_CASE("GPU box: radii 1, 15, 50, 128/129 (16/32-bit sums) and 1000") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU8 src = test_image(301, 203, c, static_cast<unsigned>(40 + c));
        GpuBench gpu(src);
        for (const Border& b : all_borders())
            for (int r : {1, 15, 50, 128, 129, 1000}) gpu.check(make_box(r, b), "box");
    }
    // Several 2048-pixel segments per row at the largest radius.
    const ImageU8 wide = test::photo_like_image(4500, 37, 3, 3);
    GpuBench gpu(wide);
    gpu.check(make_box(1000, {BorderMode::Reflect101, 0}), "box r=1000, wide");
    gpu.check(make_box(700, {BorderMode::Constant, 9}), "box r=700, wide");
}

// Radii up to 128 of alpha images run in one pass (cuda/filter_box_fused.cu,
// in wide lanes), and so do gray and RGB with IMGPAR_BOX_ONE_PASS=1 (run the
// suite so too after changing that kernel): tiles of 128 or 256 threads whose
// halos overlap, strips of rows, chunks at the image's sides read byte by
// byte. Widths put a tile's last chunk just inside, on and past the row's
// end; heights give several strips and a short last one.
TEST_CASE("GPU box in one pass: tiles, strips and both block sizes at radii 1 to 128") {
    const cuda::FilterWorkspace ws;
    const char* forced = std::getenv("IMGPAR_BOX_ONE_PASS");
    const bool forced_off = forced != nullptr && *forced != '\0' && std::atoi(forced) == 0;
    for (int c = 1; c <= 4; ++c) {
        const std::string at128 = cuda::filter_path_name(make_box(128, {}), c, ws);
        if (has_alpha(c) && !forced_off) CHECK(at128.find("one pass") != std::string::npos);
        CHECK(std::string(cuda::filter_path_name(make_box(129, {}), c, ws)).find("one pass") == std::string::npos);
    }
    for (int c = 1; c <= 4; ++c) {
        for (auto [w, h] : {std::pair<int, int>{2003, 301}, {1440, 129}, {1441, 67}, {1, 517}, {3001, 1}}) {
            const auto seed = static_cast<unsigned>(w + h + c);
            const ImageU8 src = has_alpha(c) ? test_image(w, h, c, seed) : test::photo_like_image(w, h, c, seed);
            GpuBench gpu(src);
            for (const Border& b : all_borders())
                for (int r : {1, 7, 31, 32, 47, 64, 100, 127, 128}) gpu.check(make_box(r, b), "box, one pass");
        }
    }
}

TEST_CASE("GPU edges: operators, gray and per channel, every border") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU8 src = test_image(190, 121, c, static_cast<unsigned>(70 + c));
        GpuBench gpu(src);
        for (const Border& b : all_borders())
            for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian})
                for (bool gray : {false, true}) gpu.check(make_edges(op, gray, b), "edges");
    }
}

// The rows kernels (cuda/filter_rows.cu): a warp writes 480 samples of a row
// (160 RGB pixels, 480 gray pixels or luma samples), a block 4 warps, each
// slides down a strip of rows (IMGPAR_ROWS_STRIP; by default as long as fills the
// device's resident blocks once). Widths put a
// lane's, a warp's and a block's last samples just inside, on and past the
// row's end; strips of 1, 2 and 5 rows are shorter than the ring of 3 or 7
// rows and leave a short last strip; sigma 0.3 to 0.75 give trimmed radii 1
// to 3 with centre taps past 2048; custom kernels 2x2 to 7x7 fill squares
// of radius 1 to 3 (4x7: its anchor off centre, flipped).
TEST_CASE("GPU rows kernels: edges, small-radius Gaussians and small custom kernels across lanes, warps, blocks and strips") {
    // Auto leaves them out unless asked (they are slower so far); the edges
    // run them here through IMGPAR_EDGES_ROWS, the others through their paths.
    const cuda::FilterWorkspace ws;
    const auto saved_env = [](const char* name) { return std::string(std::getenv(name) ? std::getenv(name) : ""); };
    const auto restore_env = [](const char* name, const std::string& v) {
        if (v.empty()) unsetenv(name);
        else setenv(name, v.c_str(), 1);
    };
    const std::string saved_edges = saved_env("IMGPAR_EDGES_ROWS");
    setenv("IMGPAR_EDGES_ROWS", "1", 1);
    CHECK(std::string(cuda::filter_path_name(make_edges(EdgeOperator::Sobel, false, {}), 3, ws)).find("rows") !=
          std::string::npos);
    if (saved_env("IMGPAR_SMALL_RADIUS_FIRST") != "1")
        CHECK(std::string(cuda::filter_path_name(make_gaussian(0.5, 0, {}), 3, ws)).find("small-radius") ==
              std::string::npos);
    const std::string saved = saved_env("IMGPAR_ROWS_STRIP");
    const std::pair<int, int> shapes[] = {{1, 1}, {2, 9}, {5, 1}, {15, 4}, {16, 7}, {17, 70}, {159, 3}, {160, 66},
                                          {161, 65}, {479, 5}, {480, 2}, {481, 129}, {640, 8}, {641, 9}, {1919, 3},
                                          {1921, 64}, {2000, 67}};
    for (const char* strip : {"", "1", "2", "5"}) {
        if (*strip) setenv("IMGPAR_ROWS_STRIP", strip, 1);
        else unsetenv("IMGPAR_ROWS_STRIP");
        for (int c : {1, 3}) {
            for (auto [w, h] : shapes) {
                if (*strip && w * h > 20000) continue;  // short strips: the small shapes suffice
                const ImageU8 src = test::photo_like_image(w, h, c, static_cast<unsigned>(w * 7 + h + c));
                GpuBench gpu(src);
                for (const Border& b : all_borders()) {
                    INFO("strip ", (*strip ? strip : "default"));
                    for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Laplacian})
                        for (bool gray : {false, true}) gpu.check(make_edges(op, gray, b), "edges, rows kernel");
                    for (double sigma : {0.3, 0.5, 0.6, 0.75})
                        gpu.check(make_gaussian(sigma, 0, b), "gaussian, small radius", SeparablePath::SmallRadius);
                    gpu.check(make_unsharp(0.5, 0, 1.5, 0.0, b), "unsharp, small radius", SeparablePath::SmallRadius);
                    gpu.check(make_unsharp(0.7, 0, 0.8, 0.03, b), "unsharp, small radius", SeparablePath::SmallRadius);
                    for (auto [kw, kh] : {std::pair<int, int>{2, 2}, {3, 3}, {5, 5}, {4, 7}, {7, 7}})
                        gpu.check(make_custom(random_matrix(kw, kh, static_cast<unsigned>(kw * kh)),
                                              options(false, -3.0 * kw, 100.0, kw == 4), b),
                                  "custom, small kernel", SeparablePath::Auto, CustomPath::SmallKernel);
                }
            }
        }
    }
    restore_env("IMGPAR_ROWS_STRIP", saved);
    restore_env("IMGPAR_EDGES_ROWS", saved_edges);
}

TEST_CASE("GPU custom kernels: sizes 1x1 to 63x63, signs, fractions, flip, scale, offset") {
    struct Case {
        const char* what;
        KernelMatrix k;
        CustomKernelOptions o;
    };
    const std::vector<Case> cases = {
        {"1x1 x2 offset -10", matrix(1, 1, {2}), options(false, {}, -10.0)},
        {"3x3 sharpen", matrix(3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0}), options()},
        {"3x3 fractional normalized", matrix(3, 3, {0.25, 0.5, 0.25, 0.5, 1, 0.5, 0.25, 0.5, 0.25}), options(true)},
        {"5x5 non-separable", random_matrix(5, 5, 1), options(false, 3.0, 128.0)},
        {"5x5 non-separable, flipped", random_matrix(5, 5, 1), options(false, 3.0, 128.0, true)},
        {"4x6 even sides", random_matrix(4, 6, 2), options(true)},
        {"6x4 even sides, flipped", random_matrix(6, 4, 3), options(false, -7.0, 100.0, true)},
        {"15x15", random_matrix(15, 15, 4), options(false, 40.0, 128.0)},
        {"31x31", random_matrix(31, 31, 5), options(false, 200.0, 128.0)},
        {"63x63", random_matrix(63, 63, 6), options(false, 900.0, 128.0)},
        {"1x63 row", random_matrix(63, 1, 7), options(true)},
        {"63x1 column", random_matrix(1, 63, 8), options(false, 5.0)},
        {"negative scale, fractional offset", matrix(3, 2, {1, 2, 3, -4, -5, 6.5}), options(false, -2.5, 33.25)},
    };
    for (int c = 1; c <= 4; ++c) {
        const ImageU8 src = test_image(157, 93, c, static_cast<unsigned>(90 + c));
        GpuBench gpu(src);
        for (const Case& k : cases)
            for (const Border& b : {Border{BorderMode::Replicate, 0}, Border{BorderMode::Reflect101, 0},
                                    Border{BorderMode::Constant, 77}})
                gpu.check_custom(make_custom(k.k, k.o, b), k.what);
        for (const Border& b : all_borders()) gpu.check_custom(make_custom(random_matrix(5, 5, 21), options(true), b), "5x5");
    }
}

TEST_CASE("GPU custom kernels: the FP16 tensor-core path's limits") {
    int major = 0;
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, test::session().device()));
    const FilterPlan small = make_custom(random_matrix(15, 15, 4), options(false, 40.0, 128.0), {});
    // 1.3 needs 12 fractional bits: 5325 is not an FP16 integer.
    const FilterPlan inexact = make_custom(matrix(3, 3, {1.3, 0.1, 0.2, 0.1, 1, 0.1, 0.2, 0.1, 1.3}), options(true), {});
    // |coefficients| sum to 65535, the contract's limit, yet they sum to 1: the
    // first two rows add up to 16 * 2048 * 255 (near 2^23) on a white image
    // before the last two bring S back to the pixel value, which a constant
    // image must reproduce exactly.
    std::vector<double> extreme(16, 2048.0);
    for (int i = 0; i < 15; ++i) extreme.push_back(-2048.0);
    extreme.push_back(-2047.0);
    const FilterPlan limit = make_custom(matrix(8, 4, extreme), options(false, 1.0, 0.0), {});
    CHECK(cuda::custom_path_available(small, 3, CustomPath::HalfMma) == (major >= 8));
    CHECK(cuda::custom_path_available(limit, 3, CustomPath::HalfMma) == (major >= 8));
    CHECK_FALSE(cuda::custom_path_available(inexact, 3, CustomPath::HalfMma));
    for (int c = 1; c <= 4; ++c) {
        for (int value : {-1, 0, 255}) {
            const ImageU8 src = value < 0 ? test_image(261, 131, c, static_cast<unsigned>(7 + c)) : constant_image(261, 131, c, value);
            GpuBench gpu(src);
            gpu.check_custom(limit, "sum |c| = 65535");
            gpu.check_custom(make_custom(matrix(8, 4, extreme), options(false, -3.0, 100.0, true), {BorderMode::Wrap, 0}),
                             "sum |c| = 65535, flipped, negative scale");
            gpu.check(inexact, "coefficients that are not FP16 values (auto path)");
        }
        // Sizes around the 128 x 64 output tile with kernels that need 1 to 5 column blocks.
        for (auto [w, h] : {std::pair{127, 63}, {128, 64}, {129, 65}, {255, 129}, {257, 127}}) {
            const ImageU8 src = test_image(w, h, c, static_cast<unsigned>(w + h + c));
            GpuBench gpu(src);
            for (const Border& b : {Border{BorderMode::Reflect, 0}, Border{BorderMode::Constant, 200}}) {
                gpu.check_custom(make_custom(random_matrix(9, 9, 31), options(true), b), "9x9");
                gpu.check_custom(make_custom(random_matrix(8, 8, 32), options(false, 50.0), b), "8x8");
                gpu.check_custom(make_custom(random_matrix(25, 3, 33), options(false, 9.0, 10.0), b), "25x3");
                gpu.check_custom(make_custom(random_matrix(41, 2, 34), options(false, 9.0, 10.0, true), b), "41x2 flipped");
                gpu.check_custom(make_custom(random_matrix(57, 5, 35), options(false, 90.0, 128.0), b), "57x5");
                gpu.check_custom(make_custom(random_matrix(63, 63, 36), options(false, 900.0, 128.0), b), "63x63");
            }
        }
    }
}

TEST_CASE("GPU filters on constant, black and white images") {
    for (int value : {0, 255, 128}) {
        for (int c = 1; c <= 4; ++c) {
            const ImageU8 src = test::constant_image(67, 45, c, value);
            GpuBench gpu(src);
            for (const Border& b : {Border{BorderMode::Replicate, 0}, Border{BorderMode::Constant, 0},
                                    Border{BorderMode::Constant, 255}}) {
                gpu.check_all_paths(make_gaussian(2.0, 0, b), "gaussian");
                gpu.check_all_paths(make_gaussian(20.0, 0, b), "gaussian sigma 20");
                gpu.check_all_paths(make_unsharp(1.0, 0, 1.0, 0.0, b), "unsharp");
                gpu.check(make_box(15, b), "box");
                gpu.check(make_edges(EdgeOperator::Sobel, false, b), "sobel");
                gpu.check(make_edges(EdgeOperator::Laplacian, true, b), "laplacian gray");
                gpu.check_custom(make_custom(random_matrix(5, 5, 9), options(false, 4.0, 20.0), b), "custom 5x5");
            }
        }
    }
}

TEST_CASE("GPU filters on packed and misaligned device images") {
    for (Layout layout : {Layout::Packed, Layout::Misaligned, Layout::Pitched}) {
        for (auto [w, h] : {std::pair<int, int>{97, 61}, {61, 97}, {33, 17}, {130, 5}}) {
            for (int c = 1; c <= 4; ++c) {
                const ImageU8 src = test_image(w, h, c, static_cast<unsigned>(w + h + c));
                GpuBench gpu(src, layout);
                const Border b{BorderMode::Reflect, 0};
                gpu.check_all_paths(make_gaussian(2.0, 0, b), "gaussian");
                gpu.check_all_paths(make_gaussian(9.0, 0, b), "gaussian sigma 9");
                gpu.check_all_paths(make_unsharp(1.0, 0, 2.0, 0.01, b), "unsharp");
                gpu.check(make_box(3, b), "box");
                gpu.check(make_box(200, b), "box r=200");
                gpu.check(make_edges(EdgeOperator::Scharr, false, b), "scharr");
                gpu.check(make_edges(EdgeOperator::Sobel, true, b), "sobel gray");
                gpu.check_custom(make_custom(random_matrix(5, 5, 3), options(true), b), "custom 5x5");
            }
        }
    }
}

TEST_CASE("GPU filters on 8K images (7680x4320 RGB, 8192x8192 gray)") {
    {
        const ImageU8 rgb = test::photo_like_image(7680, 4320, 3, 1);
        GpuBench gpu(rgb);
        const Border b{BorderMode::Replicate, 0};
        gpu.check(make_gaussian(2.0, 0, b), "gaussian sigma 2", SeparablePath::HalfMma);
        gpu.check(make_gaussian(2.0, 0, b), "gaussian sigma 2 (u8)", SeparablePath::ByteMma);
        gpu.check(make_gaussian(20.0, 0, {BorderMode::Reflect101, 0}), "gaussian sigma 20", SeparablePath::HalfMma);
        gpu.check(make_gaussian(20.0, 0, {BorderMode::Reflect101, 0}), "gaussian sigma 20 (u8)", SeparablePath::ByteMma);
        gpu.check(make_gaussian(1.0, 0, b), "gaussian sigma 1");
        gpu.check(make_unsharp(1.0, 0, 1.0, 0.05, b), "sharpen defaults");
        gpu.check(make_box(15, b), "box r=15");
        gpu.check(make_edges(EdgeOperator::Sobel, false, b), "sobel");
        gpu.check_custom(make_custom(random_matrix(5, 5, 12), options(true), {BorderMode::Constant, 30}), "custom 5x5");
    }
    {
        const ImageU8 gray = test::photo_like_image(8192, 8192, 1, 2);
        GpuBench gpu(gray);
        const Border b{BorderMode::Reflect, 0};
        gpu.check(make_gaussian(5.0, 0, b), "gaussian sigma 5", SeparablePath::HalfMma);
        gpu.check(make_unsharp(3.0, 0, 1.5, 0.02, b), "sharpen sigma 3", SeparablePath::HalfMma);
        gpu.check(make_gaussian(5.0, 0, b), "gaussian sigma 5 (u8)", SeparablePath::ByteMma);
        gpu.check(make_box(50, b), "box r=50");
        gpu.check_custom(make_custom(random_matrix(5, 5, 13), options(false, 11.0, 0.0), b), "custom 5x5");
    }
}

TEST_CASE("GPU no-allocation form: one reserved workspace reused across calls") {
    const ImageU8 a = test_image(321, 123, 4, 1);
    const ImageU8 b = test_image(123, 321, 3, 2);
    cuda::FilterWorkspace ws;
    ws.set_separable_path(SeparablePath::ByteMma);
    // The largest scratch any of the calls below needs.
    ws.reserve(make_box(1000, {}), 321, 321, 4);
    ws.reserve(make_gaussian(3.0, 0, {}), 321, 321, 4);
    const std::uint8_t* scratch = ws.scratch();
    const std::size_t bytes = ws.scratch_bytes();
    REQUIRE(bytes > 0);

    const std::vector<FilterPlan> plans = {make_box(1000, {}), make_gaussian(3.0, 0, {}), make_box(5, {}),
                                           make_unsharp(2.0, 0, 1.0, 0.0, {}), make_edges(EdgeOperator::Sobel, true, {}),
                                           make_custom(random_matrix(7, 7, 1), options(true), {})};
    for (int round = 0; round < 2; ++round) {
        for (const ImageU8* img : {&a, &b}) {
            DevImage src = make_device(img->width(), img->height(), img->channels(), Layout::Pitched);
            upload(src, *img);
            for (const FilterPlan& plan : plans) {
                DevImage dst = make_device(img->width(), img->height(), plan.output_channels(img->channels()),
                                           Layout::Pitched);
                poison(dst);
                ws.set_separable_path(round == 0 ? SeparablePath::ByteMma : SeparablePath::Auto);
                cuda::apply_filter(plan, src.ref, dst.ref, ws, stream());
                INFO(plan.describe(), " round ", round);
                IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_filter(plan, img->view()), download(dst));
                CHECK(ws.scratch() == scratch);
                CHECK(ws.scratch_bytes() == bytes);
            }
        }
    }
}

TEST_CASE("GPU Gaussian: a new workspace's ticket counter starts at zero on the call's stream, whatever it held") {
    // The tensor-core Gaussian's persistent blocks take their row segments
    // from the workspace's counter. Its memory comes from cudaMalloc and may
    // hold what a freed buffer left there; the first call must zero it in
    // its stream's order (a blocking copy from pageable memory is not: it
    // returns before its DMA lands, unordered with non-blocking streams, and
    // a batch's new sessions then wrote mostly unblurred, black photos).
    const ImageU8 img = test_image(1203, 611, 3, 5);
    const FilterPlan plan = make_gaussian(2.0, 0, {});
    for (const unsigned long long garbage : {0x7FFFFFFFFFFFFFFFull, 123456789ull, ~0ull}) {
        cuda::FilterWorkspace ws;
        ws.reserve(plan, img.width(), img.height(), img.channels());
        REQUIRE(ws.tickets() != nullptr);
        IMGPAR_CUDA_CHECK(cudaMemcpy(ws.tickets(), &garbage, sizeof garbage, cudaMemcpyHostToDevice));
        IMGPAR_CUDA_CHECK(cudaDeviceSynchronize());
        DevImage src = make_device(img.width(), img.height(), 3, Layout::Pitched);
        upload(src, img);
        for (int call = 0; call < 2; ++call) {
            DevImage dst = make_device(img.width(), img.height(), 3, Layout::Pitched);
            poison(dst);
            cuda::apply_filter(plan, src.ref, dst.ref, ws, stream());
            INFO("counter held ", garbage, "; call ", call);
            IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_filter(plan, img.view()), download(dst));
        }
    }
}

TEST_CASE("GPU filters through a session (the seam) match the CPU and name their kernel") {
    const ImageU8 src = test_image(211, 99, 4, 8);
    for (const FilterPlan& plan : {make_gaussian(3.0, 0, {}), make_box(4, {}), make_unsharp(1.0, 0, 1.0, 0.05, {}),
                                   make_edges(EdgeOperator::Scharr, true, {}),
                                   make_custom(random_matrix(3, 5, 4), options(true), {})}) {
        INFO(plan.describe());
        std::string kernel;
        const ImageU8 got = gpu::run_on_images(test::session(), src.view(), plan.output_channels(src.channels()),
                                               [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
                                                   gpu::apply_filter(test::session(), plan, in, out, &kernel);
                                               });
        IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_filter(plan, src.view()), got);
        CHECK(!kernel.empty());
    }
}

TEST_CASE("GPU filter: bad shapes are usage errors and touch nothing") {
    const ImageU8 img = test_image(40, 30, 3, 1);
    DevImage src = make_device(40, 30, 3, Layout::Pitched);
    upload(src, img);
    cuda::FilterWorkspace ws;
    auto expect_usage = [&](const FilterPlan& plan, const DeviceViewU8& s, const DeviceViewU8& d,
                            const char* fragment) {
        try {
            cuda::apply_filter(plan, s, d, ws, stream());
            FAIL("no error for: ", fragment);
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Usage);
            INFO(e.what());
            CHECK(std::string(e.what()).find(fragment) != std::string::npos);
        }
    };
    DevImage wrong_channels = make_device(40, 30, 4, Layout::Pitched);
    DevImage wrong_size = make_device(41, 30, 3, Layout::Pitched);
    DevImage gray = make_device(40, 30, 1, Layout::Pitched);
    poison(wrong_channels);
    const ImageU8 before = download(wrong_channels);
    expect_usage(make_gaussian(1.0, 0, {}), src.ref, wrong_channels.ref, "destination");
    expect_usage(make_box(3, {}), src.ref, wrong_size.ref, "destination");
    expect_usage(make_edges(EdgeOperator::Sobel, false, {}), src.ref, gray.ref, "destination");
    expect_usage(make_gaussian(1.0, 0, {}), src.ref, src.ref, "overlaps");
    IMGPAR_CHECK_IMAGES_EQUAL(before, download(wrong_channels));

    FilterPlan broken = make_gaussian(2.0, 0, {});
    broken.taps.pop_back();
    DevImage dst = make_device(40, 30, 3, Layout::Pitched);
    expect_usage(broken, src.ref, dst.ref, "taps");
    // gray=true edges write one channel (two with alpha).
    cuda::apply_filter(make_edges(EdgeOperator::Sobel, true, {}), src.ref, gray.ref, ws, stream());
    IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_filter(make_edges(EdgeOperator::Sobel, true, {}), img.view()), download(gray));
}


TEST_CASE("GPU and CPU accept and reject the same plans: one validator (box radius 0, negative unsharp amount)") {
    const ImageU8 src = test_image(40, 30, 3, 2);
    FilterPlan box0 = make_box(1, {});
    box0.radius = 0;
    FilterPlan negative = make_unsharp(1.0, 0, 1.0, 0.05, {});
    negative.amount = -1.0;
    negative.amount_q8 = -256;
    FilterPlan short_taps = make_gaussian(2.0, 0, {});
    short_taps.taps.pop_back();
    cuda::DeviceImageU8 d_src = cuda::DeviceImageU8::from_host(src.view(), stream());
    cuda::DeviceImageU8 d_dst(40, 30, 3);
    for (const FilterPlan* p : {&box0, &negative, &short_taps}) {
        INFO(p->describe());
        CHECK_THROWS_AS(cpu::apply_filter(*p, src.view()), Error);
        CHECK_THROWS_AS(gpu::apply_filter(test::session(), *p, d_src.view(), d_dst.view()), Error);
    }
}
