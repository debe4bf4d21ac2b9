// XMP (and JPEG's extended XMP), IPTC and comments: read from JPEG segments
// and PNG chunks, written back by both encoders (and by the GPU path's
// insert_jpeg_metadata, byte for byte the CPU's), carried between the two
// formats, and hostile metadata dropped with a problem said, never read past.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/metadata.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

std::vector<std::uint8_t> patterned(std::size_t n, unsigned seed) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>('a' + (i * seed + i / 7) % 26);
    return v;
}

const std::string kGuid = "0123456789ABCDEF0123456789ABCDEF";

// IPTC-IIM: 2:25 Keywords "imgpar", 2:120 Caption.
std::vector<std::uint8_t> iptc_records() {
    std::vector<std::uint8_t> r;
    const auto record = [&](int dataset, const std::string& text) {
        r.insert(r.end(), {0x1C, 2, static_cast<std::uint8_t>(dataset), 0, static_cast<std::uint8_t>(text.size())});
        r.insert(r.end(), text.begin(), text.end());
    };
    record(25, "imgpar");
    record(120, "A caption");
    return r;
}

ImageMetadata every_kind() {
    ImageMetadata m;
    m.exif = {'I', 'I', 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    m.icc = patterned(3000, 3);
    const std::string xmp = "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF><rdf:Description xmpNote:HasExtendedXMP='" +
                            kGuid + "'/></rdf:RDF></x:xmpmeta>";
    m.xmp = bytes_of(xmp);
    m.iptc = iptc_records();
    m.comments = {Comment{"Comment", "first comment", false}, Comment{"Comment", std::string(3000, 'x'), false}};
    return m;
}

std::vector<std::uint8_t> segment(int marker, const std::vector<std::uint8_t>& payload) {
    const std::size_t length = 2 + payload.size();
    std::vector<std::uint8_t> s = {0xFF, static_cast<std::uint8_t>(marker), static_cast<std::uint8_t>(length >> 8),
                                   static_cast<std::uint8_t>(length & 0xFF)};
    s.insert(s.end(), payload.begin(), payload.end());
    return s;
}

// A JPEG of markers only (what the readers walk), ending at SOS.
std::vector<std::uint8_t> jpeg_of(const std::vector<std::vector<std::uint8_t>>& segments) {
    std::vector<std::uint8_t> j = {0xFF, 0xD8};
    for (const auto& s : segments) j.insert(j.end(), s.begin(), s.end());
    j.insert(j.end(), {0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9});
    return j;
}

std::vector<std::uint8_t> extended_chunk(const std::string& guid, std::uint32_t full, std::uint32_t offset,
                                         const std::vector<std::uint8_t>& data) {
    std::vector<std::uint8_t> p = bytes_of(std::string("http://ns.adobe.com/xmp/extension/\0", 35) + guid);
    for (std::uint32_t v : {full, offset})
        p.insert(p.end(), {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16),
                           static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)});
    p.insert(p.end(), data.begin(), data.end());
    return segment(0xE1, p);
}

}  // namespace

TEST_CASE("jpeg metadata: XMP, extended XMP, IPTC and comments written and read back; the GPU path's bytes equal") {
    if (!jpeg_codec_available()) return;
    ImageMetadata m = every_kind();
    m.xmp_extended = patterned(150000, 5);  // three APP1 extension chunks
    m.xmp_extended_guid = kGuid;
    m.iptc = patterned(70001, 7);           // an odd size over one APP13: two segments, padded
    m.comments.push_back(Comment{"Title", "a title", false});
    const ImageU8 img = test::photo_like_image(45, 31, 3, 4);
    const std::vector<std::uint8_t> jpeg = jpeg_encode(img.view(), 90, ChromaSubsampling::Auto, &m, false);
    const ImageMetadata back = read_jpeg_metadata(jpeg.data(), jpeg.size());
    CHECK(back.problems.empty());
    CHECK(back.exif == m.exif);
    CHECK(back.icc == m.icc);
    CHECK(back.xmp == m.xmp);
    CHECK(back.xmp_extended == m.xmp_extended);
    CHECK(back.xmp_extended_guid == kGuid);
    CHECK(back.iptc == m.iptc);
    REQUIRE(back.comments.size() == 3);
    CHECK(back.comments[0] == m.comments[0]);
    CHECK(back.comments[1] == m.comments[1]);
    CHECK(back.comments[2].text == "Title: a title");  // a COM has no keyword
    const std::vector<std::uint8_t> plain = jpeg_encode(img.view(), 90, ChromaSubsampling::Auto, nullptr, false);
    CHECK(insert_jpeg_metadata(plain, m) == jpeg);
    std::vector<std::string> warnings;
    note_metadata_left_out(m, ImageFormat::Jpeg, warnings);
    CHECK(warnings.empty());
}

