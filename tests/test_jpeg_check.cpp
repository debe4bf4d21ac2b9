// The walk over a JPEG's markers (src/io/jpeg_check.hpp) that stands in
// front of stb_image: each hostile file is built here segment by segment
// (tests/support/hostile_files.hpp), so what is wrong with it is on the page.
#include <doctest/doctest.h>

#include <array>
#include <string>

#include "src/io/jpeg_check.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/hostile_files.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::Bytes;
using test::JpegBytes;

namespace {

JpegCheck check(const Bytes& b) { return check_jpeg(b.data(), b.size()); }

// The problem the walk finds in `b`, which must name `part`.
void expect_problem(const Bytes& b, const std::string& part, bool in_header) {
    const JpegCheck c = check(b);
    INFO(c.problem);
    CHECK(has(c.problem, part));
    CHECK(c.problem_in_header == in_header);
}

}  // namespace

TEST_CASE("jpeg check: real files pass whole, with their scan data measured") {
    const std::vector<std::string> files = {test::sample_path("rocket.jpg"), test::data_path("progressive.jpg"),
                                            test::data_path("cmyk.jpg")};
    for (const std::string& path : files) {
        const std::string text = test::read_bytes(path);
        const Bytes b(text.begin(), text.end());
        const JpegCheck c = check(b);
        INFO(path, ": ", c.problem);
        CHECK(c.problem.empty());
        CHECK(c.ends);
        CHECK(c.uncovered.empty());
        CHECK(c.scans >= 1);
        CHECK(c.scan_bytes > c.min_scan_bytes);
        CHECK_FALSE(c.data_too_short());
    }
    const std::string progressive = test::read_bytes(test::data_path("progressive.jpg"));
    CHECK(check(Bytes(progressive.begin(), progressive.end())).progressive);
    // What imgpar itself writes (libjpeg-turbo, or stb's encoder), striped
    // with restart markers for a large image.
    std::vector<std::string> warnings;
    for (auto [w, h] : {std::pair{37, 21}, std::pair{1600, 1400}}) {
        const ImageU8 img = test::photo_like_image(w, h, 3);
        const Bytes b = encode_image(img.view(), ImageFormat::Jpeg, 90, warnings);
        const JpegCheck c = check(b);
        INFO(w, "x", h, ": ", c.problem);
        CHECK(c.problem.empty());
        CHECK(c.ends);
        CHECK_FALSE(c.data_too_short());
    }
}

TEST_CASE("jpeg check: the smallest valid file, and the floor on scan data") {
    const JpegCheck c = check(test::flat_gray_jpeg(16, 8));
    CHECK(c.problem.empty());
    CHECK(c.ends);
    CHECK(c.uncovered.empty());
    CHECK(c.scan_bytes == 2);      // two blocks of 6 bits
    CHECK(c.min_scan_bytes == 0);  // 2 blocks x 2 bits, rounded down
    const JpegCheck big = check(test::flat_gray_jpeg(64, 64));
    CHECK(big.min_scan_bytes == 16);  // 64 blocks x 2 bits
    CHECK(big.scan_bytes == 48);      // 64 blocks x 6 bits
}

// libjpeg-turbo refuses a table a scan uses whose codes take the all-ones
// code of their length, or, as a DC table, a symbol above 15; the walk does
// too, so a build on stb_image refuses what one on libjpeg-turbo does. A
// table no scan uses is left alone, as libjpeg-turbo leaves it.
TEST_CASE("jpeg check: Huffman tables libjpeg-turbo refuses when a scan uses them") {
    const std::array<int, 16> two_one_bit_codes{2};  // "0" and "1": the second is all ones
    const std::array<int, 16> one_code{1};
    const auto gray_using = [](int dc_id, int ac_id, int cls, int id, const std::array<int, 16>& counts, const Bytes& symbols) {
        JpegBytes j = test::gray_jpeg_headers(16, 8);
        j.dht(cls, id, counts, symbols);
        j.sos({{1, dc_id, ac_id}}).raw(test::flat_blocks(2)).eoi();
        return j.bytes;
    };
    expect_problem(gray_using(1, 0, 0, 1, two_one_bit_codes, {0, 1}), "uses Huffman table DC1, whose codes use the all-ones code", true);
    expect_problem(gray_using(0, 1, 1, 1, two_one_bit_codes, {0, 1}), "uses Huffman table AC1, whose codes use the all-ones code", true);
    expect_problem(gray_using(1, 0, 0, 1, one_code, {16}), "uses Huffman table DC1, whose symbols exceed 15", true);
    // The same tables, defined but not used; and a symbol of 16 in an AC table.
    CHECK(check(gray_using(0, 0, 0, 1, two_one_bit_codes, {0, 1})).problem.empty());
    CHECK(check(gray_using(0, 1, 1, 1, one_code, {16})).problem.empty());
}

