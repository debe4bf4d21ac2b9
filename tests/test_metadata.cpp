// EXIF orientation and ICC profiles: reading them from JPEG markers, the
// orientation tag in either byte order, and turning pixels upright.
#include <doctest/doctest.h>

#include "src/io/jpeg_codec.hpp"
#include "src/io/metadata.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// A minimal TIFF structure: IFD0 with Make ("imgpar") and Orientation.
std::vector<std::uint8_t> exif_block(bool big_endian, int orientation) {
    std::vector<std::uint8_t> t;
    const auto u16 = [&](unsigned v) {
        if (big_endian) t.insert(t.end(), {static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)});
        else t.insert(t.end(), {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8)});
    };
    const auto u32 = [&](std::uint32_t v) {
        if (big_endian) { u16(v >> 16); u16(v & 0xFFFF); }
        else { u16(v & 0xFFFF); u16(v >> 16); }
    };
    t.insert(t.end(), big_endian ? std::initializer_list<std::uint8_t>{'M', 'M'} : std::initializer_list<std::uint8_t>{'I', 'I'});
    u16(42);
    u32(8);
    u16(2);  // entries
    u16(0x010F); u16(2); u32(7); u32(38);  // Make, ASCII, 7 bytes at offset 38
    u16(0x0112); u16(3); u32(1); u16(static_cast<unsigned>(orientation)); u16(0);
    u32(0);  // no next IFD
    for (char c : std::string("imgpar")) t.push_back(static_cast<std::uint8_t>(c));
    t.push_back(0);
    return t;
}

std::vector<std::uint8_t> segment(int marker, const std::string& id, const std::vector<std::uint8_t>& payload) {
    const std::size_t length = 2 + id.size() + payload.size();
    std::vector<std::uint8_t> s = {0xFF, static_cast<std::uint8_t>(marker), static_cast<std::uint8_t>(length >> 8),
                                   static_cast<std::uint8_t>(length & 0xFF)};
    s.insert(s.end(), id.begin(), id.end());
    s.insert(s.end(), payload.begin(), payload.end());
    return s;
}

}  // namespace

TEST_CASE("exif orientation: read and set, little- and big-endian, absent or malformed") {
    for (bool be : {false, true})
        for (int o = 1; o <= 8; ++o) {
            std::vector<std::uint8_t> e = exif_block(be, o);
            CHECK(exif_orientation(e) == o);
            CHECK(set_exif_orientation(e, 1));
            CHECK(exif_orientation(e) == 1);
        }
    std::vector<std::uint8_t> bad = exif_block(false, 9);
    CHECK(exif_orientation(bad) == 0);
    for (std::size_t n = 0; n < 30; ++n) {
        std::vector<std::uint8_t> cut = exif_block(true, 6);
        cut.resize(n);
        CHECK(exif_orientation(cut) == 0);
        CHECK_FALSE(set_exif_orientation(cut, 1));
    }
}

TEST_CASE("apply_orientation: each of the eight, and each undone by its inverse") {
    // 3x2, one channel: values 1..6 row by row.
    ImageU8 img(3, 2, 1);
    for (int i = 0; i < 6; ++i) img.data()[i] = static_cast<std::uint8_t>(i + 1);
    const auto at = [](const ImageU8& m, int x, int y) { return m.data()[static_cast<std::size_t>(y) * m.row_bytes() + x]; };
    // 6: the stored top-left pixel shows at the upright top-right.
    const ImageU8 r6 = apply_orientation(img.view(), 6);
    CHECK(r6.width() == 2);
    CHECK(r6.height() == 3);
    CHECK(at(r6, 1, 0) == 1);
    CHECK(at(r6, 0, 0) == 4);
    // 8: the stored top-left shows at the upright bottom-left.
    const ImageU8 r8 = apply_orientation(img.view(), 8);
    CHECK(at(r8, 0, 2) == 1);
    CHECK(at(apply_orientation(img.view(), 2), 0, 0) == 3);
    CHECK(at(apply_orientation(img.view(), 3), 0, 0) == 6);
    CHECK(at(apply_orientation(img.view(), 4), 0, 0) == 4);
    CHECK(at(apply_orientation(img.view(), 5), 1, 0) == 4);
    CHECK(at(apply_orientation(img.view(), 7), 0, 0) == 6);
    const int inverse[9] = {0, 1, 2, 3, 4, 5, 8, 7, 6};
    const ImageU8 photo = test::photo_like_image(17, 11, 3, 4);
    for (int o = 1; o <= 8; ++o) {
        CAPTURE(o);
        const ImageU8 there = apply_orientation(photo.view(), o);
        IMGPAR_CHECK_IMAGES_EQUAL(photo, apply_orientation(there.view(), inverse[o]));
    }
}

