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
#include "src/io/jpeg_scan.hpp"
#include "tests/support/jpeg_scan_damage.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;

#if IMGPAR_TEST_LIBJPEG
namespace {

using Bytes = std::vector<std::uint8_t>;

// The subsequence sizes every file is decoded with: tiny ones make decoders
// start inside codes and walk far to fall into step; the GPU's; one larger
// than any interval here (a decoder an interval).
constexpr std::uint32_t kSizes[] = {32, 40, 96, huffman::kSubsequenceBits, 1u << 24};

struct Encoding {
    int quality = 90;
    int h = 1, v = 1;   // luma's sampling factors (chroma 1 x 1); ignored for gray
    bool optimize = false;
    int restart_mcus = 0, restart_rows = 0;
};

Bytes encode(const ImageU8& img, const Encoding& e) {
    const ConstViewU8 view = img.view();
    const bool gray = img.channels() == 1;
    return test::compress_to_memory(
        img.width(), img.height(), img.channels(), gray ? JCS_GRAYSCALE : JCS_RGB,
        [&](jpeg_compress_struct& c) {
            jpeg_set_quality(&c, e.quality, TRUE);
            c.optimize_coding = e.optimize ? TRUE : FALSE;
            if (!gray) {
                c.comp_info[0].h_samp_factor = e.h;
                c.comp_info[0].v_samp_factor = e.v;
            }
            c.restart_interval = static_cast<unsigned>(e.restart_mcus);
            c.restart_in_rows = e.restart_rows;
        },
        [&](jpeg_compress_struct& c) {
            jpeg_start_compress(&c, TRUE);
            test::write_rows(c, view.data, view.stride);
        });
}

// libjpeg-turbo's coefficients of a file it reads with no warning.
std::vector<std::int16_t> reference(const Bytes& bytes, int width, int height) {
    std::vector<std::string> warnings;
    const JpegCoefficients k = jpeg_read_coefficients("case.jpg", bytes, width, height, warnings);
    CHECK(warnings.empty());
    return test::all_blocks(k);
}

// The first coefficient where the decoders differ: "block b, index i: libjpeg-turbo x, parallel y".
std::string mismatch(const std::vector<std::int16_t>& expected, const std::vector<std::int16_t>& actual) {
    if (expected.size() != actual.size())
        return "blocks: libjpeg-turbo " + std::to_string(expected.size() / 64) + ", parallel " +
               std::to_string(actual.size() / 64);
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (expected[i] != actual[i])
            return "block " + std::to_string(i / 64) + ", index " + std::to_string(i % 64) + ": libjpeg-turbo " +
                   std::to_string(expected[i]) + ", parallel " + std::to_string(actual[i]);
    return "";
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

#else
TEST_CASE("jpeg huffman: libjpeg-turbo's coefficients (not checked: this build has no libjpeg-turbo)") {}
#endif
