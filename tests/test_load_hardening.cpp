// Loading hostile and broken inputs: tables that overrun a decoder, files
// that claim far more than they hold, reads without end, memory budgets,
// truncation, and the 16-bit reduction. Every file is built here byte by
// byte (tests/support/hostile_files.hpp). The same tests run in builds with
// libjpeg-turbo and libpng and in builds where stb_image decodes everything.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>

#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/error_capture.hpp"
#include "tests/support/hostile_files.hpp"
#include "tests/support/random_damage.hpp"
#include "tests/support/load_checks.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::Bytes;
using test::input_error_of;

namespace {

LoadOptions header_only() {
    LoadOptions o;
    o.images = 0;
    return o;
}

LoadOptions partial() {
    LoadOptions o;
    o.allow_partial = true;
    return o;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Bytes bytes_of(const std::string& path) {
    const std::string s = test::read_bytes(path);
    return Bytes(s.begin(), s.end());
}

}  // namespace

TEST_CASE("hostile JPEG: oversized Huffman tables and undefined tables are refused, naming the file") {
    // stb_image 2.27 wrote past its arrays reading this header (in `info`
    // too: stb read JPEG headers even where libjpeg-turbo decodes).
    const Bytes oversized = test::oversized_huffman_jpeg();
    std::string e = input_error_of([&] { read_image_header("tables.jpg", oversized, header_only()); });
    CHECK(has(e, "tables.jpg"));
    CHECK((has(e, "2040 codes") || has(e, "Bogus Huffman table")));
    e = input_error_of([&] { decode_image("tables.jpg", oversized, {}); });
    CHECK(has(e, "tables.jpg"));

    // A scan naming a table no segment defines decoded whatever the
    // decoder's table memory held: the previous file's. Refused in every
    // build; the files around it decode as they should.
    const Bytes good = test::flat_gray_jpeg(16, 8);
    const LoadedImage before = decode_image("good.jpg", good, {});
    e = input_error_of([&] { decode_image("stale.jpg", test::undefined_table_jpeg(), {}); });
    CHECK(has(e, "stale.jpg"));
    const LoadedImage after = decode_image("good.jpg", good, {});
    IMGPAR_CHECK_IMAGES_EQUAL(before.image, after.image);
    CHECK(after.image.width() == 16);
    for (int x = 0; x < 16; ++x) CHECK(after.image.at(x, 3, 0) == after.image.at(0, 0, 0));
}

TEST_CASE("JPEG bomb: a 328-byte file claiming 16384x16384 is refused before anything is allocated") {
    const Bytes bomb = test::jpeg_bomb(16384);
    CHECK(bomb.size() < 400);
    // Its header is valid: info describes it.
    const ImageHeader h = read_image_header("bomb.jpg", bomb, header_only());
    CHECK(h.width == 16384);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string e = input_error_of([&] { decode_image("bomb.jpg", bomb, {}); });
    CHECK(ms_since(t0) < 200.0);  // a walk over 328 bytes, not a 256 MiB decode
    CHECK(has(e, "bomb.jpg: JPEG data is truncated"));
    CHECK(has(e, "16 bytes of coded data"));
    CHECK(has(e, "1048576"));
    CHECK(has(e, "--allow-partial"));
    // Asked for, the partial image is still bound by the memory budget.
    LoadOptions o = partial();
    o.max_memory = 64 << 20;
    CHECK(has(input_error_of([&] { decode_image("bomb.jpg", bomb, o); }), "--max-memory"));
}

TEST_CASE("truncated JPEG: an error naming the file unless partial images are allowed") {
    const Bytes whole = bytes_of(test::sample_path("rocket.jpg"));
    const Bytes cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2));
    std::string e = input_error_of([&] { decode_image("cut.jpg", cut, {}); });
    CHECK(has(e, "cut.jpg"));
    CHECK(has(e, "truncated"));
    CHECK(read_image_header("cut.jpg", cut, header_only()).width == 640);  // info reads the header only
    const LoadedImage part = decode_image("cut.jpg", cut, partial());
    CHECK(part.image.width() == 640);
    REQUIRE_FALSE(part.warnings.empty());
    CHECK(has(part.warnings[0], "truncated"));
    // A header read for decoding is taken as it is, its notes with it; one
    // read for info (no decoding checks) is read again.
    const ImageHeader checked = read_image_header("cut.jpg", cut, partial());
    CHECK(checked.decode_checked);
    CHECK(decode_image("cut.jpg", cut, checked, partial()).warnings == part.warnings);
    const ImageHeader unchecked = read_image_header("cut.jpg", cut, header_only());
    CHECK_FALSE(unchecked.decode_checked);
    CHECK(has(input_error_of([&] { decode_image("cut.jpg", cut, unchecked, {}); }), "truncated"));
    if (!jpeg_codec_available()) return;  // stb_image does not say where a scan's data ran out
    // Scan data cut and closed with an end marker: libjpeg-turbo meets the
    // marker before the image's last block.
    Bytes closed = cut;
    closed.insert(closed.end(), {0xFF, 0xD9});
    e = input_error_of([&] { decode_image("closed.jpg", closed, {}); });
    CHECK(has(e, "closed.jpg: JPEG data is truncated or corrupt: the scan data ends before the image does"));
    CHECK(decode_image("closed.jpg", closed, partial()).image.height() == 427);
}

