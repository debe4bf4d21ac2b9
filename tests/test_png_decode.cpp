// imgpar's PNG decoder: every colour type, bit depth, transparency chunk and
// interlacing gives the channels and pixels stb gives (what imgpar has always
// delivered; 16-bit samples rounded to nearest, where stb's 8-bit path
// truncates), the header agrees with the decoded image, and corrupt or
// truncated files are input errors that name the file, never a crash.
#include <doctest/doctest.h>

#include <functional>
#include <random>
#include <string>

#include "src/error.hpp"
#include "src/io/load.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/save.hpp"
#include "tests/support/png_reference.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// Where each chunk of a PNG lies: its length field's offset and data length.
struct ChunkAt {
    std::size_t at = 0;
    std::size_t length = 0;
    std::string type;
};

std::uint32_t be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

std::vector<ChunkAt> chunks_of(const std::vector<std::uint8_t>& png) {
    std::vector<ChunkAt> out;
    for (std::size_t at = 8; at + 12 <= png.size();) {
        ChunkAt c{at, be32(&png[at]), std::string(reinterpret_cast<const char*>(&png[at + 4]), 4)};
        out.push_back(c);
        at += 12 + c.length;
    }
    return out;
}

// Recomputes every chunk's CRC, so a change inside a chunk reaches the
// decoder's deeper checks instead of the CRC check.
void fix_crcs(std::vector<std::uint8_t>& png) {
    for (const ChunkAt& c : chunks_of(png)) {
        if (c.at + 12 + c.length > png.size()) break;
        const std::uint32_t crc = test::png_crc(&png[c.at + 4], c.length + 4);
        for (int i = 0; i < 4; ++i) png[c.at + 8 + c.length + i] = static_cast<std::uint8_t>(crc >> (24 - 8 * i));
    }
}

std::vector<std::uint8_t> encoded(const ImageU8& img) {
    std::vector<std::string> warnings;
    return encode_image(img.view(), ImageFormat::Png, SaveOptions{}, warnings);
}

// Decoding `bytes` either succeeds with an image of the header's size or
// fails with an input error naming the file; `must_fail` rules out success.
void check_refused_or_whole(const std::vector<std::uint8_t>& bytes, bool must_fail, const std::string& what) {
    INFO(what);
    try {
        LoadedImage img = decode_image("damaged.png", bytes, {});
        CHECK_FALSE(must_fail);
        CHECK(img.image.width() == img.header.width);
        CHECK(img.image.channels() == img.header.channels);
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        CHECK(std::string(e.what()).find("damaged.png") != std::string::npos);
    }
}

}  // namespace

#if IMGPAR_HAVE_LIBPNG

namespace {

// A chunk with its length and CRC, to splice into a file.
std::vector<std::uint8_t> chunk(const std::string& type, const std::string& data) {
    std::vector<std::uint8_t> c(4);
    for (int i = 0; i < 4; ++i) c[i] = static_cast<std::uint8_t>(data.size() >> (24 - 8 * i));
    c.insert(c.end(), type.begin(), type.end());
    c.insert(c.end(), data.begin(), data.end());
    const std::uint32_t crc = test::png_crc(c.data() + 4, c.size() - 4);
    for (int i = 0; i < 4; ++i) c.push_back(static_cast<std::uint8_t>(crc >> (24 - 8 * i)));
    return c;
}

int file_channels(int color_type) {
    switch (color_type) {
        case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
        case PNG_COLOR_TYPE_RGB: return 3;
        case PNG_COLOR_TYPE_RGB_ALPHA: return 4;
        default: return 1;  // gray, palette
    }
}

test::PngSpec spec_of(int w, int h, int color_type, int depth, bool interlaced, bool transparency, unsigned seed) {
    test::PngSpec s;
    s.width = w;
    s.height = h;
    s.color_type = color_type;
    s.bit_depth = depth;
    s.interlaced = interlaced;
    std::mt19937 rng(seed);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        // A full palette for the depth, so every index is valid.
        for (int i = 0; i < (1 << depth); ++i)
            s.palette.push_back(png_color{static_cast<png_byte>(rng()), static_cast<png_byte>(rng()), static_cast<png_byte>(rng())});
        if (transparency)  // shorter than the palette: the rest stay opaque
            for (int i = 0; i < std::max(1, (1 << depth) / 2); ++i) s.palette_alpha.push_back(static_cast<png_byte>(rng()));
    } else {
        s.transparent_color = transparency;
    }
    const std::size_t row_bytes = (static_cast<std::size_t>(w) * file_channels(color_type) * depth + 7) / 8;
    for (int y = 0; y < h; ++y) {
        std::vector<png_byte> row(row_bytes);
        // Mostly small values, so the transparent colour (1) turns up.
        for (auto& b : row) b = static_cast<png_byte>(rng() % 4 == 0 ? rng() : rng() % 3);
        s.rows.push_back(row);
    }
    return s;
}

}  // namespace

