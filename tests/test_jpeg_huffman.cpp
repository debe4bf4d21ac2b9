// The parallel Huffman decoder (src/io/jpeg_huffman_decode.hpp), run by its
// CPU twin, against libjpeg-turbo's entropy decoder: the same coefficients,
// block for block, on files libjpeg-turbo writes in every layout, size,
// quality, table and restart setting, with subsequences from 32 bits (long
// chains of decoders falling into step) to whole intervals; and on damaged
// files, "not taken" exactly when the scan walk (src/io/jpeg_scan.hpp), which
// admits files to the hardware decoder, finds the scan unclean.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_huffman_cpu.hpp"
#include "src/io/jpeg_huffman_plan.hpp"
#include "src/io/jpeg_scan.hpp"
#include "tests/support/jpeg_scan_damage.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_encodings.hpp"
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;

#if IMGPAR_TEST_LIBJPEG
namespace {

using Bytes = std::vector<std::uint8_t>;

// The subsequence sizes every file is decoded with: tiny ones make decoders
// start inside codes and walk far to fall into step; the GPU's; one larger
// than any interval here (a decoder an interval).
constexpr std::uint32_t kSizes[] = {32, 40, 96, huffman::kSubsequenceBits, 1u << 24, 0xFFFFFFFFu};

using test::encode;
using test::Encoding;

// The plan's view of the image (what the GPU's inverse DCT reads in place of
// jpeg_read_coefficients' header) is libjpeg-turbo's.
void check_layout(const Bytes& bytes, const JpegCoefficients& k) {
    const JpegHuffmanPlan plan = plan_jpeg_huffman(bytes.data(), bytes.size());
    REQUIRE(plan.taken);
    const JpegCoefficients l = coefficient_layout(plan, "case.jpg");
    CHECK(l.width == k.width);
    CHECK(l.height == k.height);
    CHECK(l.components == k.components);
    CHECK(l.blocks == k.blocks);
    if (k.components == 3) CHECK(l.layout == k.layout);
    for (int c = 0; c < k.components; ++c) {
        CAPTURE(c);
        const JpegCoefficients::Component &a = l.component[static_cast<std::size_t>(c)],
                                          &b = k.component[static_cast<std::size_t>(c)];
        CHECK(a.blocks_wide == b.blocks_wide);
        CHECK(a.blocks_high == b.blocks_high);
        CHECK(a.width == b.width);
        CHECK(a.height == b.height);
        CHECK(a.first_block == b.first_block);
        CHECK(a.quant == b.quant);
    }
}

// libjpeg-turbo's coefficients of a file it reads with no warning.
std::vector<std::int16_t> reference(const Bytes& bytes, int width, int height) {
    std::vector<std::string> warnings;
    const JpegCoefficients k = jpeg_read_coefficients("case.jpg", bytes, width, height, warnings);
    CHECK(warnings.empty());
    check_layout(bytes, k);
    return test::all_blocks(k);
}

std::string mismatch(const std::vector<std::int16_t>& expected, const std::vector<std::int16_t>& actual) {
    return test::coefficient_mismatch(expected, actual, "libjpeg-turbo", "parallel");
}

// The file decoded with every subsequence size gives libjpeg-turbo's coefficients.
void check_exact(const Bytes& bytes, int width, int height) {
    REQUIRE(jpeg_scan_is_clean(bytes.data(), bytes.size()));
    const std::vector<std::int16_t> expected = reference(bytes, width, height);
    for (std::uint32_t size : kSizes) {
        CAPTURE(size);
        const JpegHuffmanResult r = decode_jpeg_huffman_cpu(bytes.data(), bytes.size(), size);
        CAPTURE(r.reason);
        REQUIRE(r.taken);
        CHECK(mismatch(expected, r.blocks) == "");
        CHECK(r.sync_passes >= 1);
    }
}

// A damaged file is taken exactly when the walk finds its scan clean, and
// then decodes to libjpeg-turbo's coefficients.
void check_damaged(const Bytes& bytes, int width, int height, std::uint32_t size) {
    const bool clean = jpeg_scan_is_clean(bytes.data(), bytes.size());
    const JpegHuffmanResult r = decode_jpeg_huffman_cpu(bytes.data(), bytes.size(), size);
    CAPTURE(r.reason);
    CHECK(r.taken == clean);
    if (r.taken && clean) CHECK(mismatch(reference(bytes, width, height), r.blocks) == "");
}


// A gray JPEG written by hand, 8-pixel blocks of quantizer 1, with the
// given Huffman tables and scan bytes: for codes no encoder writes.
struct HuffmanTableSpec {
    std::vector<int> counts;  // 16
    std::vector<int> values;
};

Bytes handmade(int width, int height, int restart, const HuffmanTableSpec& dc, const HuffmanTableSpec& ac,
               const Bytes& scan) {
    Bytes b = {0xFF, 0xD8, 0xFF, 0xDB, 0, 67, 0};
    b.insert(b.end(), 64, 1);
    const auto be16 = [&](int v) {
        b.push_back(static_cast<std::uint8_t>(v >> 8));
        b.push_back(static_cast<std::uint8_t>(v));
    };
    b.insert(b.end(), {0xFF, 0xC0, 0, 11, 8});
    be16(height);
    be16(width);
    b.insert(b.end(), {1, 1, 0x11, 0});
    for (int cls = 0; cls < 2; ++cls) {
        const HuffmanTableSpec& t = cls ? ac : dc;
        b.insert(b.end(), {0xFF, 0xC4});
        be16(2 + 17 + static_cast<int>(t.values.size()));
        b.push_back(static_cast<std::uint8_t>(cls << 4));
        for (int c : t.counts) b.push_back(static_cast<std::uint8_t>(c));
        for (int v : t.values) b.push_back(static_cast<std::uint8_t>(v));
    }
    if (restart) {
        b.insert(b.end(), {0xFF, 0xDD, 0, 4});
        be16(restart);
    }
    b.insert(b.end(), {0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0});
    b.insert(b.end(), scan.begin(), scan.end());
    b.insert(b.end(), {0xFF, 0xD9});
    return b;
}

// Writes codes MSB first with byte stuffing; pads with ones at a restart and at the end.
struct ScanWriter {
    Bytes out;
    std::uint32_t acc = 0;
    int held = 0;
    void put(std::uint32_t value, int length) {
        for (int i = length - 1; i >= 0; --i) {
            acc = acc << 1 | ((value >> i) & 1);
            if (++held == 8) {
                out.push_back(static_cast<std::uint8_t>(acc));
                if (acc == 0xFF) out.push_back(0);
                acc = 0;
                held = 0;
            }
        }
    }
    void pad() {
        if (held) put(0x7F, 8 - held);
    }
    void restart(int m) {
        pad();
        out.push_back(0xFF);
        out.push_back(static_cast<std::uint8_t>(0xD0 + (m & 7)));
    }
    Bytes finish() {
        pad();
        return out;
    }
};

// The hand-made tables: DC sizes 0-15 as 5-bit codes; AC symbols 0-127 as
// 8-bit codes, 128-255 (runs of 8 or more, the zero run among them) as
// 12-bit codes, past the lookup's 9 bits.
const HuffmanTableSpec kDc{{0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                           {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}};
HuffmanTableSpec ac_table() {
    HuffmanTableSpec t{{0, 0, 0, 0, 0, 0, 0, 128, 0, 0, 0, 128, 0, 0, 0, 0}, {}};
    for (int v = 0; v < 256; ++v) t.values.push_back(v);
    return t;
}

void dc(ScanWriter& w, int size, std::uint32_t bits) {
    w.put(static_cast<std::uint32_t>(size), 5);
    w.put(bits, size);
}
void ac(ScanWriter& w, int rs, std::uint32_t bits) {
    if (rs < 128) w.put(static_cast<std::uint32_t>(rs), 8);
    else w.put(static_cast<std::uint32_t>((128 << 4) + rs - 128), 12);
    w.put(bits, rs & 15);
}
}  // namespace

TEST_CASE("jpeg huffman: libjpeg-turbo's coefficients in every layout and awkward size") {
    const int sizes[][2] = {{1, 1}, {1, 77}, {93, 1}, {7, 9}, {8, 8}, {15, 15}, {16, 16}, {17, 17},
                            {15, 17}, {31, 37}, {101, 67}, {33, 16}};
    const int layouts[][3] = {{1, 1, 1}, {3, 1, 1}, {3, 2, 1}, {3, 2, 2}};  // gray, 4:4:4, 4:2:2, 4:2:0
    unsigned seed = 1;
    for (const auto& l : layouts)
        for (const auto& s : sizes)
            for (int quality : {10, 75, 100}) {
                CAPTURE(l[0]);
                CAPTURE(l[1] * 10 + l[2]);
                CAPTURE(s[0]);
                CAPTURE(s[1]);
                CAPTURE(quality);
                const ImageU8 img = quality == 100 ? test::random_image(s[0], s[1], l[0], ++seed)
                                                   : test::photo_like_image(s[0], s[1], l[0], ++seed);
                Encoding e;
                e.quality = quality;
                e.h = l[1];
                e.v = l[2];
                e.optimize = seed % 2 == 0;
                check_exact(encode(img, e), s[0], s[1]);
            }
}

TEST_CASE("jpeg huffman: qualities 10 to 100, standard and optimized tables") {
    for (int quality = 10; quality <= 100; quality += 15)
        for (bool optimize : {false, true})
            for (int h : {1, 2}) {
                CAPTURE(quality);
                CAPTURE(optimize);
                CAPTURE(h);
                const ImageU8 img = test::photo_like_image(211, 97, 3, static_cast<unsigned>(quality));
                Encoding e;
                e.quality = quality;
                e.optimize = optimize;
                e.h = e.v = h;
                check_exact(encode(img, e), 211, 97);
            }
    // Pure noise at quality 100: long codes (past the lookup's 9 bits) and the largest sizes.
    const ImageU8 noise = test::random_image(64, 48, 3, 99);
    Encoding e;
    e.quality = 100;
    check_exact(encode(noise, e), 64, 48);
    e.optimize = true;
    check_exact(encode(noise, e), 64, 48);
}

TEST_CASE("jpeg huffman: restart intervals, down to one MCU, and restarts by rows") {
    for (int layout : {0, 1, 2})
        for (int mcus : {1, 2, 3, 7, 64}) {
            CAPTURE(layout);
            CAPTURE(mcus);
            const ImageU8 img = test::photo_like_image(131, 67, layout == 0 ? 1 : 3, static_cast<unsigned>(mcus));
            Encoding e;
            e.restart_mcus = mcus;
            e.h = e.v = layout == 2 ? 2 : 1;
            e.optimize = mcus % 2 == 1;
            check_exact(encode(img, e), 131, 67);
        }
    Encoding rows;
    rows.restart_rows = 1;
    rows.h = rows.v = 2;
    check_exact(encode(test::photo_like_image(300, 90, 3, 9), rows), 300, 90);
    // An interval as large as the image, and one larger: no marker in the scan.
    Encoding whole;
    whole.restart_mcus = 40;  // 40 x 40 gray: 25 MCUs
    check_exact(encode(test::photo_like_image(40, 40, 1, 3), whole), 40, 40);
    whole.restart_mcus = 25;
    check_exact(encode(test::photo_like_image(40, 40, 1, 3), whole), 40, 40);
}

TEST_CASE("jpeg huffman: photos of a few megapixels") {
    const int sizes[][2] = {{2048, 1536}, {1201, 1999}};
    int round = 0;
    for (const auto& s : sizes) {
        ++round;
        const ImageU8 img = test::photo_like_image(s[0], s[1], 3, static_cast<unsigned>(round));
        Encoding e;
        e.quality = round == 1 ? 85 : 95;
        e.h = 2;
        e.v = round == 1 ? 2 : 1;
        e.restart_mcus = round == 2 ? 0 : 100;
        const Bytes bytes = encode(img, e);
        const std::vector<std::int16_t> expected = reference(bytes, s[0], s[1]);
        for (std::uint32_t size : {32u, huffman::kSubsequenceBits}) {
            CAPTURE(size);
            const JpegHuffmanResult r = decode_jpeg_huffman_cpu(bytes.data(), bytes.size(), size);
            REQUIRE(r.taken);
            CHECK(mismatch(expected, r.blocks) == "");
        }
    }
}

TEST_CASE("jpeg huffman: files imgpar writes, the repository's photo and what is left to libjpeg-turbo") {
    if (!jpeg_codec_available()) return;
    for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420}) {
        const ImageU8 img = test::photo_like_image(333, 211, 3, 4);
        check_exact(jpeg_encode(img.view(), 88, chroma), 333, 211);
    }
    const std::string text = test::read_bytes(test::sample_path("rocket.jpg"));
    const Bytes rocket(text.begin(), text.end());
    const JpegHuffmanPlan plan = plan_jpeg_huffman(rocket.data(), rocket.size());
    REQUIRE(plan.taken);
    check_exact(rocket, plan.width, plan.height);
    // Progressive, CMYK: not taken (the walk does not take them either).
    for (const char* name : {"progressive.jpg", "cmyk.jpg"}) {
        CAPTURE(name);
        const std::string t = test::read_bytes(test::data_path(name));
        const Bytes b(t.begin(), t.end());
        const JpegHuffmanResult r = decode_jpeg_huffman_cpu(b.data(), b.size());
        CHECK_FALSE(r.taken);
        CHECK_FALSE(r.reason.empty());
    }
    // 4:4:0 and 4:1:1: clean scans, but layouts JpegCoefficients' decoder does not take.
    const ImageU8 img = test::photo_like_image(50, 40, 3, 5);
    for (int hv : {12, 41}) {
        Encoding e;
        e.h = hv / 10;
        e.v = hv % 10;
        const Bytes b = encode(img, e);
        CHECK(jpeg_scan_is_clean(b.data(), b.size()));
        CHECK_FALSE(decode_jpeg_huffman_cpu(b.data(), b.size()).taken);
    }
    // A header claiming 60000 x 60000 over a small scan: not taken before any
    // output is sized (the walk refuses it too).
    Bytes huge = jpeg_encode(test::photo_like_image(64, 64, 3, 6).view(), 90);
    for (std::size_t i = 2; i + 8 < huge.size(); ++i)
        if (huge[i] == 0xFF && huge[i + 1] == 0xC0) {
            huge[i + 5] = huge[i + 7] = 0xEA;  // 0xEA60 = 60000
            huge[i + 6] = huge[i + 8] = 0x60;
            break;
        }
    CHECK_FALSE(jpeg_scan_is_clean(huge.data(), huge.size()));
    const JpegHuffmanPlan huge_plan = plan_jpeg_huffman(huge.data(), huge.size());
    CHECK_FALSE(huge_plan.taken);
    CHECK(huge_plan.reason.find("too short") != std::string::npos);
    // Every prefix of a file: not taken, never a read past its end (the sanitizer builds see that).
    const Bytes whole = jpeg_encode(img.view(), 90);
    for (std::size_t n = 0; n < whole.size(); ++n) CHECK_FALSE(decode_jpeg_huffman_cpu(whole.data(), n, 32).taken);
    CHECK_FALSE(decode_jpeg_huffman_cpu(nullptr, 0).taken);
}

