// AVIF through libavif: every layout written and read back (gray as 4:0:0,
// alpha exact), deep files reduced as 16-bit PNGs are, ICC and EXIF kept,
// and broken files refused naming the file.
#include <doctest/doctest.h>

#include "src/io/avif_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/sample_depth.hpp"
#include "src/io/save.hpp"
#include "tests/support/load_checks.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;

namespace {

bool have_avif(bool encode) {
    if (avif_codec_available() && (!encode || avif_encoder_available())) return true;
    MESSAGE("this build's libavif is absent or cannot encode: AVIF checks skipped");
    return false;
}

}  // namespace

TEST_CASE("avif: each layout is written and read back with its channels, alpha exact") {
    if (!have_avif(true)) return;
    for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {13, 11}, {96, 64}}) {
            CAPTURE(channels);
            CAPTURE(w);
            const ImageU8 img = has_alpha(channels) ? test::alpha_image(w, h, channels, 4)
                                                    : test::photo_like_image(w, h, channels, 4);
            AvifEncodeOptions o;
            o.quality = 95;
            const LoadedImage back = test::decode_bytes(avif_encode(img.view(), o));
            CHECK(back.header.format == ImageFormat::Avif);
            CHECK(back.header.bit_depth == 8);
            CHECK(back.warnings.empty());
            REQUIRE(back.image.channels() == channels);
            REQUIRE(back.image.width() == w);
            if (has_alpha(channels))
                for (std::size_t i = static_cast<std::size_t>(channels - 1); i < img.size_bytes(); i += static_cast<std::size_t>(channels))
                    REQUIRE(back.image.data()[i] == img.data()[i]);
            else if (w > 1)
                CHECK(test::psnr_u8(img, back.image) > 30);
        }
}

TEST_CASE("avif: quality reaches the encoder; ICC and EXIF go in and come back") {
    if (!have_avif(true)) return;
    const ImageU8 img = test::photo_like_image(128, 96, 3, 8);
    ImageMetadata m;
    m.icc = std::vector<std::uint8_t>(200, 3);
    m.exif = {'M', 'M', 0, '*', 0, 0, 0, 8, 0, 0, 0, 0, 0, 0};
    AvifEncodeOptions o;
    o.quality = 30;
    const auto low = avif_encode(img.view(), o);
    o.quality = 90;
    o.metadata = &m;
    const auto high = avif_encode(img.view(), o);
    CHECK(low.size() < high.size());
    const ImageHeader h = read_image_header("m.avif", high, LoadOptions{});
    CHECK(h.metadata.icc == m.icc);
    CHECK(h.metadata.exif == m.exif);
    SaveOptions s;
    std::vector<std::string> warnings;
    CHECK(encode_image(img.view(), ImageFormat::Avif, s, warnings).size() > 0);
}

TEST_CASE("avif: a 10-bit file loads as its 16-bit samples reduced, with the PNG's warning; 4:0:0 is gray") {
    if (!have_avif(false)) return;
    const auto bytes = test::file_vector(test::data_path("deep10.avif"));
    const LoadedImage a = test::decode_bytes(bytes);
    CHECK(a.header.bit_depth == 10);
    REQUIRE(a.warnings.size() == 1);
    CHECK(a.warnings[0] == "10-bit AVIF reduced to 8 bits per sample (rounded to nearest)");
    const AvifHeaderInfo h = avif_read_header("deep10.avif", bytes);
    const ImageU16 wide = avif_decode_16("deep10.avif", bytes, h, kDefaultMaxPixels);
    IMGPAR_CHECK_IMAGES_EQUAL(reduce_to_8_bits(wide.cview()), a.image);

    CHECK(load_image(test::data_path("gray.avif")).image.channels() == 1);
    const LoadedImage rgba = load_image(test::data_path("rgba.avif"));
    CHECK(rgba.image.channels() == 4);
    CHECK(rgba.image.width() == 64);
}

TEST_CASE("avif: broken files are refused naming the file") {
    if (!have_avif(false)) return;
    const auto whole = test::file_vector(test::data_path("rgba.avif"));
    for (std::size_t keep : {whole.size() / 2, whole.size() - 10, std::size_t{40}}) {
        CAPTURE(keep);
        const std::vector<std::uint8_t> cut(whole.begin(), whole.begin() + static_cast<long>(keep));
        const std::string e = test::input_error_of([&] { (void)decode_image("cut.avif", cut, LoadOptions{}); });
        CHECK(has(e, "cut.avif"));
        CHECK(has(e, "AVIF"));
    }
    // A file type box naming AVIF and nothing else.
    const std::vector<std::uint8_t> bare = {0, 0, 0, 16, 'f', 't', 'y', 'p', 'a', 'v', 'i', 'f', 0, 0, 0, 0};
    CHECK(has(test::input_error_of([&] { (void)decode_image("bare.avif", bare, LoadOptions{}); }), "bare.avif"));
}