TEST_CASE("a component no scan fills is refused unless partial images are allowed") {
    test::JpegBytes j;
    j.soi().dqt(0).sof(0xC0, 16, 8, {{1, 1, 1, 0}, {2, 1, 1, 0}, {3, 1, 1, 0}}).standard_dc(0).standard_ac(0);
    j.sos({{1, 0, 0}}).raw(test::flat_blocks(2)).eoi();
    const std::string e = input_error_of([&] { decode_image("two_missing.jpg", j.bytes, {}); });
    CHECK(has(e, "component 2 of 3 is in no scan"));
}

TEST_CASE("memory budget: checked from the header, with the estimate, the limit and how to raise it") {
    const Bytes camera = bytes_of(test::sample_path("camera.png"));  // 512x512 gray, 139 KB
    LoadOptions o;
    o.max_memory = 5 << 18;  // 1.25 MiB
    o.images = 5;            // blur's buffers: 1.25 MiB and the file
    const std::string e = input_error_of([&] { decode_image("camera.png", camera, o); });
    CHECK(has(e, "camera.png: 512x512 gray needs about "));
    CHECK(has(e, " MiB of memory to decode and process, more than the limit of 1."));
    CHECK(has(e, "(raise it with --max-memory)"));
    o.images = 1;  // decoding alone fits: 256 KiB, the file (and stb's buffers)
    CHECK(decode_image("camera.png", camera, o).image.width() == 512);
    o.images = 0;  // headers only: no budget
    o.max_memory = 1;
    CHECK(read_image_header("camera.png", camera, o).width == 512);

    ImageHeader h;
    h.width = 100;
    h.height = 50;
    h.channels = 3;
    h.file_bytes = 1000;
    h.decoder_bytes = 7;
    LoadOptions two;
    two.images = 2;
    CHECK(estimate_memory(h, two) == 1000 + 7 + 2 * 15000);

    // libjpeg-turbo holds a progressive file's coefficients while decoding.
    const ImageHeader progressive = read_image_header("p.jpg", bytes_of(test::data_path("progressive.jpg")), {});
    CHECK(progressive.decoder_bytes > 0);
    if (jpeg_codec_available())
        CHECK(read_image_header("r.jpg", bytes_of(test::sample_path("rocket.jpg")), {}).decoder_bytes == 0);
}

TEST_CASE("memory budget: the default admits large photos and panoramas, and refuses a PNG bomb") {
    const std::uint64_t gib = std::uint64_t{1} << 30;
    CHECK(default_max_memory() >= gib);
    CHECK(default_max_memory() <= 4 * gib);
    const auto need = [](int w, int h, int c, double images) {
        ImageHeader x;
        x.width = w;
        x.height = h;
        x.channels = c;
        LoadOptions o;
        o.images = images;
        return estimate_memory(x, o);
    };
    CHECK(need(7680, 4320, 4, 7) < gib);              // 8K RGBA through box
    CHECK(need(16384, 8192, 4, 7) < 4 * gib);         // a 16K x 8K RGBA panorama through box
    CHECK(need(16384, 16384, 4, 5) > 4 * gib);        // what a 1 MB PNG can claim, through blur

    // A PNG whose header claims 16384x16384 RGBA: refused for blur from the
    // header alone, before its data is looked at.
    const Bytes ihdr_only = test::png_file(16384, 16384, 8, 6, {});
    LoadOptions blur;
    blur.images = 5;
    const auto t0 = std::chrono::steady_clock::now();
    const std::string e = input_error_of([&] { decode_image("bomb.png", ihdr_only, blur); });
    CHECK(ms_since(t0) < 200.0);
    CHECK(has(e, "bomb.png: 16384x16384 RGBA needs about "));
    CHECK(has(e, "--max-memory"));
}