TEST_CASE("read_jpeg_metadata: Exif from APP1, the ICC profile from its APP2 chunks in order") {
    const std::vector<std::uint8_t> exif = exif_block(true, 6);
    std::vector<std::uint8_t> icc(70000);
    for (std::size_t i = 0; i < icc.size(); ++i) icc[i] = static_cast<std::uint8_t>(i * 7);
    const std::vector<std::uint8_t> part1(icc.begin(), icc.begin() + 60000), part2(icc.begin() + 60000, icc.end());
    std::vector<std::uint8_t> jpeg = {0xFF, 0xD8};
    const auto add = [&](const std::vector<std::uint8_t>& s) { jpeg.insert(jpeg.end(), s.begin(), s.end()); };
    add(segment(0xE1, std::string("Exif\0\0", 6), exif));
    std::vector<std::uint8_t> p2 = {2, 2};
    p2.insert(p2.end(), part2.begin(), part2.end());
    std::vector<std::uint8_t> p1 = {1, 2};
    p1.insert(p1.end(), part1.begin(), part1.end());
    add(segment(0xE2, std::string("ICC_PROFILE\0", 12), p2));  // out of order on purpose
    add(segment(0xE2, std::string("ICC_PROFILE\0", 12), p1));
    jpeg.insert(jpeg.end(), {0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9});
    const ImageMetadata m = read_jpeg_metadata(jpeg.data(), jpeg.size());
    CHECK(m.exif == exif);
    CHECK(m.icc == icc);
    CHECK(exif_orientation(m.exif) == 6);
    // Cut anywhere: never a crash, never a partial profile.
    for (std::size_t n = 0; n < jpeg.size(); n += 997) {
        const ImageMetadata c = read_jpeg_metadata(jpeg.data(), n);
        CHECK((c.icc.empty() || c.icc == icc));
    }
}

TEST_CASE("insert_jpeg_metadata: the segments imgpar's libjpeg-turbo path writes, byte for byte") {
    if (!jpeg_codec_available()) return;
    const ImageU8 img = test::photo_like_image(61, 43, 3, 9);
    ImageMetadata m;
    m.exif = exif_block(false, 3);
    m.icc.resize(140000);  // three APP2 chunks
    for (std::size_t i = 0; i < m.icc.size(); ++i) m.icc[i] = static_cast<std::uint8_t>(i * 13 + 1);
    for (int which = 0; which < 3; ++which) {
        ImageMetadata part = m;
        if (which == 1) part.icc.clear();
        if (which == 2) part.exif.clear();
        const std::vector<std::uint8_t> plain = jpeg_encode(img.view(), 90, ChromaSubsampling::Auto, nullptr, false);
        const std::vector<std::uint8_t> inserted = insert_jpeg_metadata(plain, part);
        CHECK(inserted == jpeg_encode(img.view(), 90, ChromaSubsampling::Auto, &part, false));
        const ImageMetadata back = read_jpeg_metadata(inserted.data(), inserted.size());
        CHECK(back.exif == part.exif);
        CHECK(back.icc == part.icc);
    }
    const std::vector<std::uint8_t> plain = jpeg_encode(img.view(), 90);
    CHECK(insert_jpeg_metadata(plain, ImageMetadata{}) == plain);
    // Without a JFIF segment the metadata goes right after SOI.
    const std::vector<std::uint8_t> bare = {0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x02, 0xFF, 0xD9};
    const std::vector<std::uint8_t> with = insert_jpeg_metadata(bare, m);
    CHECK(with[2] == 0xFF);
    CHECK(with[3] == 0xE1);
    CHECK(read_jpeg_metadata(with.data(), with.size()).icc == m.icc);
}
