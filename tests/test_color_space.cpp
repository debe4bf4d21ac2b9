// The colour space a file stores (info's "color_space"), and CMYK/YCCK
// JPEGs decoded to RGB with a warning: JPEGs written by libjpeg-turbo in each
// colour space it writes, PNGs of each colour type with and without tRNS,
// TIFFs of each layout and still WebPs of each coding,
// BMPs; the CMYK conversion checked against libjpeg-turbo's own CMYK samples.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/io/color_space.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "src/io/tiff_codec.hpp"
#include "src/io/webp_codec.hpp"
#include "src/report/info_report.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include <jpeglib.h>
#endif

using namespace imgpar;

namespace {

std::string color_space_of(const std::vector<std::uint8_t>& file, const char* name) {
    LoadOptions o;
    o.images = 0;
    return read_image_header(name, file, o).color_space;
}

std::vector<std::uint8_t> png_chunk(const char* type, const std::vector<std::uint8_t>& data) {
    std::vector<std::uint8_t> c = {0, 0, 0, static_cast<std::uint8_t>(data.size())};
    c.insert(c.end(), type, type + 4);
    c.insert(c.end(), data.begin(), data.end());
    c.insert(c.end(), {0, 0, 0, 0});
    return c;
}

}  // namespace

TEST_CASE("stored colour space: PNG colour types, with and without tRNS; BMP") {
    for (int channels = 1; channels <= 4; ++channels) {
        std::vector<std::string> w;
        const std::vector<std::uint8_t> png = encode_image(test::photo_like_image(5, 4, channels, 1).view(),
                                                           ImageFormat::Png, 90, w);
        const char* expected[] = {"gray", "gray+alpha", "RGB", "RGBA"};
        CHECK(stored_color_space(ImageFormat::Png, png.data(), png.size(), channels) == expected[channels - 1]);
        CHECK(color_space_of(png, "x.png") == expected[channels - 1]);
    }
    // Palette and transparency: the header's colour type and a tRNS chunk before IDAT.
    std::vector<std::uint8_t> p = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    const auto ihdr = png_chunk("IHDR", {0, 0, 0, 1, 0, 0, 0, 1, 8, 3, 0, 0, 0});
    p.insert(p.end(), ihdr.begin(), ihdr.end());
    CHECK(stored_color_space(ImageFormat::Png, p.data(), p.size(), 3) == "palette");
    const auto trns = png_chunk("tRNS", {0});
    p.insert(p.end(), trns.begin(), trns.end());
    CHECK(stored_color_space(ImageFormat::Png, p.data(), p.size(), 4) == "palette+tRNS");
    p[25] = 0;
    CHECK(stored_color_space(ImageFormat::Png, p.data(), p.size(), 2) == "gray+tRNS");

    std::vector<std::string> w;
    const std::vector<std::uint8_t> bmp = encode_image(test::photo_like_image(5, 4, 3, 1).view(), ImageFormat::Bmp, 90, w);
    CHECK(color_space_of(bmp, "x.bmp") == "RGB");
}

#if IMGPAR_TEST_LIBJPEG
namespace {

// A 16x16 JPEG from `samples` (in_components per pixel) in libjpeg-turbo's
// colour space `stored`, with or without the Adobe segment libjpeg writes.
std::vector<std::uint8_t> libjpeg_file(const std::vector<std::uint8_t>& samples, int components, J_COLOR_SPACE in,
                                       J_COLOR_SPACE stored, bool adobe) {
    jpeg_compress_struct c{};
    jpeg_error_mgr err{};
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    unsigned char* out = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&c, &out, &size);
    c.image_width = 16;
    c.image_height = 16;
    c.input_components = components;
    c.in_color_space = in;
    jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, stored);
    jpeg_set_quality(&c, 100, TRUE);
    c.write_Adobe_marker = adobe ? TRUE : FALSE;
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < 16) {
        JSAMPROW row = const_cast<JSAMPROW>(samples.data() + c.next_scanline * 16 * components);
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    std::vector<std::uint8_t> file(out, out + size);
    jpeg_destroy_compress(&c);
    std::free(out);
    return file;
}

// The CMYK samples libjpeg-turbo decodes from `file`.
std::vector<std::uint8_t> libjpeg_cmyk(const std::vector<std::uint8_t>& file) {
    jpeg_decompress_struct d{};
    jpeg_error_mgr err{};
    d.err = jpeg_std_error(&err);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, file.data(), static_cast<unsigned long>(file.size()));
    jpeg_read_header(&d, TRUE);
    d.out_color_space = JCS_CMYK;
    jpeg_start_decompress(&d);
    std::vector<std::uint8_t> out(16 * 16 * 4);
    while (d.output_scanline < 16) {
        JSAMPROW row = out.data() + d.output_scanline * 16 * 4;
        jpeg_read_scanlines(&d, &row, 1);
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    return out;
}

std::vector<std::uint8_t> gradient(int components) {
    std::vector<std::uint8_t> s(16 * 16 * static_cast<std::size_t>(components));
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>((i * 37 + i / 64 * 11) & 0xFF);
    return s;
}

}  // namespace