TEST_CASE("jpeg check: Huffman tables that overrun a decoder's arrays or form no prefix code") {
    // stb_image 2.27 writes a table's code lengths and symbols into arrays of
    // 257 and 256 entries without counting them.
    expect_problem(test::oversized_huffman_jpeg(), "declares 2040 codes (at most 256)", true);
    expect_problem(test::oversized_huffman_jpeg(), "AC1", true);
    // Three codes of one bit cannot exist.
    JpegBytes j;
    j.soi().dht(0, 0, {3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 2});
    expect_problem(j.bytes, "more codes than fit in 1 bits", true);
    // Class 2 and id 4 do not exist.
    JpegBytes k;
    k.soi().dht(2, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0});
    expect_problem(k.bytes, "class 2, id 0 is out of range", true);
    JpegBytes l;
    l.soi().dht(0, 4, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0});
    expect_problem(l.bytes, "class 0, id 4 is out of range", true);
    // Counts promising more symbols than the segment's length holds.
    JpegBytes m;
    m.soi().segment(0xC4, {0x00, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7}).dqt(0);
    expect_problem(m.bytes, "ends inside a table's symbols", true);
    // The counts are checked as soon as they are read, even in a file cut
    // inside the table that follows them.
    Bytes cut = test::oversized_huffman_jpeg();
    cut.resize(4 + 67 + 4 + 17 + 10);  // SOI, DQT, DHT's marker and length, its counts, 10 symbols
    expect_problem(cut, "declares 2040 codes", true);
    // Cut inside the counts: stb reads the missing ones as 0, and the 12
    // there (255 each of lengths 9 to 12) already overrun its arrays.
    cut.resize(4 + 67 + 4 + 1 + 12);
    expect_problem(cut, "declares 1020 codes", true);
    // A table after the first scan is checked too (decoders read it before
    // the next scan); reading the header does not meet it.
    JpegBytes n = test::gray_jpeg_headers(16, 8);
    std::array<int, 16> counts{};
    counts[15] = 255;
    counts[14] = 255;
    n.sos({{1, 0, 0}}).raw(test::flat_blocks(2)).dht(1, 0, counts, Bytes(510, 1)).eoi();
    expect_problem(n.bytes, "declares 510 codes", false);
}

TEST_CASE("jpeg check: a scan must use tables defined before it") {
    expect_problem(test::undefined_table_jpeg(), "uses Huffman table DC3, which no DHT segment before the scan defines",
                   true);
    JpegBytes ac = test::gray_jpeg_headers(16, 8);
    ac.sos({{1, 0, 2}}).raw(test::flat_blocks(2)).eoi();
    expect_problem(ac.bytes, "uses Huffman table AC2", true);
    // A quantization table the frame names but no DQT defines.
    JpegBytes q;
    q.soi().dqt(0).sof(0xC0, 16, 8, {{1, 1, 1, 2}}).standard_dc(0).standard_ac(0).sos({{1, 0, 0}}).raw(test::flat_blocks(2)).eoi();
    expect_problem(q.bytes, "uses quantization table 2, which no DQT segment before the scan defines", true);
    // Defined after the scan that needs it is too late.
    JpegBytes late;
    late.soi().dqt(0).sof(0xC0, 16, 8, {{1, 1, 1, 0}}).standard_dc(0).sos({{1, 0, 0}}).raw(test::flat_blocks(2));
    late.standard_ac(0).eoi();
    expect_problem(late.bytes, "uses Huffman table AC0", true);
}

