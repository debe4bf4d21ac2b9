// 16-bit images in and out: PNG (libpng reading, imgpar's encoder writing)
// and TIFF keep every sample; the formats that hold 8 bits get the image
// reduced to nearest with a warning; --depth widens and reduces exactly;
// a file loads at 16 bits only where the run asks and the format allows.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "src/io/load.hpp"
#include "src/io/metadata.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/sample_depth.hpp"
#include "src/io/save.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

LoadedImage load16(const std::vector<std::uint8_t>& bytes) {
    LoadOptions o;
    o.keep_16_bits = true;
    return decode_image("mem", bytes, o);
}

bool has_warning(const std::vector<std::string>& warnings, const std::string& text) {
    for (const std::string& w : warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("16-bit PNG: every layout and awkward size round-trips exactly at every compression") {
    if (!png_codec_available()) return;
    for (const auto& [w, h] : test::awkward_sizes())
        for (int c = 1; c <= 4; ++c)
            for (int level : {0, 1, 9}) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(level);
                const ImageU16 img = test::random_image16(w, h, c, static_cast<unsigned>(w * 7 + h + c));
                SaveOptions o;
                o.compression = level;
                std::vector<std::string> warnings;
                const std::vector<std::uint8_t> bytes = encode_image(img.view(), ImageFormat::Png, o, warnings);
                CHECK(warnings.empty());
                const LoadedImage back = load16(bytes);
                CHECK(back.header.bit_depth == 16);
                REQUIRE(back.sixteen());
                IMGPAR_CHECK_IMAGES_EQUAL(img, back.image16);
            }
}

TEST_CASE("16-bit PNG and TIFF: loaded at 16 bits only when asked; otherwise reduced to nearest with a warning") {
    const ImageU16 img = test::photo_like_image16(67, 41, 3, 5);
    for (ImageFormat f : {ImageFormat::Png, ImageFormat::Tiff}) {
        CAPTURE(format_name(f));
        std::vector<std::string> warnings;
        const std::vector<std::uint8_t> bytes = encode_image(img.view(), f, SaveOptions{}, warnings);
        const LoadedImage eight = decode_image("mem", bytes, LoadOptions{});
        CHECK_FALSE(eight.sixteen());
        IMGPAR_CHECK_IMAGES_EQUAL(reduce_to_8_bits(img.view()), eight.image);
        CHECK(has_warning(eight.warnings, "reduced to 8 bits"));
        const LoadedImage sixteen = load16(bytes);
        CHECK(loads_16_bits(sixteen.header));
        CHECK(loaded_type(sixteen.header, LoadOptions{}) == SampleType::U8);
        REQUIRE(sixteen.sixteen());
        IMGPAR_CHECK_IMAGES_EQUAL(img, sixteen.image16);
        CHECK(sixteen.warnings.empty());
    }
    // An 8-bit file stays 8-bit whatever the run takes.
    std::vector<std::string> warnings;
    const ImageU8 small = test::random_image(9, 7, 2, 3);
    const LoadedImage png8 = load16(encode_image(small.view(), ImageFormat::Png, SaveOptions{}, warnings));
    CHECK_FALSE(loads_16_bits(png8.header));
    CHECK_FALSE(png8.sixteen());
    IMGPAR_CHECK_IMAGES_EQUAL(small, png8.image);
}

TEST_CASE("16-bit images to 8-bit formats are reduced to nearest, with a warning unless --depth 8 asked") {
    const ImageU16 img = test::photo_like_image16(33, 21, 3, 9);
    const ImageU8 reduced = reduce_to_8_bits(img.view());
    for (ImageFormat f : {ImageFormat::Jpeg, ImageFormat::Webp, ImageFormat::Bmp}) {
        CAPTURE(format_name(f));
        std::vector<std::string> warnings, none;
        const std::vector<std::uint8_t> from16 = encode_image(img.view(), f, SaveOptions{}, warnings);
        CHECK(has_warning(warnings, "holds 8 bits per sample"));
        CHECK(from16 == encode_image(reduced.view(), f, SaveOptions{}, none));
        SaveOptions eight;
        eight.depth = 8;
        warnings.clear();
        CHECK(encode_image(img.view(), f, eight, warnings) == from16);
        CHECK(warnings.empty());
    }
    // --depth 8 to PNG: the reduced image, written as 8 bits.
    SaveOptions eight;
    eight.depth = 8;
    std::vector<std::string> warnings;
    const LoadedImage png = load16(encode_image(img.view(), ImageFormat::Png, eight, warnings));
    CHECK(png.header.bit_depth == 8);
    IMGPAR_CHECK_IMAGES_EQUAL(reduced, png.image);
}

TEST_CASE("--depth 16 widens an 8-bit image exactly (v * 257) for PNG and TIFF, and refuses other formats") {
    const ImageU8 img = test::layout_image(29, 17, 4, 2);
    SaveOptions sixteen;
    sixteen.depth = 16;
    for (ImageFormat f : {ImageFormat::Png, ImageFormat::Tiff}) {
        std::vector<std::string> warnings;
        const LoadedImage back = load16(encode_image(img.view(), f, sixteen, warnings));
        CHECK(back.header.bit_depth == 16);
        REQUIRE(back.sixteen());
        IMGPAR_CHECK_IMAGES_EQUAL(test::widened(img), back.image16);
        IMGPAR_CHECK_IMAGES_EQUAL(img, reduce_to_8_bits(back.image16.view()));
    }
    CHECK_NOTHROW(check_output_depth("a.png", ImageFormat::Png, 16));
    CHECK_NOTHROW(check_output_depth("a.jpg", ImageFormat::Jpeg, 8));
    CHECK_THROWS_WITH(check_output_depth("a.jpg", ImageFormat::Jpeg, 16),
                      doctest::Contains("JPEG holds 8 bits per sample"));
}

TEST_CASE("EXIF orientation turns 16-bit pixels as it turns 8-bit ones") {
    const ImageU8 img = test::random_image(7, 4, 3, 4);
    for (int o = 1; o <= 8; ++o) {
        CAPTURE(o);
        IMGPAR_CHECK_IMAGES_EQUAL(test::widened(apply_orientation(img.view(), o)),
                                  apply_orientation(test::widened(img).view(), o));
    }
}