TEST_CASE("bounded reads: devices, large files and pipes stop at the bound, naming the file") {
    // /dev/zero: its first bytes are no image, so it is refused at once.
    auto t0 = std::chrono::steady_clock::now();
    std::string e = input_error_of([] { read_image_file("/dev/zero", {}); });
    CHECK(ms_since(t0) < 500.0);
    CHECK(has(e, "/dev/zero: not a PNG, JPEG, BMP, WebP, AVIF, GIF or TIFF image"));
    // Without a look at the start, a device is read up to the bound.
    ReadBound small;
    small.max_bytes = 1 << 20;
    small.limit = "the test's bound";
    e = input_error_of([&] { read_input_bytes("/dev/zero", small); });
    CHECK(has(e, "/dev/zero: more than 1048576 bytes (1.0 MiB) come from it, more than the test's bound"));

    // A regular file is refused from its size, before a byte is read: a
    // sparse 3 GiB file costs nothing to make.
    test::TempDir dir;
    const std::string big = dir.file("big.png");
    const int fd = ::open(big.c_str(), O_CREAT | O_WRONLY, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, "\x89PNG\r\n\x1a\n", 8) == 8);
    REQUIRE(::ftruncate(fd, static_cast<off_t>(3) << 30) == 0);
    ::close(fd);
    t0 = std::chrono::steady_clock::now();
    e = input_error_of([&] { read_image_file(big, {}); });
    CHECK(ms_since(t0) < 500.0);
    CHECK(has(e, "big.png: the file is 3221225472 bytes (3.0 GiB), more than "));
    LoadOptions tight;
    tight.max_memory = 1 << 20;
    REQUIRE(::truncate(big.c_str(), 2 << 20) == 0);
    e = input_error_of([&] { read_image_file(big, tight); });
    CHECK(has(e, "more than the memory limit of 1.0 MiB (raise it with --max-memory)"));
}

TEST_CASE("16-bit samples are rounded to nearest, as ImageMagick reduces them: every value") {
    // 256x256 gray, 16-bit: every value 0..65535 once.
    std::vector<Bytes> rows;
    for (int y = 0; y < 256; ++y) {
        Bytes row;
        for (int x = 0; x < 256; ++x) row.insert(row.end(), {static_cast<std::uint8_t>(y), static_cast<std::uint8_t>(x)});
        rows.push_back(row);
    }
    const LoadedImage img = decode_image("all16.png", test::png_file(256, 256, 16, 0, rows), {});
    CHECK(img.header.bit_depth == 16);
    REQUIRE(img.image.channels() == 1);
    int wrong = 0, truncated_like = 0;
    for (unsigned v = 0; v < 65536; ++v) {
        const unsigned got = img.image.at(static_cast<int>(v & 255), static_cast<int>(v >> 8), 0);
        const unsigned nearest = (2 * v + 257) / 514;  // round(v / 257): v / 257 is never a half
        wrong += got != nearest;
        truncated_like += got == (v >> 8) && nearest != (v >> 8);
    }
    CHECK(wrong == 0);
    CHECK(truncated_like == 0);
    CHECK(has(img.warnings.at(0), "16-bit PNG reduced to 8 bits per sample (rounded to nearest)"));
}

TEST_CASE("a gray PNG with a transparent colour loads with alpha, header and pixels alike") {
    // Gray 8-bit, tRNS: the level 7 is transparent.
    const Bytes png = test::png_file(3, 1, 8, 0, {{7, 8, 7}}, {test::png_chunk("tRNS", {0, 7})});
    const ImageHeader h = read_image_header("t.png", png, {});
    CHECK(h.channels == 2);
    const LoadedImage img = decode_image("t.png", png, {});
    REQUIRE(img.image.channels() == 2);
    CHECK(img.image.at(0, 0, 0) == 7);
    CHECK(img.image.at(0, 0, 1) == 0);
    CHECK(img.image.at(1, 0, 0) == 8);
    CHECK(img.image.at(1, 0, 1) == 255);
}

