// 16-bit area resize at whole factors (src/ops/resize_blocks.hpp): the
// 32-bit-lane divider against the rounded quotient at every rounding
// boundary, and the block path's samples against the 16-bit two-pass
// reference (cpu::resize_one_lane) and the exact block mean, under every
// SIMD target: odd sizes, factors 1..5 and non-square ones, every channel
// count, crops, samples over 0..65535, and blocks beyond 32-bit sums.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "src/ops/resize.hpp"
#include "src/ops/resize_blocks.hpp"
#include "src/ops/simd/block_means.hpp"
#include "src/ops/simd/targets.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

// The sums where round(v / d) changes or ties: each quotient q's multiples
// q d, q d + d / 2 (the tie, or the last below it for odd d) and its
// neighbours, and d - 1 above, for every q up to 65535.
std::vector<std::uint32_t> boundary_sums(std::uint32_t d) {
    std::vector<std::uint32_t> v;
    for (std::uint32_t q = 0; q <= 65535; ++q)
        for (const std::uint32_t r : {0u, 1u, d / 2 - (d > 1 ? 1u : 0u), d / 2, d / 2 + 1, d - 1}) {
            const std::uint64_t s = std::uint64_t{q} * d + r;
            if (r < d && s <= std::uint64_t{65535} * d) v.push_back(static_cast<std::uint32_t>(s));
        }
    return v;
}

// The exact mean of each block, rounded half up: the specification.
ImageU16 block_means16(const ImageU16& src, int fx, int fy, int x0, int y0, int w, int h) {
    ImageU16 out(w, h, src.channels());
    const int C = src.channels();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                std::uint64_t sum = 0;
                for (int j = 0; j < fy; ++j)
                    for (int i = 0; i < fx; ++i) sum += src.at((x0 + x) * fx + i, (y0 + y) * fy + j, c);
                const std::uint64_t d = static_cast<std::uint64_t>(fx) * fy;
                out.at(x, y, c) = static_cast<std::uint16_t>((2 * sum + d) / (2 * d));
            }
    return out;
}

ImageU16 constant16(int w, int h, int c, std::uint16_t v) {
    ImageU16 img(w, h, c);
    for (std::size_t i = 0; i < img.sample_count(); ++i) img.data()[i] = v;
    return img;
}

}  // namespace

TEST_CASE("16-bit block means: the divider's round(v / d), half up, at every rounding boundary of every sum") {
    std::vector<std::uint32_t> divisors;
    for (std::uint32_t d = 1; d <= 40; ++d) divisors.push_back(d);
    for (const std::uint32_t d : {49u, 64u, 100u, 255u, 256u, 257u, 1000u, 1369u, 4095u, 4096u, 65535u, 65536u})
        divisors.push_back(d);
    simd::for_each_simd_target([&](const std::string& target) {
        for (const std::uint32_t d : divisors) {
            const simd::BlockDivider16 div = simd::BlockDivider16::of(static_cast<int>(d));
            const std::vector<std::uint32_t> sums = boundary_sums(d);
            std::vector<std::uint16_t> vectors(sums.size());
            simd::block_row_means(sums.data(), 1, 1, div, sums.size(), vectors.data());  // fx 1: one sum each
            int wrong = 0;
            for (std::size_t k = 0; k < sums.size(); ++k) {
                const std::uint64_t v = sums[k];
                const std::uint64_t want = (2 * v + d) / (2 * std::uint64_t{d});
                if (div.mean(sums[k]) != want || vectors[k] != want) {
                    if (++wrong <= 3) {
                        CAPTURE(target);
                        CAPTURE(d);
                        CAPTURE(v);
                        CHECK(int(div.mean(sums[k])) == int(want));
                        CHECK(int(vectors[k]) == int(want));
                    }
                }
            }
            CHECK(wrong == 0);
        }
    });
    CHECK_THROWS(simd::BlockDivider16::of(0));
    CHECK_THROWS(simd::BlockDivider16::of(65537));
}

