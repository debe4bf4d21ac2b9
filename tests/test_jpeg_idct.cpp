// The JPEG decode split between the cores and the GPU, on the CPU against
// libjpeg-turbo itself: its entropy decoder's coefficients
// (src/io/jpeg_coefficients.hpp) through imgpar's inverse DCT
// (src/io/jpeg_idct.hpp) must be its own planes, sample for sample, and with
// its upsampling and colour conversion (src/io/jpeg_color.hpp) its pixels;
// forged coefficients must either give its samples or be marked unsafe. The
// GPU suite checks the kernels built from the same code.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_idct.hpp"
#include "src/io/load.hpp"
#include "src/io/png_codec.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;

#if IMGPAR_TEST_LIBJPEG
namespace {

using test::all_blocks;
using test::split_pixels;
using test::split_planes;
using test::SplitPlanes;

// The first sample of a safe block (when only_safe) where the planes differ:
// "(x, y, component, libjpeg-turbo, idct)", or empty.
std::string plane_mismatch(const std::vector<test::Plane>& expected, const JpegCoefficients& k,
                           const std::vector<test::Plane>& actual, bool only_safe) {
    const std::vector<std::int16_t> coefficients = all_blocks(k);
    for (int c = 0; c < k.components; ++c) {
        const JpegCoefficients::Component& comp = k.component[static_cast<std::size_t>(c)];
        const test::Plane& e = expected[static_cast<std::size_t>(c)];
        const test::Plane& a = actual[static_cast<std::size_t>(c)];
        for (int by = 0; by < comp.blocks_high; ++by)
            for (int bx = 0; bx < comp.blocks_wide; ++bx) {
                const std::int16_t* block =
                    coefficients.data() + (comp.first_block + static_cast<std::size_t>(by) * comp.blocks_wide + bx) * 64;
                std::uint8_t scratch[64];
                if (only_safe && !jpeg_idct::idct_islow(block, comp.quant.data(), scratch, 8)) continue;
                for (int y = by * 8; y < by * 8 + 8; ++y)
                    for (int x = bx * 8; x < bx * 8 + 8; ++x) {
                        const int want = e.data[static_cast<std::size_t>(y) * e.pitch + static_cast<std::size_t>(x)];
                        const int got = a.data[static_cast<std::size_t>(y) * a.pitch + static_cast<std::size_t>(x)];
                        if (want != got) {
                            char text[160];
                            std::snprintf(text, sizeof text, "(x %d, y %d, component %d, libjpeg-turbo %d, idct %d)", x, y,
                                          c, want, got);
                            return text;
                        }
                    }
            }
    }
    return {};
}

std::string pixel_mismatch(const ImageU8& expected, const ImageU8& actual) {
    for (int y = 0; y < expected.height(); ++y)
        for (int x = 0; x < expected.width(); ++x)
            for (int c = 0; c < expected.channels(); ++c)
                if (expected.at(x, y, c) != actual.at(x, y, c)) {
                    char text[160];
                    std::snprintf(text, sizeof text, "(x %d, y %d, channel %d, libjpeg-turbo %d, split decode %d)", x, y, c,
                                  expected.at(x, y, c), actual.at(x, y, c));
                    return text;
                }
    return {};
}

void check_file(const std::vector<std::uint8_t>& jpeg) {
    REQUIRE(jpeg_coefficients_suit(jpeg.data(), jpeg.size()));
    const LoadedImage decoded = decode_image("test.jpg", jpeg, LoadOptions{});
    std::vector<std::string> warnings;
    const JpegCoefficients k =
        jpeg_read_coefficients("test.jpg", jpeg, decoded.image.width(), decoded.image.height(), warnings);
    CHECK(warnings.empty());
    const SplitPlanes ours = split_planes(k);
    CHECK(ours.unsafe_blocks == 0);  // an encoder's coefficients
    CHECK(plane_mismatch(test::raw_planes(jpeg), k, ours.planes, false) == "");
    CHECK(pixel_mismatch(decoded.image, split_pixels(ours, k)) == "");
}

}  // namespace

TEST_CASE("jpeg idct: an encoder's coefficients through the inverse DCT are libjpeg-turbo's planes and pixels") {
    const int sizes[][2] = {{1, 1}, {1, 9}, {9, 1}, {7, 8}, {8, 8}, {9, 9}, {16, 17}, {17, 16}, {31, 33}, {97, 61}};
    for (const auto& s : sizes)
        for (int quality : {1, 30, 75, 95, 100}) {
            CAPTURE(s[0]);
            CAPTURE(s[1]);
            CAPTURE(quality);
            check_file(jpeg_encode(test::photo_like_image(s[0], s[1], 1, 3).view(), quality, ChromaSubsampling::Auto,
                                   nullptr, false));
            for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420}) {
                CAPTURE(static_cast<int>(chroma));
                check_file(jpeg_encode(test::photo_like_image(s[0], s[1], 3, 7).view(), quality, chroma, nullptr, false));
                check_file(jpeg_encode(test::random_image(s[0], s[1], 3, 11).view(), quality, chroma, nullptr, false));
            }
        }
    // Degenerate and saturated images, and a larger photo in stripes (restart markers).
    for (int value : {0, 255, 128}) check_file(jpeg_encode(test::constant_image(40, 24, 3, value).view(), 90));
    check_file(jpeg_encode(test::photo_like_image(1031, 517, 3, 3).view(), 95, ChromaSubsampling::S420));
    check_file(jpeg_encode(test::random_image(2500, 900, 3, 5).view(), 85, ChromaSubsampling::S420));
}