TEST_CASE("jpeg huffman: damaged scans are refused exactly when the walk refuses them") {
    struct Seed {
        Bytes bytes;
        int width, height;
    };
    std::vector<Seed> seeds;
    for (int k = 0; k < 6; ++k) {
        const int w = 40 + 17 * k, h = 30 + 11 * k;
        const ImageU8 img = test::photo_like_image(w, h, k == 5 ? 1 : 3, static_cast<unsigned>(k + 20));
        Encoding e;
        e.quality = 60 + 7 * k;
        e.h = e.v = k % 3 == 2 ? 2 : 1;
        e.optimize = k % 2 == 1;
        e.restart_mcus = k < 3 ? 0 : k;  // the last three with restart intervals
        seeds.push_back({encode(img, e), w, h});
    }
    std::mt19937 rng(53);
    int taken = 0, refused = 0;
    for (int trial = 0; trial < 1500; ++trial) {
        const Seed& s = seeds[static_cast<std::size_t>(trial) % seeds.size()];
        const Bytes damaged = test::damage_scan(s.bytes, rng);
        const std::uint32_t size = trial % 3 == 0 ? 32 : trial % 3 == 1 ? 72 : huffman::kSubsequenceBits;
        CAPTURE(trial);
        check_damaged(damaged, s.width, s.height, size);
        (jpeg_scan_is_clean(damaged.data(), damaged.size()) ? taken : refused) += 1;
    }
    // Both outcomes are common: a changed byte often still decodes (to other coefficients).
    CHECK(taken > 100);
    CHECK(refused > 300);
    // Each cut point of a scan, closed by EOI.
    const Seed& s = seeds[4];
    for (std::size_t keep = test::scan_start(s.bytes); keep + 2 < s.bytes.size(); keep += 3) {
        CAPTURE(keep);
        check_damaged(test::cut_with_eoi(s.bytes, keep), s.width, s.height, 48);
    }
}

