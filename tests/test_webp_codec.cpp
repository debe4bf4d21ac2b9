// WebP through libwebp: lossless round trips exact for every layout and
// awkward sizes, lossy outputs close with alpha exact, EXIF and ICC kept,
// animations read as their first frame, and hostile files (cut, claiming a
// huge canvas, corrupt) refused naming the file.
#include <doctest/doctest.h>

#include "src/io/codec_pixels.hpp"
#include "src/io/gif_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "src/io/webp_codec.hpp"
#include "tests/support/load_checks.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;

namespace {

bool have_webp() {
    if (webp_codec_available()) return true;
    MESSAGE("this build has no libwebp: WebP checks skipped");
    return false;
}

ImageU8 test_image(int w, int h, int channels, unsigned seed) {
    return has_alpha(channels) ? test::alpha_image(w, h, channels, seed) : test::random_image(w, h, channels, seed);
}

std::vector<std::uint8_t> encode_webp(const ImageU8& img, bool lossless, int quality = kDefaultWebpQuality,
                                      const ImageMetadata* m = nullptr) {
    WebpEncodeOptions o;
    o.lossless = lossless;
    o.quality = quality;
    o.metadata = m;
    return webp_encode(img.view(), o);
}

// What WebP stores for `img`: gray as RGB.
ImageU8 as_stored(const ImageU8& img) { return img.channels() <= 2 ? gray_as_rgb(img.view()) : ImageU8::copy_of(img.view()); }

}  // namespace

TEST_CASE("webp: lossless round trips are exact for every layout and awkward sizes") {
    if (!have_webp()) return;
    for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 7}, {7, 1}, {13, 11}, {301, 203}}) {
            CAPTURE(channels);
            CAPTURE(w);
            CAPTURE(h);
            const ImageU8 img = test_image(w, h, channels, static_cast<unsigned>(w * 7 + h + channels));
            const LoadedImage back = test::decode_bytes(encode_webp(img, true));
            CHECK(back.header.format == ImageFormat::Webp);
            CHECK(back.warnings.empty());
            REQUIRE(back.image.channels() == (has_alpha(channels) ? 4 : 3));
            IMGPAR_CHECK_IMAGES_EQUAL(as_stored(img), back.image);
        }
}

TEST_CASE("webp: lossy outputs are close, alpha exact, and smaller at lower quality") {
    if (!have_webp()) return;
    for (int channels : {3, 4}) {
        const ImageU8 img = channels == 4 ? test::alpha_image(160, 120, 4, 3) : test::photo_like_image(160, 120, 3, 3);
        const auto q90 = encode_webp(img, false, 90);
        const auto q50 = encode_webp(img, false, 50);
        CHECK(q50.size() < q90.size());
        const LoadedImage back = test::decode_bytes(q90);
        REQUIRE(back.image.channels() == channels);
        if (channels == 4) {
            for (std::size_t i = 3; i < img.size_bytes(); i += 4) REQUIRE(back.image.data()[i] == img.data()[i]);
        } else {
            CHECK(test::psnr_u8(img, back.image) > 28);
        }
    }
}