TEST_CASE("16-bit resize: area at whole factors takes the block path, with the two-pass reference's samples and the exact means") {
    simd::for_each_simd_target([](const std::string& target) {
        int compared = 0;
        // Factors (fx, fy): square and not, 1 to 5 and larger; output sizes
        // 1x1, 1xN, Nx1, primes (vector tails) and a --fill crop.
        for (const auto& [fx, fy] : std::vector<std::array<int, 2>>{
                 {1, 1}, {2, 2}, {2, 1}, {1, 2}, {3, 3}, {4, 4}, {5, 5}, {2, 3}, {3, 2}, {5, 2}, {4, 5}, {16, 16}, {8, 32}, {1, 256}, {37, 37}})
            for (int c = 1; c <= 4; ++c)
                for (const auto& [ow, oh, crop] : std::vector<std::array<int, 3>>{
                         {1, 1, 0}, {1, 13, 0}, {29, 1, 0}, {67, 5, 0}, {31, 7, 1}}) {
                    if (fx * fy > 256 && ow * oh > 40) continue;  // keep it quick
                    const int iw = ow * fx + (crop ? 2 * fx : 0), ih = oh * fy + (crop ? 2 * fy : 0);
                    const ImageU16 img = test::random_image16(iw, ih, c, 5 + static_cast<unsigned>(fx * 7 + fy));
                    const ResizeGeometry g = crop ? ResizeGeometry{ow + 2, oh + 2, 1, 1, ow, oh} : ResizeGeometry{ow, oh, 0, 0, ow, oh};
                    const ResizePlan plan = resize_plan(ResizeFilter::Area, iw, ih, g, SampleType::U16);
                    CAPTURE(target);
                    CAPTURE(fx);
                    CAPTURE(fy);
                    CAPTURE(c);
                    CAPTURE(ow);
                    CAPTURE(oh);
                    CAPTURE(crop);
                    // Alpha: premultiplied colour is the general path's, unless both axes copy.
                    const bool copies = fx == 1 && fy == 1;
                    REQUIRE(cpu::resize_takes_blocks(plan, c) == (copies || !has_alpha(c)));
                    ImageU16 fast(ow, oh, c), plain(ow, oh, c);
                    cpu::resize(plan, img.view(), fast.view());
                    cpu::resize_one_lane(plan, img.view(), plain.view());
                    IMGPAR_CHECK_IMAGES_EQUAL(plain, fast);
                    if (!has_alpha(c) || copies) IMGPAR_CHECK_IMAGES_EQUAL(block_means16(img, fx, fy, crop, crop, ow, oh), fast);
                    ++compared;
                }
        CHECK(compared == 292);
    });
}

TEST_CASE("16-bit resize: blocks at the 32-bit sums' bound and beyond it (64-bit sums, the exact divider)") {
    // 256 x 256 = 65536 (the lanes' last divisor: 65535 x 65536 + 32768 <
    // 2^32), 257 x 256 and 300 x 300 beyond it; all-65535 blocks overflow
    // any 32-bit sum there.
    for (const auto& [fx, fy] : std::vector<std::array<int, 2>>{{256, 256}, {257, 256}, {300, 300}, {1, 70000}})
        for (int c : {1, 3}) {
            const int ow = fy == 70000 ? 3 : 2, oh = 1;
            const int iw = ow * fx, ih = oh * fy;
            const ResizePlan plan = resize_plan(ResizeFilter::Area, iw, ih, {ow, oh, 0, 0, ow, oh}, SampleType::U16);
            CAPTURE(fx);
            CAPTURE(fy);
            CAPTURE(c);
            REQUIRE(cpu::resize_takes_blocks(plan, c));
            for (const ImageU16& img : {constant16(iw, ih, c, 65535), test::random_image16(iw, ih, c, 9)}) {
                ImageU16 fast(ow, oh, c), plain(ow, oh, c);
                cpu::resize(plan, img.view(), fast.view());
                cpu::resize_one_lane(plan, img.view(), plain.view());
                IMGPAR_CHECK_IMAGES_EQUAL(plain, fast);
                IMGPAR_CHECK_IMAGES_EQUAL(block_means16(img, fx, fy, 0, 0, ow, oh), fast);
            }
        }
}

TEST_CASE("16-bit resize: what the block path takes and leaves, and the kernel it names") {
    const auto plan16 = [](ResizeFilter f, int in, int out) {
        return resize_plan(f, in, in, {out, out, 0, 0, out, out}, SampleType::U16);
    };
    CHECK(cpu::resize_takes_blocks(plan16(ResizeFilter::Area, 64, 32), 3));
    CHECK(cpu::resize_takes_blocks(plan16(ResizeFilter::Area, 370, 10), 1));  // 37 x 37: beyond 8-bit lanes, not 32-bit ones
    CHECK_FALSE(cpu::resize_takes_blocks(resize_plan(ResizeFilter::Area, 370, 370, {10, 10, 0, 0, 10, 10}), 1));
    CHECK_FALSE(cpu::resize_takes_blocks(plan16(ResizeFilter::Area, 64, 32), 4));  // alpha: premultiplied
    CHECK_FALSE(cpu::resize_takes_blocks(plan16(ResizeFilter::Area, 64, 48), 3));  // not a whole factor
    CHECK_FALSE(cpu::resize_takes_blocks(plan16(ResizeFilter::Lanczos3, 64, 32), 3));
    CHECK(cpu::resize_kernel_name16(plan16(ResizeFilter::Area, 64, 32), 3).find("block means") == 0);
    CHECK(cpu::resize_kernel_name16(plan16(ResizeFilter::Area, 64, 48), 3).find("block means") == std::string::npos);
}