TEST_CASE("jpeg idct: forged coefficients give libjpeg-turbo's samples, or their block is unsafe") {
    std::mt19937 rng(2026);
    int safe_files = 0, unsafe_files = 0;
    for (int round = 0; round < 40; ++round) {
        CAPTURE(round);
        const test::ForgedJpeg forged = test::forged_jpeg(rng, round);
        const std::vector<std::uint8_t>& jpeg = forged.bytes;
        const int width = forged.width, height = forged.height;
        REQUIRE(jpeg_coefficients_suit(jpeg.data(), jpeg.size()));
        std::vector<std::string> warnings;
        const JpegCoefficients k = jpeg_read_coefficients("forged.jpg", jpeg, width, height, warnings);
        const SplitPlanes ours = split_planes(k);
        (ours.unsafe_blocks ? unsafe_files : safe_files) += 1;
        CHECK(plane_mismatch(test::raw_planes(jpeg), k, ours.planes, true) == "");
    }
    // Both kinds were tried.
    CHECK(safe_files > 5);
    CHECK(unsafe_files > 5);
}

TEST_CASE("jpeg idct: a component no scan carried decodes as libjpeg-turbo decodes it (mid-gray samples)") {
    // Found by the split fuzz target: libjpeg-turbo leaves such a component
    // without a quantization table.
    const ImageU8 source = test::photo_like_image(37, 29, 3, 9);
    // (imgpar's header check refuses it unless --allow-partial.)
    const std::vector<std::uint8_t> jpeg = test::jpeg_with_luma_scan_only(source.data(), 37, 29);
    LoadOptions partial;
    partial.allow_partial = true;
    const LoadedImage decoded = decode_image("cut.jpg", jpeg, partial);
    std::vector<std::string> warnings;
    JpegDecodeOptions options;
    options.allow_partial = true;
    const JpegCoefficients k = jpeg_read_coefficients("cut.jpg", jpeg, 37, 29, warnings, options);
    for (std::uint16_t q : k.component[1].quant) CHECK(q == 0);
    const SplitPlanes ours = split_planes(k);
    CHECK(ours.unsafe_blocks == 0);
    CHECK(plane_mismatch(test::raw_planes(jpeg), k, ours.planes, false) == "");
    CHECK(pixel_mismatch(decoded.image, split_pixels(ours, k)) == "");
}

TEST_CASE("jpeg coefficients: which files suit, and errors as jpeg_decode's") {
    const std::vector<std::uint8_t> jpeg = jpeg_encode(test::photo_like_image(64, 48, 3, 1).view(), 90);
    CHECK(jpeg_coefficients_suit(jpeg.data(), jpeg.size()));
    const std::vector<std::uint8_t> png = png_encode(test::photo_like_image(8, 8, 3, 1).view(), PngEncodeOptions{});
    CHECK_FALSE(jpeg_coefficients_suit(png.data(), png.size()));
    CHECK_FALSE(jpeg_coefficients_suit(jpeg.data(), 20));
    // Cut in the scan: an error naming the file, or with --allow-partial a warning.
    const std::vector<std::uint8_t> cut(jpeg.begin(), jpeg.begin() + static_cast<std::ptrdiff_t>(jpeg.size() * 2 / 3));
    std::vector<std::string> warnings;
    try {
        jpeg_read_coefficients("cut.jpg", cut, 64, 48, warnings);
        FAIL("a cut file was read");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("cut.jpg") != std::string::npos);
        CHECK(std::string(e.what()).find("truncated") != std::string::npos);
    }
    // Blocks copied in pieces that cross rows and components are the whole copy's.
    {
        std::vector<std::string> none;
        const JpegCoefficients whole = jpeg_read_coefficients("a.jpg", jpeg, 64, 48, none);
        const std::vector<std::int16_t> all = all_blocks(whole);
        CHECK(all_blocks(whole, 7) == all);
        std::vector<std::int16_t> pieces(all.size());
        CHECK_THROWS_AS(whole.copy_blocks(whole.blocks - 1, 2, pieces.data()), Error);
    }
    JpegDecodeOptions partial;
    partial.allow_partial = true;
    const JpegCoefficients k = jpeg_read_coefficients("cut.jpg", cut, 64, 48, warnings, partial);
    CHECK(k.components == 3);
    CHECK_FALSE(warnings.empty());
}

#else
TEST_CASE("jpeg idct: libjpeg-turbo's planes (not checked: this build has no libjpeg-turbo)") {
    MESSAGE("built without libjpeg-turbo: the split decode is not compared");
}
#endif
