// 16-bit equalization (src/ops/equalize.hpp, 16-BIT CONTRACT) against the
// contract written out here: brute-force counts, the cumulative
// distribution, and the rounding as an integer quotient and remainder
// (ties upward), 65,536 levels; luma mode through Rec. 601 luma of the
// 16-bit samples; alpha copied; odd sizes and every layout; in place.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/equalize.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

// The table of a plane's samples, from the definition.
std::vector<int> reference_lut16(const std::vector<int>& samples) {
    std::vector<unsigned long long> h(65536, 0);
    for (int s : samples) ++h[static_cast<std::size_t>(s)];
    const unsigned long long n = samples.size();
    unsigned long long cdf_min = 0;
    for (unsigned long long c : h)
        if (c != 0) {
            cdf_min = c;
            break;
        }
    std::vector<int> lut(65536);
    unsigned long long cdf = 0;
    for (int v = 0; v < 65536; ++v) {
        cdf += h[static_cast<std::size_t>(v)];
        if (n == cdf_min) {
            lut[static_cast<std::size_t>(v)] = v;
        } else if (cdf < cdf_min) {
            lut[static_cast<std::size_t>(v)] = 0;
        } else {
            const unsigned long long span = n - cdf_min, q = (cdf - cdf_min) * 65535ull;
            lut[static_cast<std::size_t>(v)] = static_cast<int>(q / span + (2 * (q % span) >= span ? 1 : 0));
        }
    }
    return lut;
}

int luma16(int r, int g, int b) { return (77 * r + 150 * g + 29 * b + 128) / 256; }

ImageU16 reference_equalize16(const ImageU16& img, EqualizeMode mode) {
    const int C = img.channels();
    const int colour = C == 2 || C == 4 ? C - 1 : C;
    ImageU16 out = ImageU16::copy_of(img.view());
    if (mode == EqualizeMode::Luma && C >= 3) {
        std::vector<int> ys;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) ys.push_back(luma16(img.at(x, y, 0), img.at(x, y, 1), img.at(x, y, 2)));
        const std::vector<int> lut = reference_lut16(ys);
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const int l = luma16(img.at(x, y, 0), img.at(x, y, 1), img.at(x, y, 2));
                for (int c = 0; c < 3; ++c)
                    out.at(x, y, c) = static_cast<std::uint16_t>(std::clamp(img.at(x, y, c) + lut[static_cast<std::size_t>(l)] - l, 0, 65535));
            }
        return out;
    }
    for (int c = 0; c < colour; ++c) {
        std::vector<int> samples;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) samples.push_back(img.at(x, y, c));
        const std::vector<int> lut = reference_lut16(samples);
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) out.at(x, y, c) = static_cast<std::uint16_t>(lut[img.at(x, y, c)]);
    }
    return out;
}

}  // namespace

TEST_CASE("equalize u16: the contract at odd sizes, every layout and both modes") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c)
            for (EqualizeMode mode : {EqualizeMode::Luma, EqualizeMode::Channels}) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(equalize_mode_name(mode));
                const ImageU16 img = test::random_runs_image16(w, h, c, static_cast<unsigned>(w * 5 + h + c));
                const ImageU16 got = cpu::equalize(img.view(), mode);
                IMGPAR_CHECK_IMAGES_EQUAL(reference_equalize16(img, mode), got);
            }
}

TEST_CASE("equalize u16: constant planes stay, few values spread to 0..65535, in place") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU16 flat = test::flat_image16(33, 31, c, 4097);
        IMGPAR_CHECK_IMAGES_EQUAL(flat, cpu::equalize(flat.view(), EqualizeMode::Channels));
        const ImageU16 few = test::few_values16(129, 65, c, 3);
        for (EqualizeMode mode : {EqualizeMode::Luma, EqualizeMode::Channels}) {
            CAPTURE(c);
            CAPTURE(equalize_mode_name(mode));
            const ImageU16 want = reference_equalize16(few, mode);
            IMGPAR_CHECK_IMAGES_EQUAL(want, cpu::equalize(few.view(), mode));
            ImageU16 in_place = ImageU16::copy_of(few.view());
            cpu::equalize(in_place.view(), in_place.view(), mode);
            IMGPAR_CHECK_IMAGES_EQUAL(want, in_place);
        }
    }
    // A plane of two values maps them to 0 and 65535.
    ImageU16 two(2, 1, 1);
    two.at(0, 0, 0) = 300;
    two.at(1, 0, 0) = 301;
    const ImageU16 out = cpu::equalize(two.view());
    CHECK(out.at(0, 0, 0) == 0);
    CHECK(out.at(1, 0, 0) == 65535);
    CHECK(equalize_lut16(cpu::histogram(two.view()).plane(0))[299] == 0);
}

TEST_CASE("equalize u16: a shape mismatch is refused") {
    const ImageU16 img = test::random_runs_image16(5, 4, 3);
    ImageU16 wrong(5, 4, 1);
    CHECK_THROWS_AS(cpu::equalize(img.view(), wrong.view()), Error);
}