TEST_CASE("PNG decoder: every colour type, depth, transparency and interlacing loads as stb loads it (16-bit rounded)") {
    struct Kind {
        int color_type;
        std::vector<int> depths;
        bool can_have_trns;
    };
    const Kind kinds[] = {{PNG_COLOR_TYPE_GRAY, {1, 2, 4, 8, 16}, true},
                          {PNG_COLOR_TYPE_GRAY_ALPHA, {8, 16}, false},
                          {PNG_COLOR_TYPE_RGB, {8, 16}, true},
                          {PNG_COLOR_TYPE_RGB_ALPHA, {8, 16}, false},
                          {PNG_COLOR_TYPE_PALETTE, {1, 2, 4, 8}, true}};
    unsigned seed = 1;
    for (const Kind& k : kinds)
        for (int depth : k.depths)
            for (bool trns : {false, true}) {
                if (trns && !k.can_have_trns) continue;
                for (bool interlaced : {false, true})
                    for (auto [w, h] : {std::pair{1, 1}, {7, 5}, {33, 17}}) {
                        const std::vector<std::uint8_t> bytes =
                            test::write_with_libpng(spec_of(w, h, k.color_type, depth, interlaced, trns, ++seed));
                        INFO("colour type ", k.color_type, ", ", depth, "-bit", trns ? ", tRNS" : "",
                             interlaced ? ", interlaced " : " ", w, "x", h);
                        REQUIRE_FALSE(bytes.empty());
                        const ImageU8 expected = test::decode_with_stb_rounded(bytes);
                        REQUIRE(expected.width() == w);
                        const ImageHeader header = read_image_header("v.png", bytes, {});
                        const LoadedImage ours = decode_image("v.png", bytes, {});
                        CHECK(header.channels == expected.channels());
                        CHECK(header.bit_depth == (depth == 16 ? 16 : 8));
                        REQUIRE(ours.image.channels() == expected.channels());
                        IMGPAR_CHECK_IMAGES_EQUAL(expected, ours.image);
                        CHECK(ours.warnings.size() == (depth == 16 ? 1u : 0u));
                    }
            }
}

TEST_CASE("PNG decoder: chunks that cannot change the pixels are skipped, even damaged") {
    const ImageU8 img = test::photo_like_image(20, 10, 3);
    const std::vector<std::uint8_t> plain = encoded(img);
    std::vector<std::uint8_t> text = chunk("tEXt", std::string("Comment\0made by a test", 22));
    std::vector<std::uint8_t> bad_text = text;
    bad_text.back() ^= 0x55;  // its CRC no longer matches
    const std::vector<std::uint8_t> gamma = chunk("gAMA", std::string("\x00\x00\xb1\x8f", 4));
    std::vector<std::uint8_t> with = plain;
    with.insert(with.begin() + 33, text.begin(), text.end());  // after IHDR
    with.insert(with.begin() + 33, bad_text.begin(), bad_text.end());
    with.insert(with.begin() + 33, gamma.begin(), gamma.end());
    const LoadedImage back = decode_image("extra.png", with, {});
    IMGPAR_CHECK_IMAGES_EQUAL(img, back.image);
}

#endif

TEST_CASE("PNG decoder: every truncation is an input error naming the file") {
    const std::vector<std::uint8_t> png = encoded(test::photo_like_image(61, 47, 4, 3));
    for (std::size_t cut = 0; cut < png.size(); cut += 1 + cut / 8) {
        const std::vector<std::uint8_t> part(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(cut));
        ErrorKind kind = ErrorKind::Usage;
        std::string message;
        try {
            decode_image("cut.png", part, {});
        } catch (const Error& e) {
            kind = e.kind();
            message = e.what();
        }
        INFO("cut at ", cut, " of ", png.size(), ": ", message);
        CHECK(kind == ErrorKind::Input);
        CHECK(message.find("cut.png") != std::string::npos);
    }
}

TEST_CASE("PNG decoder: damaged image data is refused; random damage never crashes") {
    const ImageU8 img = test::photo_like_image(64, 64, 3, 5);
    const std::vector<std::uint8_t> png = encoded(img);
    const std::vector<ChunkAt> layout = chunks_of(png);
    REQUIRE(layout.size() >= 3);
    const ChunkAt idat = layout[1];
    REQUIRE(idat.type == "IDAT");

    // A changed byte whose chunk CRC no longer matches: libpng checks CRCs
    // (stb, the fallback, does not, and may decode different pixels).
    for (std::size_t i = 0; i < idat.length; i += 1 + idat.length / 50) {
        std::vector<std::uint8_t> bad = png;
        bad[idat.at + 8 + i] ^= 0x24;
        check_refused_or_whole(bad, png_codec_available(), "IDAT byte " + std::to_string(i) + ", CRC stale");
    }
    // The same with the CRC recomputed: zlib's checks or the Adler-32 catch it.
    std::mt19937 rng(11);
    for (int trial = 0; trial < 300; ++trial) {
        std::vector<std::uint8_t> bad = png;
        const int changes = 1 + trial % 3;
        for (int k = 0; k < changes; ++k) bad[8 + rng() % (bad.size() - 8)] = static_cast<std::uint8_t>(rng());
        fix_crcs(bad);
        check_refused_or_whole(bad, false, "random damage, trial " + std::to_string(trial));
    }
    // An invalid bit depth in an otherwise valid header.
    std::vector<std::uint8_t> bad_depth = png;
    bad_depth[24] = 3;
    fix_crcs(bad_depth);
    check_refused_or_whole(bad_depth, true, "bit depth 3");
}