TEST_CASE("jpeg check: frame headers") {
    const auto frame = [](int marker, int w, int h, const std::vector<JpegBytes::Component>& comps, int precision = 8) {
        JpegBytes j;
        j.soi().dqt(0).sof(marker, w, h, comps, precision);
        return j.bytes;
    };
    expect_problem(frame(0xC0, 16, 8, {{1, 1, 1, 0}, {2, 1, 1, 0}}), "2 components (1, 3 or 4 are supported)", true);
    expect_problem(frame(0xC0, 16, 8, {{1, 1, 1, 0}, {1, 1, 1, 0}, {3, 1, 1, 0}}), "component 2 repeats the id 1", true);
    expect_problem(frame(0xC0, 16, 8, {{1, 0, 1, 0}}), "sampling factors 0x1", true);
    expect_problem(frame(0xC0, 16, 8, {{1, 5, 1, 0}}), "sampling factors 5x1", true);
    expect_problem(frame(0xC0, 16, 8, {{1, 3, 1, 0}, {2, 2, 1, 0}, {3, 1, 1, 0}}), "do not divide the largest", true);
    expect_problem(frame(0xC0, 16, 8, {{1, 1, 1, 4}}), "quantization table 4 (0 to 3)", true);
    expect_problem(frame(0xC0, 16, 8, {{1, 1, 1, 0}}, 12), "12-bit samples are not supported", true);
    expect_problem(frame(0xC0, 16, 0, {{1, 1, 1, 0}}), "size of 16x0", true);
    expect_problem(frame(0xC3, 16, 8, {{1, 1, 1, 0}}), "lossless or hierarchical", true);
    JpegBytes twice = test::gray_jpeg_headers(16, 8);
    twice.sof(0xC0, 16, 8, {{1, 1, 1, 0}});
    expect_problem(twice.bytes, "second frame", true);
    JpegBytes bad_length;
    bad_length.soi().segment(0xC0, {8, 0, 8, 0, 16, 1, 1, 0x11, 0, 0xAA});
    expect_problem(bad_length.bytes, "does not fit its 1 components", true);
}

TEST_CASE("jpeg check: scan headers") {
    const auto scan = [](const std::vector<JpegBytes::ScanComponent>& comps, int ss = 0, int se = 63, int ah = 0, int al = 0,
                         int marker = 0xC0) {
        JpegBytes j;
        j.soi().dqt(0).sof(marker, 16, 16, {{1, 2, 2, 0}, {2, 1, 1, 0}, {3, 1, 1, 0}}).standard_dc(0).standard_ac(0);
        j.sos(comps, ss, se, ah, al).zeros(8).eoi();
        return j.bytes;
    };
    expect_problem(scan({{7, 0, 0}}), "component id 7, which the frame lacks", true);
    expect_problem(scan({{1, 0, 0}, {1, 0, 0}}), "component id 1 twice", true);
    expect_problem(scan({{1, 0, 0}}, 1, 63), "in a sequential frame", true);
    expect_problem(scan({{1, 0, 0}}, 0, 63, 1, 0), "in a sequential frame", true);
    // Progressive: a DC scan must end at 0; an AC scan names one component,
    // comes after its DC scan, and refines only what a first pass sent.
    expect_problem(scan({{1, 0, 0}}, 0, 5, 0, 0, 0xC2), "is not a valid progressive scan", true);
    expect_problem(scan({{1, 0, 0}}, 9, 3, 0, 0, 0xC2), "is not a valid progressive scan", true);
    expect_problem(scan({{1, 0, 0}}, 0, 0, 3, 1, 0xC2), "is not a valid progressive scan", true);
    expect_problem(scan({{1, 0, 0}, {2, 0, 0}}, 1, 5, 0, 0, 0xC2), "an AC scan names 2 components", true);
    expect_problem(scan({{1, 0, 0}}, 1, 5, 0, 0, 0xC2), "an AC scan of component 1 comes before its first DC scan", true);
    expect_problem(scan({{1, 0, 0}}, 0, 0, 1, 0, 0xC2), "a refinement scan of component 1 comes before its first pass", true);
    // Interleaved MCUs of more than 10 blocks.
    JpegBytes wide;
    wide.soi().dqt(0).sof(0xC0, 64, 64, {{1, 4, 3, 0}, {2, 1, 1, 0}, {3, 1, 1, 0}}).standard_dc(0).standard_ac(0);
    wide.sos({{1, 0, 0}, {2, 0, 0}, {3, 0, 0}}).zeros(8).eoi();
    expect_problem(wide.bytes, "14 blocks per MCU (at most 10)", true);
    // A scan before the frame, a length that does not fit.
    JpegBytes early;
    early.soi().dqt(0).sos({{1, 0, 0}});
    expect_problem(early.bytes, "comes before the frame header", true);
}