TEST_CASE("webp: the header is read without decoding, EXIF and ICC go in and come back") {
    if (!have_webp()) return;
    ImageMetadata m;
    m.icc = std::vector<std::uint8_t>(300, 7);
    m.exif = {'I', 'I', '*', 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const ImageU8 img = test::photo_like_image(33, 21, 3, 5);
    for (bool lossless : {false, true}) {
        const auto bytes = encode_webp(img, lossless, 80, &m);
        LoadOptions o;
        o.images = 0;
        const ImageHeader h = read_image_header("x.webp", bytes, o);
        CHECK(h.format == ImageFormat::Webp);
        CHECK(h.width == 33);
        CHECK(h.height == 21);
        CHECK(h.channels == 3);
        CHECK(h.metadata.icc == m.icc);
        CHECK(h.metadata.exif == m.exif);
        CHECK(test::decode_bytes(bytes).image.width() == 33);
    }
    // Without metadata: a plain file, nothing read back.
    CHECK(read_image_header("y.webp", encode_webp(img, false), LoadOptions{}).metadata.empty());
}

TEST_CASE("webp: an animation loads as its first frame, with a warning naming the frame count") {
    if (!have_webp()) return;
    const LoadedImage a = load_image(test::data_path("anim.webp"));
    CHECK(a.image.width() == 64);
    CHECK(a.image.height() == 43);
    REQUIRE(a.warnings.size() == 1);
    CHECK(a.warnings[0] == "animated WebP of 3 frames: the first frame is read");
    // The first frame is the GIF's first frame: gif2webp keeps its colours
    // (on a canvas with alpha, opaque here).
    if (gif_codec_available()) {
        const LoadedImage g = load_image(test::data_path("anim.gif"));
        REQUIRE(a.image.channels() == 4);
        REQUIRE(g.image.channels() == 3);
        int differ = 0;
        for (std::size_t p = 0; p < g.image.pixel_count(); ++p)
            for (int c = 0; c < 4; ++c)
                differ += a.image.data()[p * 4 + c] != (c == 3 ? 255 : g.image.data()[p * 3 + c]);
        CHECK(differ == 0);
    }
}

TEST_CASE("webp: an animation without a complete frame is refused, by info's header read too") {
    if (!have_webp()) return;
    // Found by the header fuzzer: an animation flag, an ANIM chunk, no frame
    // whole enough for libwebpdemux to count (it had been reported as 0 pages).
    const std::vector<std::uint8_t> bytes = test::file_vector(test::data_path("anim_no_frame.webp"));
    LoadOptions header_only;
    header_only.images = 0;
    std::string e = test::input_error_of([&] { (void)read_image_header("empty.webp", bytes, header_only); });
    CHECK(has(e, "empty.webp"));
    CHECK(has(e, "without a complete frame"));
    e = test::input_error_of([&] { (void)decode_image("empty.webp", bytes, LoadOptions{}); });
    CHECK(has(e, "empty.webp"));
}

TEST_CASE("webp: hostile files are refused naming the file, in bounded time and memory") {
    if (!have_webp()) return;
    const ImageU8 img = test::photo_like_image(200, 150, 3, 9);
    const auto whole = encode_webp(img, false);

    // Cut in half: refused, or decoded in part with --allow-partial.
    std::vector<std::uint8_t> cut(whole.begin(), whole.begin() + static_cast<long>(whole.size() / 2));
    std::string e = test::input_error_of([&] { (void)decode_image("cut.webp", cut, LoadOptions{}); });
    CHECK(has(e, "cut.webp"));
    CHECK(has(e, "WebP data is truncated"));
    const LoadedImage part = test::decode_bytes(cut, test::partial_load());
    CHECK(part.image.height() == 150);
    REQUIRE(!part.warnings.empty());
    CHECK(has(part.warnings.back(), "rows decoded, the rest black (--allow-partial)"));

    // A canvas of 2^24 x 2^24 claimed by an extended header: the limit, from the bytes.
    std::vector<std::uint8_t> huge = {'R', 'I', 'F', 'F', 22, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'X', 10, 0, 0, 0,
                                      0,   0,   0,   0,   0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    e = test::input_error_of([&] { (void)decode_image("huge.webp", huge, LoadOptions{}); });
    CHECK(has(e, "huge.webp"));
    CHECK(has(e, "16777216x16777216"));
    CHECK(has(e, "--max-pixels"));

    // A lossless header claiming 2000 x 2000 for a 5 x 5 image's data: the
    // decoder finds too little there.
    auto lossless = encode_webp(test::random_image(5, 5, 3, 1), true);
    REQUIRE(lossless[20] == 0x2f);
    std::uint32_t bits = static_cast<std::uint32_t>(lossless[21]) | (static_cast<std::uint32_t>(lossless[22]) << 8) |
                         (static_cast<std::uint32_t>(lossless[23]) << 16) | (static_cast<std::uint32_t>(lossless[24]) << 24);
    bits = (bits & 0xf0000000u) | 1999u | (1999u << 14);
    for (int i = 0; i < 4; ++i) lossless[static_cast<std::size_t>(21 + i)] = static_cast<std::uint8_t>(bits >> (8 * i));
    e = test::input_error_of([&] { (void)decode_image("claims.webp", lossless, LoadOptions{}); });
    CHECK(has(e, "claims.webp"));

    // A corrupt chunk: the VP8 frame's start code broken.
    std::vector<std::uint8_t> corrupt = whole;
    corrupt[23] ^= 0xff;
    e = test::input_error_of([&] { (void)decode_image("corrupt.webp", corrupt, LoadOptions{}); });
    CHECK(has(e, "corrupt.webp"));
    CHECK(has(e, "WebP"));
}

TEST_CASE("webp: outputs beyond the format's size are refused before encoding; --lossless and quality reach the encoder") {
    CHECK_THROWS_AS(check_output_size("big.webp", ImageFormat::Webp, 16384, 10), Error);
    CHECK_NOTHROW(check_output_size("ok.webp", ImageFormat::Webp, 16383, 16383));
    if (!have_webp()) return;
    const ImageU8 img = test::photo_like_image(64, 48, 3, 2);
    SaveOptions o;
    std::vector<std::string> warnings;
    const auto q_default = encode_image(img.view(), ImageFormat::Webp, o, warnings);
    CHECK(q_default == encode_webp(img, false, kDefaultWebpQuality));
    o.quality = 40;
    o.quality_given = true;
    CHECK(encode_image(img.view(), ImageFormat::Webp, o, warnings) == encode_webp(img, false, 40));
    o.lossless = true;
    IMGPAR_CHECK_IMAGES_EQUAL(img, test::decode_bytes(encode_image(img.view(), ImageFormat::Webp, o, warnings)).image);
    CHECK(warnings.empty());
}
