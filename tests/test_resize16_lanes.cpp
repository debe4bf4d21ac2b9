// 16-bit resize's vector passes (src/ops/simd/resize16_lanes.hpp): every
// filter, factor and layout through cpu::resize gives the samples of the
// 16-bit two-pass reference (cpu::resize_one_lane), under every SIMD
// target: odd sizes (vector tails), crops, harsh 0/65535 input that drives
// the lobes past both ends, area at ratios whose divisor is no power of two
// (large ones too), and the lanes' rounding against 64-bit integers.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "src/ops/resize.hpp"
#include "src/ops/resize_math.hpp"
#include "src/ops/simd/resize16_lanes.hpp"
#include "src/ops/simd/targets.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

ImageU16 board16(int w, int h, int c) {
    ImageU16 img(w, h, c);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int k = 0; k < c; ++k) img.at(x, y, k) = ((x + y + k) % 2) ? 65535 : 0;
    return img;
}

}  // namespace

TEST_CASE("16-bit resize: the vector passes give the two-pass reference's samples for every filter, size and layout") {
    const std::array<int, 2> inputs[] = {{1, 1}, {1, 37}, {37, 1}, {97, 61}, {257, 129}};
    const std::array<int, 2> outputs[] = {{1, 1}, {3, 2}, {13, 7}, {29, 18}, {129, 64}, {300, 90}};
    simd::for_each_simd_target([&](const std::string& target) {
        int compared = 0;
        for (ResizeFilter f : {ResizeFilter::Nearest, ResizeFilter::Bilinear, ResizeFilter::Bicubic, ResizeFilter::Lanczos3,
                               ResizeFilter::Area})
            for (int c = 1; c <= 4; ++c)
                for (const auto& [iw, ih] : inputs)
                    for (const auto& [ow, oh] : outputs)
                        for (const bool harsh : {false, true}) {
                            const ImageU16 img = harsh ? board16(iw, ih, c) : test::random_image16(iw, ih, c, 3);
                            const bool crop = (ow + oh) % 2 == 1;
                            const int cw = crop ? std::max(1, ow / 2) : ow, ch = crop ? std::max(1, oh / 3) : oh;
                            const ResizePlan plan = resize_plan(
                                f, iw, ih, {ow, oh, crop ? (ow - cw) / 2 : 0, crop ? oh - ch : 0, cw, ch}, SampleType::U16);
                            ImageU16 fast(cw, ch, c), plain(cw, ch, c);
                            cpu::resize(plan, img.view(), fast.view());
                            cpu::resize_one_lane(plan, img.view(), plain.view());
                            CAPTURE(target);
                            CAPTURE(resize_filter_name(f));
                            CAPTURE(c);
                            CAPTURE(iw);
                            CAPTURE(ih);
                            CAPTURE(ow);
                            CAPTURE(oh);
                            CAPTURE(harsh);
                            IMGPAR_CHECK_IMAGES_EQUAL(plain, fast);
                            ++compared;
                        }
        CHECK(compared == 5 * 4 * 5 * 6 * 2);
    });
}