TEST_CASE("jpeg check: what lies outside segments") {
    JpegBytes rst = test::gray_jpeg_headers(16, 8);
    rst.raw({0xFF, 0xD0});
    expect_problem(rst.bytes, "byte pair FF D0", true);
    JpegBytes soi = test::gray_jpeg_headers(16, 8);
    soi.soi();
    expect_problem(soi.bytes, "byte pair FF D8", true);
    JpegBytes unknown = test::gray_jpeg_headers(16, 8);
    unknown.segment(0xF3, {1, 2});
    expect_problem(unknown.bytes, "marker 0xF3", true);
    JpegBytes short_length = test::gray_jpeg_headers(16, 8);
    short_length.raw({0xFF, 0xE1, 0x00, 0x01});
    expect_problem(short_length.bytes, "declares a length of 1", true);
    CHECK(has(check(Bytes{'n', 'o'}).problem, "no start-of-image marker"));
    JpegBytes tables_only;
    tables_only.soi().dqt(0).standard_dc(0).eoi();
    CHECK(has(check(tables_only.bytes).problem, "no frame header"));
    // Bytes between segments that are no marker are skipped, as decoders do.
    JpegBytes junk = test::gray_jpeg_headers(16, 8);
    junk.raw({0x12, 0x34}).sos({{1, 0, 0}}).raw(test::flat_blocks(2)).eoi();
    CHECK(check(junk.bytes).problem.empty());
    // Scan data: stuffed zeros and restart markers belong to it, fill bytes
    // before a marker do not end it early.
    JpegBytes data = test::gray_jpeg_headers(16, 8);
    data.sos({{1, 0, 0}}).raw({0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xFF, 0xD9});
    const JpegCheck c = check(data.bytes);
    CHECK(c.problem.empty());
    CHECK(c.ends);
    CHECK(c.scan_bytes == 6);  // 12 FF 00 34, 56, one fill byte; not the restart marker
}

TEST_CASE("jpeg check: files that end early, scans too short, components no scan fills") {
    const Bytes whole = test::flat_gray_jpeg(64, 64);
    for (std::size_t cut = 3; cut < whole.size(); ++cut) {
        const Bytes part(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(cut));
        const JpegCheck c = check(part);
        INFO("cut at ", cut, ": ", c.problem);
        CHECK(c.problem.empty());
        CHECK_FALSE(c.ends);
    }
    // The bomb: a 16384x16384 frame (4 Mi blocks: at least 1 MiB of coded
    // data) with 16 bytes of it.
    const JpegCheck bomb = check(test::jpeg_bomb(16384));
    CHECK(bomb.problem.empty());
    CHECK(bomb.ends);
    CHECK(bomb.scan_bytes == 16);
    CHECK(bomb.min_scan_bytes == std::uint64_t{1} << 20);
    CHECK(bomb.data_too_short());
    // Three components, one scanned.
    JpegBytes one;
    one.soi().dqt(0).sof(0xC0, 16, 8, {{1, 1, 1, 0}, {2, 1, 1, 0}, {3, 1, 1, 0}}).standard_dc(0).standard_ac(0);
    one.sos({{1, 0, 0}}).raw(test::flat_blocks(2)).eoi();
    CHECK(check(one.bytes).uncovered == "component 2 of 3 is in no scan");
}

TEST_CASE("jpeg check: a thousand scans are enough") {
    JpegBytes j;
    j.soi().dqt(0).sof(0xC2, 8, 8, {{1, 1, 1, 0}}).standard_dc(0);
    j.sos({{1, 0, 0}}, 0, 0, 0, 13).raw({0x00});
    for (int k = 0; k < kMaxJpegScans; ++k) j.sos({{1, 0, 0}}, 0, 0, 13, 12).raw({0x00});
    const JpegCheck c = check(j.bytes);
    CHECK(c.scans == kMaxJpegScans + 1);
    CHECK(has(c.problem, "more than 1000 scans"));
}
