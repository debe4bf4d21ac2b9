// Hostile and multi-page TIFFs: cut files, strips past the end, huge
// claimed sizes, absurd strip counts, broken directories and random damage
// are refused (naming the file) or, with --allow-partial, decoded in part;
// page N of a multi-page file is read, and a page that is not there is a
// clear error.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "src/error.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "src/io/tiff_codec.hpp"
#include "tests/support/error_capture.hpp"
#include "tests/support/random_damage.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/tiff_writer.hpp"

using namespace imgpar;
using test::input_error_of;

#if IMGPAR_HAVE_LIBTIFF

namespace {

using Bytes = std::vector<std::uint8_t>;

void put16(Bytes& b, std::uint16_t v) { b.push_back(v & 0xff), b.push_back(v >> 8); }
void put32(Bytes& b, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// A little-endian gray 8-bit TIFF made by hand: its directory first (at
// byte 8), then the strip offsets and byte counts, then the data, so a cut
// file keeps its directory. Offsets and counts may be forged.
struct Handmade {
    std::uint32_t width = 16, height = 12, rows_per_strip = 4;
    std::vector<std::uint32_t> offsets, counts;  // empty: where the data lies
    Bytes data;                                  // empty: width x height samples, a pattern
};

Bytes handmade_tiff(Handmade m) {
    const std::uint32_t strips = (m.height + m.rows_per_strip - 1) / m.rows_per_strip;
    if (m.data.empty() && std::uint64_t{m.width} * m.height < (1u << 24))
        for (std::uint32_t i = 0; i < m.width * m.height; ++i) m.data.push_back(static_cast<std::uint8_t>(i * 7));
    const std::uint32_t entries = 9;
    const std::uint32_t ifd_end = 8 + 2 + entries * 12 + 4;
    const std::uint32_t arrays = strips > 1 ? 8 * strips : 0;
    const std::uint32_t data_at = ifd_end + arrays;
    const std::uint32_t strip_bytes = m.width * m.rows_per_strip;
    if (m.offsets.empty())
        for (std::uint32_t s = 0; s < strips; ++s) m.offsets.push_back(data_at + s * strip_bytes);
    if (m.counts.empty())
        for (std::uint32_t s = 0; s < strips; ++s)
            m.counts.push_back(std::min(strip_bytes, m.width * (m.height - s * m.rows_per_strip)));
    Bytes b = {'I', 'I', 42, 0};
    put32(b, 8);
    put16(b, static_cast<std::uint16_t>(entries));
    auto entry = [&b](std::uint16_t tag, std::uint16_t type, std::uint32_t count, std::uint32_t value) {
        put16(b, tag), put16(b, type), put32(b, count), put32(b, value);
    };
    entry(256, 4, 1, m.width);
    entry(257, 4, 1, m.height);
    entry(258, 3, 1, 8);
    entry(259, 3, 1, 1);
    entry(262, 3, 1, 1);
    entry(273, 4, strips, strips > 1 ? ifd_end : m.offsets[0]);
    entry(277, 3, 1, 1);
    entry(278, 4, 1, m.rows_per_strip);
    entry(279, 4, strips, strips > 1 ? ifd_end + 4 * strips : m.counts[0]);
    put32(b, 0);
    if (strips > 1) {
        for (std::uint32_t o : m.offsets) put32(b, o);
        for (std::uint32_t c : m.counts) put32(b, c);
    }
    b.insert(b.end(), m.data.begin(), m.data.end());
    return b;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

LoadOptions partial() {
    LoadOptions o;
    o.allow_partial = true;
    return o;
}

}  // namespace

TEST_CASE("TIFF hostile: a handmade file decodes; cut, it is refused or decoded in part") {
    const Bytes whole = handmade_tiff({});
    const LoadedImage img = decode_image("h.tif", whole, {});
    REQUIRE(img.image.width() == 16);
    CHECK(img.image.at(3, 2, 0) == static_cast<std::uint8_t>((2 * 16 + 3) * 7));
    const Bytes cut(whole.begin(), whole.end() - 40);
    const std::string e = input_error_of([&] { decode_image("cut.tif", cut, {}); });
    CHECK(has(e, "cut.tif: TIFF data is truncated: strip 2 of 3 lies at bytes"));
    CHECK(has(e, "past the end of the file"));
    CHECK(has(e, "--allow-partial"));
    const LoadedImage part = decode_image("cut.tif", cut, partial());
    REQUIRE(!part.warnings.empty());
    CHECK(has(part.warnings[0], "TIFF data is truncated"));
    CHECK(part.image.at(3, 2, 0) == img.image.at(3, 2, 0));  // strip 0 is whole
    CHECK(part.image.at(3, 11, 0) == 0);                      // strip 2 is black
    // imgpar info reads the header only, and reports the file.
    LoadOptions header_only;
    header_only.images = 0;
    CHECK(read_image_header("cut.tif", cut, header_only).width == 16);
}

TEST_CASE("TIFF hostile: strips past the end, without data, or too many for the file are refused") {
    Handmade far;
    far.offsets = {122 + 24, 0xFFFFFF00u, 122 + 24 + 64};
    CHECK(has(input_error_of([&] { decode_image("far.tif", handmade_tiff(far), {}); }), "strip 1 of 3 lies at bytes 4294967040"));
    Handmade empty;
    empty.counts = {64, 0, 64};
    CHECK(has(input_error_of([&] { decode_image("zero.tif", handmade_tiff(empty), {}); }), "zero.tif: TIFF data is truncated: strip 1 of 3 has no data"));
    // The directory claims 400,000,000 rows in strips of 4 but locates 3.
    Bytes many = handmade_tiff({});
    const std::uint32_t rows = 400000000;
    for (int i = 0; i < 4; ++i) many[30 + i] = static_cast<std::uint8_t>(rows >> (8 * i));
    LoadOptions lax;
    lax.max_pixels = std::uint64_t{1} << 40;
    lax.max_memory = std::uint64_t{1} << 40;
    const std::string e = input_error_of([&] { decode_image("many.tif", many, lax); });
    CHECK(has(e, "many.tif: "));
    MESSAGE(e);
}

TEST_CASE("TIFF hostile: huge claimed sizes are refused from the directory, before any pixel") {
    Handmade huge;
    huge.width = 100000, huge.height = 100000, huge.rows_per_strip = 100000;
    huge.data = Bytes(64, 1);
    const Bytes file = handmade_tiff(huge);
    CHECK(file.size() < 256);
    const std::string e = input_error_of([&] { decode_image("huge.tif", file, {}); });
    CHECK(has(e, "huge.tif: image is 100000x100000 = 10000000000 pixels, above the limit of"));
    Handmade big;
    big.width = 16000, big.height = 16000, big.rows_per_strip = 16000;
    big.data = Bytes(64, 1);
    LoadOptions small;
    small.max_memory = std::uint64_t{64} << 20;
    CHECK(has(input_error_of([&] { decode_image("big.tif", handmade_tiff(big), small); }), "more than the limit of 64.0 MiB"));
}

TEST_CASE("TIFF hostile: broken headers and directories name the file") {
    const Bytes stub = {'I', 'I', 42, 0, 8, 0, 0, 0};
    CHECK(has(input_error_of([&] { decode_image("stub.tif", stub, {}); }), "stub.tif: "));
    Bytes away = handmade_tiff({});
    away[4] = 0xF0, away[5] = 0xFF, away[6] = 0xFF, away[7] = 0x7F;  // the directory's offset past the end
    CHECK(has(input_error_of([&] { decode_image("away.tif", away, {}); }), "away.tif: the TIFF header or first directory is invalid"));
    CHECK(has(input_error_of([&] { decode_image("mm.tif", Bytes{'M', 'M', 0, 42}, {}); }), "mm.tif: "));
}

TEST_CASE("TIFF hostile: random damage never crashes: an image or an input error naming the file") {
    std::vector<Bytes> seeds = {handmade_tiff({})};
    for (TiffCompression c : {TiffCompression::None, TiffCompression::Lzw, TiffCompression::Deflate}) {
        TiffEncodeOptions o;
        o.compression = c;
        seeds.push_back(tiff_encode(test::photo_like_image(23, 17, 3).cview(), o));
    }
    test::decode_damaged(seeds, 11, 600, SIZE_MAX);
}

TEST_CASE("TIFF pages: the first by default, page N by option or by file.tif[N], a missing page named") {
    test::TempDir dir;
    std::vector<test::TiffPage> pages;
    for (int i = 0; i < 3; ++i) pages.push_back(test::pattern_page(10 + i, 5 + i, 1 + i, 8, static_cast<unsigned>(i)));
    const std::string path = dir.file("m.tif");
    test::write_tiff(path, pages);
    const LoadedImage first = load_image(path);
    CHECK(first.image.width() == 10);
    CHECK(first.header.pages == 3);
    CHECK(first.header.page == 0);
    LoadOptions second;
    second.page = 1;
    CHECK(load_image(path, second).image.width() == 11);
    const LoadedImage third = load_image(path + "[2]");
    CHECK(third.image.width() == 12);
    CHECK(third.image.channels() == 3);
    CHECK(third.header.page == 2);
    const std::string e = input_error_of([&] { load_image(path + "[3]"); });
    CHECK(has(e, "m.tif[3]: page 3 does not exist: the TIFF has 3 pages (0 to 2)"));
    // A file whose name ends in [1] is that file, not page 1 of another.
    test::write_tiff(dir.file("m.tif[1]"), {test::pattern_page(4, 4, 1, 8)});
    CHECK(load_image(dir.file("m.tif[1]")).image.width() == 4);
    // Other formats have one page.
    test::save_image_file(dir.file("p.png"), test::constant_image(2, 2, 1, 9));
    CHECK(load_image(dir.file("p.png[0]")).image.width() == 2);
    CHECK(has(input_error_of([&] { load_image(dir.file("p.png[1]")); }), "page 1 does not exist: a PNG file has one page (0)"));
}

#endif