TEST_CASE("jpeg metadata: what a JPEG cannot hold is left out and said") {
    ImageMetadata m;
    m.xmp = patterned(70000, 3);  // over one APP1
    m.comments = {Comment{"Comment", std::string(70000, 'c'), false}};
    std::vector<std::string> left;
    const std::vector<JpegSegment> s = jpeg_metadata_segments(m, &left);
    CHECK(s.empty());
    REQUIRE(left.size() == 2);
    CHECK(test::any_has(left, "XMP (70000 bytes)"));
    CHECK(test::any_has(left, "COM segment"));
}

TEST_CASE("jpeg metadata: hostile extended XMP, Photoshop blocks and comment floods are dropped with a problem") {
    const std::vector<std::uint8_t> main_packet = bytes_of("<x HasExtendedXMP=\"" + kGuid + "\"/>");
    const auto xmp = segment(0xE1, [&] {
        std::vector<std::uint8_t> p = bytes_of(std::string("http://ns.adobe.com/xap/1.0/\0", 29));
        p.insert(p.end(), main_packet.begin(), main_packet.end());
        return p;
    }());
    const std::vector<std::uint8_t> a = patterned(100, 1), b = patterned(50, 2);
    SUBCASE("whole, chunks out of order") {
        const auto j = jpeg_of({xmp, extended_chunk(kGuid, 150, 100, b), extended_chunk(kGuid, 150, 0, a)});
        const ImageMetadata m = read_jpeg_metadata(j.data(), j.size());
        std::vector<std::uint8_t> joined = a;
        joined.insert(joined.end(), b.begin(), b.end());
        CHECK(m.xmp_extended == joined);
        CHECK(m.problems.empty());
    }
    SUBCASE("a chunk missing (truncated)") {
        const auto j = jpeg_of({xmp, extended_chunk(kGuid, 150, 0, a)});
        const ImageMetadata m = read_jpeg_metadata(j.data(), j.size());
        CHECK(m.xmp == main_packet);
        CHECK(m.xmp_extended.empty());
        CHECK(test::any_has(m.problems, "truncated (100 of 150 bytes present)"));
    }
    SUBCASE("lengths disagree, chunks overlap, a huge length claimed, another GUID") {
        auto j = jpeg_of({xmp, extended_chunk(kGuid, 150, 0, a), extended_chunk(kGuid, 151, 100, b)});
        CHECK(test::any_has(read_jpeg_metadata(j.data(), j.size()).problems, "disagree"));
        j = jpeg_of({xmp, extended_chunk(kGuid, 150, 0, a), extended_chunk(kGuid, 150, 60, a)});
        CHECK(test::any_has(read_jpeg_metadata(j.data(), j.size()).problems, "gaps or overlap"));
        j = jpeg_of({xmp, extended_chunk(kGuid, 0xFFFFFFF0u, 0, a)});
        CHECK(test::any_has(read_jpeg_metadata(j.data(), j.size()).problems, "over the limit"));
        j = jpeg_of({extended_chunk(kGuid, 100, 0, a)});
        CHECK(test::any_has(read_jpeg_metadata(j.data(), j.size()).problems, "without its standard XMP packet"));
        j = jpeg_of({xmp, extended_chunk(std::string(32, 'F'), 100, 0, a)});
        const ImageMetadata m = read_jpeg_metadata(j.data(), j.size());
        CHECK(m.xmp_extended.empty());
        CHECK(test::any_has(m.problems, "no chunk has the GUID"));
    }
    SUBCASE("a flood of GUIDs: the first 16 are looked at, the rest ignored") {
        std::vector<std::vector<std::uint8_t>> segs = {xmp};
        for (int k = 0; k < 40; ++k) {
            char guid[33];
            std::snprintf(guid, sizeof guid, "%032d", k);
            segs.push_back(extended_chunk(guid, 100, 0, a));
        }
        segs.push_back(extended_chunk(kGuid, 100, 0, a));
        const auto j = jpeg_of(segs);
        const ImageMetadata m = read_jpeg_metadata(j.data(), j.size());
        CHECK(m.xmp_extended.empty());
        CHECK(test::any_has(m.problems, "no chunk has the GUID"));
    }
    SUBCASE("Photoshop resources: a size past the end, a flood of comments") {
        std::vector<std::uint8_t> ps = bytes_of(std::string("Photoshop 3.0\0", 14));
        ps.insert(ps.end(), {'8', 'B', 'I', 'M', 0x04, 0x04, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3});
        std::vector<std::vector<std::uint8_t>> segs = {segment(0xED, ps)};
        for (int k = 0; k < 300; ++k) segs.push_back(segment(0xFE, bytes_of("c" + std::to_string(k))));
        const auto j = jpeg_of(segs);
        const ImageMetadata m = read_jpeg_metadata(j.data(), j.size());
        CHECK(m.iptc.empty());
        CHECK(test::any_has(m.problems, "Photoshop resource block is malformed"));
        CHECK(m.comments.size() == kMaxComments);
        CHECK(test::any_has(m.problems, "comments past the limits of 256 comments"));
    }
    SUBCASE("cut anywhere: never a crash, never a partial kind") {
        ImageMetadata full = every_kind();
        full.xmp_extended = patterned(100000, 3);
        full.xmp_extended_guid = kGuid;
        std::vector<std::uint8_t> j = insert_jpeg_metadata({0xFF, 0xD8, 0xFF, 0xD9}, full);
        for (std::size_t n = 0; n < j.size(); n += 331) {
            const ImageMetadata c = read_jpeg_metadata(j.data(), n);
            CHECK((c.xmp_extended.empty() || c.xmp_extended == full.xmp_extended));
            CHECK((c.iptc.empty() || c.iptc == full.iptc));
            CHECK((c.xmp.empty() || c.xmp == full.xmp));
        }
    }
}

