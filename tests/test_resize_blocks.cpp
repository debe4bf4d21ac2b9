// Area resize at whole factors (src/ops/resize_blocks.hpp): the division by
// every block size against the rounded quotient for every sum, and the
// block path's bytes against the general path's and against the exact mean,
// under every SIMD target.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "src/ops/resize.hpp"
#include "src/ops/resize_blocks.hpp"
#include "src/ops/simd/block_means.hpp"
#include "src/ops/simd/targets.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

TEST_CASE("block means: the divider's round(v / d), half up, for every block size and every sum") {
    simd::for_each_simd_target([](const std::string& target) {
        for (int d = 1; d <= 256; ++d) {
            const simd::BlockDivider div = simd::BlockDivider::of(d);
            std::vector<std::uint16_t> sums(static_cast<std::size_t>(255 * d + 1));
            for (std::size_t v = 0; v < sums.size(); ++v) sums[v] = static_cast<std::uint16_t>(v);
            std::vector<std::uint8_t> vectors(sums.size());
            simd::block_row_means(sums.data(), 1, 1, div, sums.size(), vectors.data());  // fx 1: one sum each
            int wrong = 0;
            for (std::uint32_t v = 0; v < sums.size(); ++v) {
                const std::uint32_t want = (2 * v + static_cast<std::uint32_t>(d)) / (2 * static_cast<std::uint32_t>(d));
                if (div.mean(v) != want || vectors[v] != want) {
                    if (++wrong <= 3) {
                        CAPTURE(target);
                        CAPTURE(d);
                        CAPTURE(v);
                        CHECK(int(div.mean(v)) == int(want));
                        CHECK(int(vectors[v]) == int(want));
                    }
                }
            }
            CHECK(wrong == 0);
        }
    });
    CHECK_THROWS(simd::BlockDivider::of(0));
    CHECK_THROWS(simd::BlockDivider::of(257));
}

namespace {

// The exact mean of each block, rounded half up: the specification.
ImageU8 block_means(const ImageU8& src, int fx, int fy, int x0, int y0, int w, int h) {
    ImageU8 out(w, h, src.channels());
    const int C = src.channels();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                int sum = 0;
                for (int j = 0; j < fy; ++j)
                    for (int i = 0; i < fx; ++i) sum += src.at((x0 + x) * fx + i, (y0 + y) * fy + j, c);
                out.at(x, y, c) = static_cast<std::uint8_t>((2 * sum + fx * fy) / (2 * fx * fy));
            }
    return out;
}

}  // namespace

TEST_CASE("resize: area at whole factors takes the block path, with the general path's bytes and the exact means") {
    simd::for_each_simd_target([](const std::string& target) {
        int compared = 0;
        // Factors (fx, fy), output sizes with and without vector tails, and
        // a --fill crop (the kept blocks start inside the image).
        for (const auto& [fx, fy] : std::vector<std::array<int, 2>>{
                 {1, 1}, {2, 2}, {2, 1}, {1, 2}, {3, 3}, {4, 4}, {2, 3}, {5, 2}, {16, 16}, {8, 32}, {1, 256}})
            for (int c : {1, 3})
                for (const auto& [ow, oh, crop] : std::vector<std::array<int, 3>>{{1, 1, 0}, {7, 3, 0}, {67, 5, 0}, {33, 9, 1}}) {
                    const int iw = ow * fx + (crop ? 2 * fx : 0), ih = oh * fy + (crop ? 2 * fy : 0);
                    const ImageU8 img = test::photo_like_image(iw, ih, c, 11);
                    const ResizeGeometry g = crop ? ResizeGeometry{ow + 2, oh + 2, 1, 1, ow, oh} : ResizeGeometry{ow, oh, 0, 0, ow, oh};
                    const ResizePlan plan = resize_plan(ResizeFilter::Area, iw, ih, g);
                    CAPTURE(target);
                    CAPTURE(fx);
                    CAPTURE(fy);
                    CAPTURE(c);
                    CAPTURE(ow);
                    CAPTURE(crop);
                    REQUIRE(cpu::resize_takes_blocks(plan, c));
                    ImageU8 fast(ow, oh, c), plain(ow, oh, c);
                    cpu::resize(plan, img.view(), fast.view());
                    cpu::resize_one_lane(plan, img.view(), plain.view());
                    IMGPAR_CHECK_IMAGES_EQUAL(plain, fast);
                    IMGPAR_CHECK_IMAGES_EQUAL(block_means(img, fx, fy, crop, crop, ow, oh), fast);
                    ++compared;
                }
        CHECK(compared == 88);
    });
}

TEST_CASE("resize: what the block path leaves to the general path") {
    // Alpha (premultiplied), a non-whole factor, blocks over 256 pixels, a filter.
    CHECK_FALSE(cpu::resize_takes_blocks(resize_plan(ResizeFilter::Area, 64, 64, {32, 32, 0, 0, 32, 32}), 4));
    CHECK_FALSE(cpu::resize_takes_blocks(resize_plan(ResizeFilter::Area, 64, 64, {48, 48, 0, 0, 48, 48}), 3));
    CHECK_FALSE(cpu::resize_takes_blocks(resize_plan(ResizeFilter::Area, 370, 370, {10, 10, 0, 0, 10, 10}), 1));
    CHECK_FALSE(cpu::resize_takes_blocks(resize_plan(ResizeFilter::Lanczos3, 64, 64, {32, 32, 0, 0, 32, 32}), 3));
    CHECK(cpu::resize_takes_blocks(resize_plan(ResizeFilter::Area, 64, 64, {32, 32, 0, 0, 32, 32}), 3));
    CHECK(cpu::resize_kernel_name(resize_plan(ResizeFilter::Area, 64, 64, {32, 32, 0, 0, 32, 32}), 3).find("block means") == 0);
}