TEST_CASE("truncated PNG: the message says so, in every build") {
    const Bytes png = test::png_file(64, 64, 8, 2, std::vector<Bytes>(64, Bytes(192, 90)));
    for (std::size_t cut : {png.size() - 6, png.size() / 2, std::size_t{60}}) {
        const Bytes part(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(cut));
        const std::string e = input_error_of([&] { decode_image("cut.png", part, {}); });
        INFO("cut at ", cut);
        CHECK(has(e, "cut.png: PNG data is truncated"));
        CHECK_FALSE(has(e, "chunk type"));
        CHECK_FALSE(has(e, "JPEG"));
    }
    // Too little image data before IEND (libpng: "Not enough image data"):
    // 10 rows where the header says 64.
    const Bytes short_data = test::png_file(64, 64, 8, 2, std::vector<Bytes>(10, Bytes(192, 90)));
    const std::string e = input_error_of([&] { decode_image("short.png", short_data, {}); });
    CHECK(has(e, "short.png"));
    if (!png_codec_available()) return;
    CHECK(has(e, "PNG data is truncated (Not enough image data)"));
    const LoadedImage part = decode_image("short.png", short_data, partial());
    CHECK(part.image.at(5, 9, 0) == 90);   // decoded
    CHECK(part.image.at(5, 10, 0) == 0);   // not reached: black
    CHECK(has(part.warnings.at(0), "PNG data is truncated"));
}

TEST_CASE("BMP: a palette shorter than its pixels' indices, an offset into the header, a cut file") {
    // stb_image 2.27 reads a pixel's colour from a 256-entry palette on the
    // stack, of which it filled only what the file has: index 5 of a
    // 2-entry palette was whatever the stack held.
    const Bytes stale = test::bmp_8bit(4, 2, 2, {{0, 1, 5, 1}, {1, 0, 1, 0}});
    CHECK(read_image_header("stale.bmp", stale, header_only()).width == 4);
    std::string e = input_error_of([&] { decode_image("stale.bmp", stale, {}); });
    CHECK(has(e, "stale.bmp: the BMP is malformed: BMP pixel 2 of stored row 0 names palette entry 5, but the palette "
                 "has 2"));
    // A short palette whose indices stay inside it is fine.
    const LoadedImage ok = decode_image("ok.bmp", test::bmp_8bit(4, 2, 2, {{0, 1, 1, 1}, {1, 0, 1, 0}}), {});
    CHECK(ok.image.at(1, 1, 0) == 1);  // bottom-up: stored row 0 is the last
    CHECK(ok.image.at(1, 0, 0) == 0);
    // The pixel data said to start inside the header: stb computed a negative
    // palette size and read none of it.
    e = input_error_of([&] { decode_image("inside.bmp", test::bmp_8bit(4, 2, 0, {{0, 0, 0, 0}, {0, 0, 0, 0}}, 50), {}); });
    CHECK(has(e, "inside.bmp: the BMP is malformed: the BMP pixel data starts at byte 50, which leaves no room"));
    // Cut: stb decoded the missing rows as black without a word.
    const Bytes whole = test::bmp_8bit(4, 4, 4, std::vector<Bytes>(4, Bytes{1, 2, 3, 1}));
    const Bytes cut(whole.begin(), whole.end() - 6);
    e = input_error_of([&] { decode_image("cut.bmp", cut, {}); });
    CHECK(has(e, "cut.bmp: BMP data is truncated: the pixel rows need 16 bytes from byte 70, but the file has 10"));
    const LoadedImage part = decode_image("cut.bmp", cut, partial());
    CHECK(part.image.at(0, 3, 0) == 1);  // the first stored row, at the bottom
    CHECK(has(part.warnings.at(0), "BMP data is truncated"));
}