TEST_CASE("png metadata: XMP, IPTC (raw profile) and comments (tEXt, zTXt, iTXt) written and read back") {
    if (!png_codec_available()) return;
    ImageMetadata m = every_kind();
    m.comments.push_back(Comment{"Title", "caf\xc3\xa9 \xe2\x98\x95", true});                 // iTXt
    m.comments.push_back(Comment{"Description", std::string(5000, 'd') + "\xc3\xa9", true});  // iTXt, compressed
    m.comments.push_back(Comment{"Author", "Jos\xe9", false});                                 // tEXt, Latin-1
    PngEncodeOptions o;
    o.metadata = &m;
    const ImageU8 img = test::photo_like_image(23, 17, 4, 2);
    const std::vector<std::uint8_t> png = png_encode(img.view(), o);
    const ImageMetadata back = png_read_metadata(png);
    CHECK(back.problems.empty());
    CHECK(back.exif == m.exif);
    CHECK(back.icc == m.icc);
    CHECK(back.xmp == m.xmp);
    CHECK(back.iptc == m.iptc);
    CHECK(back.comments == m.comments);
    // The pixels are untouched by the chunks around them.
    IMGPAR_CHECK_IMAGES_EQUAL(decode_image("m.png", png, LoadOptions{}).image, img);

    // A COM's UTF-8 text goes into iTXt (a tEXt is Latin-1), and comes back as UTF-8.
    ImageMetadata com;
    com.comments = {Comment{"Comment", "na\xc3\xafve", false}};
    o.metadata = &com;
    const std::vector<std::uint8_t> utf8 = png_encode(img.view(), o);
    const ImageMetadata c = png_read_metadata(utf8);
    REQUIRE(c.comments.size() == 1);
    CHECK(c.comments[0].text == com.comments[0].text);
    CHECK(c.comments[0].utf8);

    // A tEXt under the XMP keyword is a comment (XMP lives in iTXt); its UTF-8
    // text goes back into a tEXt, not an iTXt that would read as the packet.
    ImageMetadata xmp_text;
    xmp_text.comments = {Comment{"XML:com.adobe.xmp", "<?xpacket begin='\xef\xbb\xbf'?>", false}};
    o.metadata = &xmp_text;
    const ImageMetadata t = png_read_metadata(png_encode(img.view(), o));
    CHECK(t.xmp.empty());
    CHECK(t.comments == xmp_text.comments);

    // JPEG's extended XMP has no place in a PNG: said, not written.
    ImageMetadata ext = every_kind();
    ext.xmp_extended = patterned(1000, 1);
    ext.xmp_extended_guid = kGuid;
    std::vector<std::string> warnings;
    note_metadata_left_out(ext, ImageFormat::Png, warnings);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("metadata not written: extended XMP (1000 bytes)") == 0);
}