TEST_CASE("16-bit resize: area at ratios of large divisors and mixed filters through the vector passes") {
    // 7681 -> 1000 (gcd 1: a divisor of 7681 a pass), 4320 -> 563, 1000 ->
    // 7 both ways; and a filter one way with area the other.
    struct Case { int iw, ih, ow, oh; ResizeFilter f; };
    const Case cases[] = {{7681, 3, 1000, 2, ResizeFilter::Area}, {5, 4320, 3, 563, ResizeFilter::Area},
                          {1000, 1000, 7, 7, ResizeFilter::Area}, {640, 3, 333, 2, ResizeFilter::Area}};
    simd::for_each_simd_target([&](const std::string& target) {
        for (const Case& k : cases)
            for (int c : {1, 3}) {
                const ImageU16 img = test::random_image16(k.iw, k.ih, c, 4);
                const ResizePlan plan = resize_plan(k.f, k.iw, k.ih, {k.ow, k.oh, 0, 0, k.ow, k.oh}, SampleType::U16);
                ImageU16 fast(k.ow, k.oh, c), plain(k.ow, k.oh, c);
                cpu::resize(plan, img.view(), fast.view());
                cpu::resize_one_lane(plan, img.view(), plain.view());
                CAPTURE(target);
                CAPTURE(k.iw);
                CAPTURE(k.ow);
                CAPTURE(c);
                IMGPAR_CHECK_IMAGES_EQUAL(plain, fast);
            }
        // Lanczos3 across, area down; and the reverse.
        ResizePlan mixed = resize_plan(ResizeFilter::Lanczos3, 301, 203, {97, 61, 0, 0, 97, 61}, SampleType::U16);
        mixed.y = resize_axis(ResizeFilter::Area, 203, 61, 0, 61, kResizeWeightBits16);
        ResizePlan reverse = resize_plan(ResizeFilter::Area, 301, 203, {97, 61, 0, 0, 97, 61}, SampleType::U16);
        reverse.y = resize_axis(ResizeFilter::Lanczos3, 203, 61, 0, 61, kResizeWeightBits16);
        for (const ResizePlan& plan : {mixed, reverse}) {
            const ImageU16 img = board16(301, 203, 3);
            ImageU16 fast(97, 61, 3), plain(97, 61, 3);
            cpu::resize(plan, img.view(), fast.view());
            cpu::resize_one_lane(plan, img.view(), plain.view());
            CAPTURE(target);
            IMGPAR_CHECK_IMAGES_EQUAL(plain, fast);
        }
    });
}

TEST_CASE("16-bit resize lanes: the output rounding equals resize_output on 64-bit sums at every tie, clamp and divisor") {
    // Two taps, weights 2^20 and 1, over two rows of intermediates a and b:
    // sum = 2^20 a + b reaches any sum below 2^41 with b in [0, 2^20).
    const std::uint64_t divisors[] = {1, 3, 16, 100, 7681, 1u << 26, 829440, 4320ull * 7681, (1ull << 34) - 1};
    const std::int32_t w[2] = {1 << 20, 1};
    simd::for_each_simd_target([&](const std::string& target) {
        for (const std::uint64_t d : divisors) {
            std::vector<std::int64_t> sums;
            const std::int64_t dd = static_cast<std::int64_t>(d);
            for (const std::int64_t q : {0LL, 1LL, 2LL, 1000LL, 65534LL, 65535LL, 65536LL, 70000LL, -1LL, -70000LL})
                for (const std::int64_t r : {-1LL, 0LL, 1LL})
                    for (const std::int64_t sum : {q * dd + dd / 2 + r, q * dd + r})  // the ties and the multiples
                        if (sum > -(std::int64_t{1} << 40) && sum < (std::int64_t{1} << 40)) sums.push_back(sum);
            const std::size_t n = sums.size();
            std::vector<std::int32_t> rows(2 * n);
            for (std::size_t i = 0; i < n; ++i) {
                const std::int64_t a = floor_shift<std::int64_t>(sums[i], 20);
                rows[i] = static_cast<std::int32_t>(a);
                rows[n + i] = static_cast<std::int32_t>(sums[i] - a * (1 << 20));
            }
            // One output pixel of n channels over a band of two input columns.
            std::vector<std::uint16_t> out(n);
            std::uint16_t* const row[1] = {out.data()};
            const std::int32_t start = 0;
            simd::resize_band16(&start, w, 2, 2, 1, rows.data(), n, static_cast<int>(n), d, row);
            const ExactDivider div = ExactDivider::of(d);
            int wrong = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const int want = resize_output(sums[i], div, 65535);
                if (out[i] != want && ++wrong <= 3) {
                    CAPTURE(target);
                    CAPTURE(d);
                    CAPTURE(sums[i]);
                    CHECK(int(out[i]) == want);
                }
            }
            CHECK(wrong == 0);
        }
    });
}