TEST_CASE("stored colour space: JPEG gray, YCbCr, RGB (Adobe transform 0), CMYK, YCCK; info text and JSON say it") {
    struct Case {
        J_COLOR_SPACE in, stored;
        int components;
        bool adobe;
        const char* name;
    };
    const Case cases[] = {{JCS_GRAYSCALE, JCS_GRAYSCALE, 1, false, "gray"}, {JCS_RGB, JCS_YCbCr, 3, false, "YCbCr"},
                          {JCS_RGB, JCS_RGB, 3, true, "RGB"},                {JCS_CMYK, JCS_CMYK, 4, true, "CMYK"},
                          {JCS_CMYK, JCS_CMYK, 4, false, "CMYK"},            {JCS_CMYK, JCS_YCCK, 4, true, "YCCK"}};
    for (const Case& k : cases) {
        CAPTURE(k.name);
        CAPTURE(k.adobe);
        const std::vector<std::uint8_t> file = libjpeg_file(gradient(k.components), k.components, k.in, k.stored, k.adobe);
        InfoRecord r;
        r.file = "x.jpg";
        r.ok = true;
        LoadOptions o;
        o.images = 0;
        r.header = read_image_header("x.jpg", file, o);
        CHECK(r.header.color_space == k.name);
        CHECK(r.header.pages == 1);
        CHECK(info_text(r).find(std::string("stored ") + k.name + ", 8-bit, 1 page") != std::string::npos);
        CHECK(info_json(r).find(std::string("\"color_space\":\"") + k.name + "\"") != std::string::npos);
        CHECK(r.header.channels == (k.components == 1 ? 1 : 3));
    }
}

TEST_CASE("CMYK and YCCK JPEGs decode to RGB as (255 - C)(255 - K) / 255 of the inks, with a warning") {
    for (J_COLOR_SPACE stored : {JCS_CMYK, JCS_YCCK})
        for (bool adobe : {true, false}) {
            if (stored == JCS_YCCK && !adobe) continue;  // YCCK needs the Adobe segment to be told apart
            CAPTURE(adobe);
            const std::vector<std::uint8_t> file = libjpeg_file(gradient(4), 4, JCS_CMYK, stored, adobe);
            const std::vector<std::uint8_t> inks = libjpeg_cmyk(file);
            const LoadedImage img = decode_image("c.jpg", file, LoadOptions{});
            REQUIRE(img.image.channels() == 3);
            REQUIRE(img.warnings.size() == 1);
            CHECK(img.warnings[0].find(stored == JCS_YCCK ? "YCCK JPEG converted to RGB" : "CMYK JPEG converted to RGB") == 0);
            CHECK(img.warnings[0].find(adobe ? "inverted inks" : "inks as stored") != std::string::npos);
            for (int y = 0; y < 16; ++y)
                for (int x = 0; x < 16; ++x)
                    for (int c = 0; c < 3; ++c) {
                        const std::uint8_t* p = inks.data() + (y * 16 + x) * 4;
                        // Stored inverted (Adobe): the ink is 255 - stored.
                        const unsigned ink = adobe ? 255u - p[c] : p[c], black = adobe ? 255u - p[3] : p[3];
                        const unsigned expected = ((255 - ink) * (255 - black) + 127) / 255;
                        if (img.image.at(x, y, c) != expected) {
                            char where[96];
                            std::snprintf(where, sizeof where, "(%d, %d, %d): %d, expected %u", x, y, c,
                                          img.image.at(x, y, c), expected);
                            FAIL(where);
                        }
                    }
        }
}
#endif

TEST_CASE("color space: TIFF's as its directory stores it, with its alpha; a still WebP's by its coding; pages") {
    for (int channels = 1; channels <= 4; ++channels) {
        const ImageU8 img = test::random_image(9, 7, channels, static_cast<unsigned>(channels));
        std::vector<std::string> warnings;
        if (tiff_codec_available()) {
            const char* expected[] = {"gray", "gray+alpha", "RGB", "RGBA"};
            const auto tiff = encode_image(img.view(), ImageFormat::Tiff, SaveOptions{}, warnings);
            LoadOptions o;
            o.images = 0;
            const ImageHeader h = read_image_header("x.tif", tiff, o);
            CHECK(h.color_space == expected[channels - 1]);
            CHECK(h.page == 0);
            CHECK(h.pages == 1);
        }
        if (webp_codec_available() && channels >= 3) {
            SaveOptions lossless;
            lossless.lossless = true;
            const auto vp8l = encode_image(img.view(), ImageFormat::Webp, lossless, warnings);
            const auto vp8 = encode_image(img.view(), ImageFormat::Webp, SaveOptions{}, warnings);
            CHECK(color_space_of(vp8l, "x.webp") == (channels == 4 ? "RGBA" : "RGB"));
            CHECK(color_space_of(vp8, "x.webp") == (channels == 4 ? "YCbCr+alpha" : "YCbCr"));
        }
    }
}