namespace {

std::vector<std::uint8_t> png_chunk(const char* type, const std::vector<std::uint8_t>& data) {
    std::vector<std::uint8_t> c = {static_cast<std::uint8_t>(data.size() >> 24), static_cast<std::uint8_t>(data.size() >> 16),
                                   static_cast<std::uint8_t>(data.size() >> 8), static_cast<std::uint8_t>(data.size())};
    c.insert(c.end(), type, type + 4);
    c.insert(c.end(), data.begin(), data.end());
    c.insert(c.end(), {0, 0, 0, 0});  // the CRC: the readers of metadata leave it to the decoder
    return c;
}

// A PNG of chunks only: signature, IHDR (1x1 gray), `middle`, IEND.
std::vector<std::uint8_t> png_of(const std::vector<std::vector<std::uint8_t>>& middle) {
    std::vector<std::uint8_t> p = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    const auto ihdr = png_chunk("IHDR", {0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0});
    p.insert(p.end(), ihdr.begin(), ihdr.end());
    for (const auto& c : middle) p.insert(p.end(), c.begin(), c.end());
    const auto iend = png_chunk("IEND", {});
    p.insert(p.end(), iend.begin(), iend.end());
    return p;
}

}  // namespace

TEST_CASE("png metadata: text bombs, corrupt streams, malformed raw profiles and chunk floods are dropped") {
    if (!png_codec_available()) return;
    // 2 MiB of one letter deflate to about 2 KiB: past a comment's 1 MiB bound.
    std::vector<std::uint8_t> bomb = bytes_of(std::string("Comment\0\0", 9));
    const std::vector<std::uint8_t> deflated = [&] {
        std::vector<std::uint8_t> out;
        ImageMetadata big;
        big.comments = {Comment{"Comment", std::string(2 << 20, 'z'), false}};  // over the bound: written, read back refused
        const std::vector<std::uint8_t> chunks = png_metadata_chunks(big, nullptr);
        // zTXt payload: after length (4), type (4), keyword, NUL, method.
        return std::vector<std::uint8_t>(chunks.begin() + 8 + 9, chunks.end() - 4);
    }();
    bomb.insert(bomb.end(), deflated.begin(), deflated.end());
    ImageMetadata m = png_read_metadata(png_of({png_chunk("zTXt", bomb)}));
    CHECK(m.comments.empty());
    CHECK(test::any_has(m.problems, "over the limit of 1 MiB"));

    // Stored, not compressed: checked against the bound before it is copied.
    m = png_read_metadata(png_of({png_chunk("tEXt", bytes_of(std::string("Comment\0", 8) + std::string(2 << 20, 't')))}));
    CHECK(m.comments.empty());
    CHECK(test::any_has(m.problems, "PNG text \"Comment\": over the limit of 1 MiB; dropped"));

    std::vector<std::uint8_t> corrupt = bytes_of(std::string("Comment\0\0", 9));
    corrupt.insert(corrupt.end(), {0x78, 0x9C, 0xFF, 0xFF, 0xFF});
    m = png_read_metadata(png_of({png_chunk("zTXt", corrupt)}));
    CHECK(test::any_has(m.problems, "compressed data is corrupt"));

    m = png_read_metadata(png_of({png_chunk("tEXt", bytes_of(std::string("Raw profile type iptc") + '\0' + "\niptc\n   99999\n00ff"))}));
    CHECK(m.iptc.empty());
    CHECK(test::any_has(m.problems, "malformed"));

    std::vector<std::vector<std::uint8_t>> flood;
    for (int k = 0; k < 1100; ++k) flood.push_back(png_chunk("tEXt", bytes_of(std::string("Comment\0", 8) + std::to_string(k))));
    m = png_read_metadata(png_of(flood));
    CHECK(m.comments.size() == kMaxComments);
    CHECK(test::any_has(m.problems, "text chunks past the first 1024 not read"));

    // An iTXt cut inside its fields, a keyword without its NUL: skipped.
    m = png_read_metadata(png_of({png_chunk("iTXt", bytes_of(std::string("Title\0\0", 7))),
                                   png_chunk("tEXt", bytes_of(std::string(100, 'k')))}));
    CHECK(m.empty());
}