TEST_CASE("PNG: a palette shorter than its pixels' indices is refused, as in BMP") {
    // libpng expands an index beyond the palette to black, silently.
    const Bytes plte = test::png_chunk("PLTE", {255, 0, 0, 0, 255, 0});  // 2 entries
    const Bytes stale = test::png_file(4, 2, 8, 3, {{0, 1, 1, 1}, {1, 0, 5, 0}}, {plte});
    CHECK(read_image_header("stale.png", stale, header_only()).width == 4);
    if (png_codec_available()) {
        const std::string e = input_error_of([&] { decode_image("stale.png", stale, {}); });
        CHECK(has(e, "stale.png: the PNG is malformed: PNG pixel (2, 1) names palette entry 5, but the palette has 2"));
        // 2-bit indices, unpacked: index 3 of the second pixel.
        const std::string e2 =
            input_error_of([&] { decode_image("two.png", test::png_file(4, 1, 2, 3, {{0x30}}, {plte}), {}); });
        CHECK(has(e2, "two.png: the PNG is malformed: PNG pixel (1, 0) names palette entry 3"));
    }
    // A short palette whose indices stay inside it is fine.
    const LoadedImage ok = decode_image("ok.png", test::png_file(4, 2, 8, 3, {{0, 1, 1, 1}, {1, 0, 1, 0}}, {plte}), {});
    CHECK(ok.image.at(1, 0, 1) == 255);  // entry 1: green
    CHECK(ok.image.at(1, 1, 0) == 255);  // entry 0: red
}

TEST_CASE("BMP: no pixels but a huge height is refused at once; top-down rows load the right way up") {
    // Width 0 made the guard's row stride 0, and its walk over the palette
    // indices then took every one of 100 million rows (found by fuzzing).
    const auto t0 = std::chrono::steady_clock::now();
    const std::string e = input_error_of([&] { decode_image("zero.bmp", test::bmp_8bit(0, 100000000, 2, {}), {}); });
    CHECK(has(e, "zero.bmp: the header gives a zero image size"));
    CHECK(ms_since(t0) < 1000.0);
    // A negative height stores rows top-down: stb's header reader gave it as
    // stored, and the file was refused as having a zero size.
    const std::vector<Bytes> rows = {{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 1, 2, 2}};
    const LoadedImage top_down = decode_image("td.bmp", test::bmp_8bit(4, -3, 4, rows), {});
    const LoadedImage bottom_up = decode_image("bu.bmp", test::bmp_8bit(4, 3, 4, {rows[2], rows[1], rows[0]}), {});
    CHECK(top_down.header.height == 3);
    CHECK(read_image_header("td.bmp", test::bmp_8bit(4, -3, 4, rows), header_only()).height == 3);
    REQUIRE(top_down.image.height() == 3);
    CHECK(top_down.image.at(1, 0, 0) == 1);  // the first stored row is the top one
    CHECK(std::equal(top_down.image.data(), top_down.image.data() + top_down.image.size_bytes(), bottom_up.image.data()));
}

TEST_CASE("failure reasons are each file's own") {
    // One thread, failures in a row: stb keeps its last reason in a
    // variable that nothing reset, so a file that failed without setting
    // one showed the previous file's.
    const Bytes png = test::png_file(8, 8, 8, 0, std::vector<Bytes>(8, Bytes(8, 1)));
    const Bytes cut_png(png.begin(), png.end() - 20);
    const std::string jpeg_error = input_error_of([] { decode_image("a.jpg", test::undefined_table_jpeg(), {}); });
    const std::string png_error = input_error_of([&] { decode_image("b.png", cut_png, {}); });
    const std::string bmp_error = input_error_of([] { decode_image("c.bmp", test::bmp_8bit(4, 1, 1, {{0, 3, 0, 0}}), {}); });
    CHECK_FALSE(has(png_error, "JPEG"));
    CHECK(has(png_error, "PNG data is truncated"));
    CHECK_FALSE(has(bmp_error, "PNG"));
    CHECK_FALSE(has(bmp_error, "JPEG"));
    CHECK(has(bmp_error, "palette"));
}

TEST_CASE("random damage to JPEG, BMP and PNG headers and data never crashes: an image or an input error") {
    // The decoders of this build, behind imgpar's checks; where stb decodes
    // JPEG, damage to the tables is what the checks stand in front of.
    std::vector<Bytes> seeds = {test::flat_gray_jpeg(64, 48), bytes_of(test::data_path("progressive.jpg")),
                                bytes_of(test::data_path("cmyk.jpg")), bytes_of(test::data_path("gray16.png")),
                                test::bmp_8bit(5, 3, 3, {{0, 1, 2, 1, 0}, {2, 2, 2, 1, 1}, {0, 0, 0, 0, 1}})};
    std::vector<std::string> warnings;
    seeds.push_back(encode_image(test::alpha_image(9, 7, 4).view(), ImageFormat::Bmp, SaveOptions{}, warnings));
    // The tables are in the first 400 bytes.
    test::decode_damaged(seeds, 7, 600, 400);
}