TEST_CASE("jpeg huffman: codes no encoder writes, at the edges of a block, as the walk and libjpeg-turbo read them") {
    const HuffmanTableSpec act = ac_table();
    struct Case {
        const char* name;
        bool clean;
        void (*write)(ScanWriter&);
    };
    const Case cases[] = {
        {"a coefficient, then end of block", true, [](ScanWriter& w) { dc(w, 3, 5); ac(w, 0x01, 1); ac(w, 0x00, 0); }},
        {"three zero runs, then end of block", true,
         [](ScanWriter& w) { dc(w, 0, 0); for (int i = 0; i < 3; ++i) ac(w, 0xF0, 0); ac(w, 0x00, 0); }},
        {"a zero run to the block's end", false,
         [](ScanWriter& w) { dc(w, 0, 0); ac(w, 0xE1, 1); for (int i = 0; i < 3; ++i) ac(w, 0xF0, 0); ac(w, 0x00, 0); }},
        {"the last coefficient ends the block", true,
         [](ScanWriter& w) { dc(w, 1, 1); ac(w, 0xE1, 0); ac(w, 0xF0, 0); ac(w, 0xF0, 0); ac(w, 0xF2, 2); }},
        {"a coefficient past the block", false,
         [](ScanWriter& w) { dc(w, 1, 1); ac(w, 0xE1, 0); ac(w, 0xF0, 0); ac(w, 0xF0, 0); ac(w, 0x01, 1); ac(w, 0xF1, 1); }},
        {"a run with size 0 ends the block", true, [](ScanWriter& w) { dc(w, 2, 0); ac(w, 0x50, 0); }},
        {"DC size 11", true, [](ScanWriter& w) { dc(w, 11, 0x7FF); ac(w, 0x0A, 0x3FF); ac(w, 0x00, 0); }},
        {"DC size 12", false, [](ScanWriter& w) { dc(w, 12, 0x800); ac(w, 0x00, 0); }},
        {"AC size 11", false, [](ScanWriter& w) { dc(w, 0, 0); ac(w, 0x0B, 1); ac(w, 0x00, 0); }},
    };
    for (const Case& c : cases) {
        const std::string name = c.name;
        CAPTURE(name);
        // Two blocks of the case, then again after a restart: 32 x 8, an interval of 2 MCUs.
        ScanWriter w;
        for (int block = 0; block < 4; ++block) {
            if (block == 2) w.restart(0);
            c.write(w);
        }
        const Bytes file = handmade(32, 8, 2, kDc, act, w.finish());
        CHECK(jpeg_scan_is_clean(file.data(), file.size()) == c.clean);
        for (std::uint32_t size : kSizes) {
            CAPTURE(size);
            check_damaged(file, 32, 8, size);
        }
    }
}

