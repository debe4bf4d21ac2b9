// GIF through giflib: the first frame of an animation with a warning,
// transparency to alpha, interlaced rows in place, a frame smaller than its
// screen, and broken or hostile files refused naming the file.
#include <doctest/doctest.h>

#include "src/io/gif_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/load_checks.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;

namespace {

bool have_gif() {
    if (gif_codec_available()) return true;
    MESSAGE("this build has no giflib: GIF checks skipped");
    return false;
}

// A GIF89a of a `w` x `h` screen and a frame of `fw` x `fh`, 2 colours, the
// frame's LZW data for a single code then its end.
std::vector<std::uint8_t> tiny_gif(int w, int h, int fw, int fh) {
    auto le16 = [](std::vector<std::uint8_t>& v, int x) {
        v.push_back(static_cast<std::uint8_t>(x & 0xff));
        v.push_back(static_cast<std::uint8_t>(x >> 8));
    };
    std::vector<std::uint8_t> g = {'G', 'I', 'F', '8', '9', 'a'};
    le16(g, w);
    le16(g, h);
    g.insert(g.end(), {0x80, 0, 0, 0, 0, 0, 255, 255, 255});  // global table of 2 colours
    g.push_back(0x2c);
    le16(g, 0);
    le16(g, 0);
    le16(g, fw);
    le16(g, fh);
    g.push_back(0);
    g.insert(g.end(), {2, 2, 0x44, 0x01, 0, 0x3b});  // min code size 2; clear, 0, end
    return g;
}

}  // namespace

TEST_CASE("gif: an animation loads as its first frame with a warning; palette to RGB") {
    if (!have_gif()) return;
    const LoadedImage a = load_image(test::data_path("anim.gif"));
    CHECK(a.header.format == ImageFormat::Gif);
    CHECK(a.image.width() == 64);
    CHECK(a.image.height() == 43);
    CHECK(a.image.channels() == 3);
    REQUIRE(a.warnings.size() == 1);
    CHECK(a.warnings[0] == "animated GIF of 3 frames: the first frame is read");
}

TEST_CASE("gif: transparency becomes alpha, interlaced rows land in place, a bare screen is transparent") {
    if (!have_gif()) return;
    const LoadedImage t = load_image(test::data_path("trns_interlaced.gif"));
    REQUIRE(t.image.channels() == 4);
    CHECK(t.warnings.empty());
    int transparent = 0;
    for (std::size_t i = 3; i < t.image.size_bytes(); i += 4) transparent += t.image.data()[i] == 0;
    CHECK(transparent > 0);
    CHECK(transparent < static_cast<int>(t.image.pixel_count()));

    const LoadedImage o = load_image(test::data_path("offset.gif"));
    REQUIRE(o.image.width() == 9);
    REQUIRE(o.image.height() == 7);
    REQUIRE(o.image.channels() == 4);
    for (int y = 0; y < 7; ++y)
        for (int x = 0; x < 9; ++x) {
            const bool inside = x >= 2 && x < 5 && y >= 1 && y < 3;
            CAPTURE(x);
            CAPTURE(y);
            CHECK((o.image.view().pixel(x, y)[3] == 255) == inside);
        }
}

TEST_CASE("gif: hostile and broken files are refused naming the file") {
    if (!have_gif()) return;
    // A screen of 65535 x 65535: the pixel limit, before anything is decoded.
    std::string e = test::input_error_of([&] { (void)decode_image("screen.gif", tiny_gif(65535, 65535, 1, 1), LoadOptions{}); });
    CHECK(has(e, "screen.gif"));
    CHECK(has(e, "65535x65535"));
    // A small screen with a frame of 65535 x 65535: its rows are limited too.
    e = test::input_error_of([&] { (void)decode_image("frame.gif", tiny_gif(4, 4, 65535, 65535), LoadOptions{}); });
    CHECK(has(e, "frame.gif"));
    CHECK(has(e, "above the limit"));
    // A frame claiming 4000 x 4000 whose data holds one pixel: corrupt.
    e = test::input_error_of([&] { (void)decode_image("short.gif", tiny_gif(4000, 4000, 4000, 4000), LoadOptions{}); });
    CHECK(has(e, "short.gif"));
    CHECK(has(e, "GIF data is truncated or corrupt"));

    // A file cut inside its first frame: refused, or in part with --allow-partial.
    const auto whole = test::file_vector(test::data_path("trns_interlaced.gif"));
    const std::vector<std::uint8_t> cut(whole.begin(), whole.begin() + static_cast<long>(whole.size() * 2 / 3));
    e = test::input_error_of([&] { (void)decode_image("cut.gif", cut, LoadOptions{}); });
    CHECK(has(e, "cut.gif"));
    CHECK(has(e, "truncated"));
    const LoadedImage part = test::decode_bytes(cut, test::partial_load());
    CHECK(part.image.width() == 64);
    CHECK(!part.warnings.empty());
    // Cut in the header: refused.
    const std::vector<std::uint8_t> head(whole.begin(), whole.begin() + 20);
    CHECK(has(test::input_error_of([&] { (void)decode_image("head.gif", head, LoadOptions{}); }), "head.gif"));
}

TEST_CASE("gif: imgpar does not write GIF: a usage error for the name and for --format") {
    CHECK_THROWS_AS(output_format("out.gif", std::nullopt), Error);
    CHECK_THROWS_AS(parse_format_name("gif"), Error);
    try {
        (void)output_format("out.gif", std::nullopt);
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        CHECK(has(e.what(), "does not write"));
    }
}