TEST_CASE("icc_description: v2 'desc' and v4 'mluc' tags; malformed ones give nothing") {
    const auto profile = [](const std::vector<std::uint8_t>& tag) {
        std::vector<std::uint8_t> p(144, 0);
        p[131] = 1;                                   // one tag
        std::memcpy(p.data() + 132, "desc", 4);
        p[139] = 144;                                 // offset
        p[143] = static_cast<std::uint8_t>(tag.size());
        p.insert(p.end(), tag.begin(), tag.end());
        return p;
    };
    std::vector<std::uint8_t> v2 = bytes_of(std::string("desc\0\0\0\0\0\0\0\x05sRGB\0", 17));
    CHECK(icc_description(profile(v2)) == "sRGB");
    // mluc: one record, "en" "US", 8 bytes at offset 28: "Wide" in UTF-16BE.
    std::vector<std::uint8_t> v4 = bytes_of(std::string("mluc\0\0\0\0\0\0\0\x01\0\0\0\x0c" "enUS\0\0\0\x08\0\0\0\x1c", 28));
    v4.insert(v4.end(), {0, 'W', 0, 'i', 0, 'd', 0, 'e'});
    CHECK(icc_description(profile(v4)) == "Wide");
    std::vector<std::uint8_t> bad = profile(v2);
    bad[143] = 200;  // past the end
    CHECK(icc_description(bad).empty());
    CHECK(icc_description(patterned(100, 1)).empty());
}

TEST_CASE("describe_metadata names every kind, comments shortened") {
    ImageMetadata m = every_kind();
    m.comments[1].text = "line one\nline two " + std::string(100, 'y');
    const std::string d = describe_metadata(m);
    CHECK(d.find("XMP ") != std::string::npos);
    CHECK(d.find("IPTC 25 bytes") != std::string::npos);
    CHECK(d.find("2 comments (\"first comment\", \"line one\\nline two yyy") != std::string::npos);
    CHECK(d.find("...\")") != std::string::npos);
}