TEST_CASE("jpeg huffman: a scan whose decoders never fall into step is left to libjpeg-turbo") {
    // Every symbol 8 bits (DC: an 8-bit code of size 0; AC: a 7-bit code of
    // size 1 and its bit) and every block 64 symbols: a decoder that starts a
    // few symbols off stays that many off, so phase 2's walks never agree.
    const HuffmanTableSpec dc8{{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, {0}};
    const HuffmanTableSpec ac7{{0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0x01, 0x00}};
    ScanWriter w;
    for (int block = 0; block < 256; ++block) {
        w.put(0, 8);
        for (int k = 1; k < 64; ++k) w.put(0, 8);  // code 0000000, then a 0 bit: -1
    }
    const Bytes file = handmade(2048, 8, 0, dc8, ac7, w.finish());
    REQUIRE(jpeg_scan_is_clean(file.data(), file.size()));
    // Whole: one decoder, no walks; libjpeg-turbo's coefficients.
    check_damaged(file, 2048, 8, 1u << 24);
    // Cut in 32-bit pieces, 4096 decoders: walks that each read their start
    // before any other writes (the GPU's slowest order) settle kMaxWalk
    // subsequences a pass at best, too few: not taken, left to libjpeg-turbo.
    const JpegHuffmanResult r = decode_jpeg_huffman_cpu(file.data(), file.size(), 32, JpegHuffmanWalkOrder::LastToFirst);
    CHECK_FALSE(r.taken);
    CHECK(r.sync_passes == huffman::kMaxPasses);
    CHECK(r.reason.find("step") != std::string::npos);
    // Walks that hand on their results settle them all, as a serial decode does.
    check_damaged(file, 2048, 8, 32);
    CHECK(decode_jpeg_huffman_cpu(file.data(), file.size(), 32).sync_passes == 2);
    // In 1024-bit pieces, 128 decoders: few enough for the slowest order too.
    const JpegHuffmanResult fewer = decode_jpeg_huffman_cpu(file.data(), file.size(), 1024, JpegHuffmanWalkOrder::LastToFirst);
    CHECK(fewer.taken);
    CHECK(mismatch(reference(file, 2048, 8), fewer.blocks) == "");
}

TEST_CASE("jpeg huffman: walks in the GPU's slowest order settle photos in two or three passes") {
    for (int layout : {0, 1, 2}) {
        CAPTURE(layout);
        const ImageU8 img = test::photo_like_image(517, 389, layout == 0 ? 1 : 3, static_cast<unsigned>(layout + 40));
        Encoding e;
        e.quality = 70 + 10 * layout;
        e.h = e.v = layout == 2 ? 2 : 1;
        e.restart_mcus = layout == 1 ? 9 : 0;
        const Bytes bytes = encode(img, e);
        const std::vector<std::int16_t> expected = reference(bytes, 517, 389);
        for (std::uint32_t size : {128u, huffman::kSubsequenceBits, 1024u}) {
            CAPTURE(size);
            const JpegHuffmanResult r =
                decode_jpeg_huffman_cpu(bytes.data(), bytes.size(), size, JpegHuffmanWalkOrder::LastToFirst);
            REQUIRE(r.taken);
            CHECK(r.sync_passes <= 3);
            CHECK(mismatch(expected, r.blocks) == "");
        }
    }
}

TEST_CASE("jpeg huffman: tables libjpeg-turbo refuses are refused by both readers") {
    // An all-ones code (libjpeg-turbo: "no code is allowed to be all ones"),
    // and a DC table with a symbol over 15: libjpeg-turbo refuses the file.
    const HuffmanTableSpec all_ones{{2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 1}};
    const HuffmanTableSpec dc_symbol_16{{0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
    ScanWriter w;
    dc(w, 0, 0);
    ac(w, 0x00, 0);
    const Bytes scan = w.finish();
    const Bytes good = handmade(8, 8, 0, kDc, ac_table(), scan);
    CHECK(jpeg_scan_is_clean(good.data(), good.size()));
    check_exact(good, 8, 8);
    ScanWriter ones;  // DC code "0" (size 0), then the AC table's end of block
    ones.put(0, 1);
    ac(ones, 0x00, 0);
    for (const Bytes& bad : {handmade(8, 8, 0, all_ones, ac_table(), ones.finish()),
                             handmade(8, 8, 0, dc_symbol_16, ac_table(), scan)}) {
        std::vector<std::string> warnings;
        CHECK_THROWS(jpeg_read_coefficients("bad.jpg", bad, 8, 8, warnings));
        CHECK_FALSE(jpeg_scan_is_clean(bad.data(), bad.size()));
        CHECK_FALSE(decode_jpeg_huffman_cpu(bad.data(), bad.size()).taken);
    }
}

#else
TEST_CASE("jpeg huffman: libjpeg-turbo's coefficients (not checked: this build has no libjpeg-turbo)") {}
#endif
