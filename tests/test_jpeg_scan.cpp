// The walk through a JPEG's entropy-coded data that decides whether the GPU's
// hardware decoder may take a file: clean scans pass; a scan cut short (and
// closed by EOI, so its end looks whole), corrupt codes, misplaced restart
// markers and stray bytes do not. Its verdict is checked against
// libjpeg-turbo's own: whatever the walk passes, libjpeg-turbo decodes with
// no warning.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_scan.hpp"
#include "src/io/load.hpp"
#include "tests/support/jpeg_scan_damage.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;

namespace {

bool clean(const std::vector<std::uint8_t>& bytes) { return jpeg_scan_is_clean(bytes.data(), bytes.size()); }

// Whether imgpar's CPU decoder takes the file whole, with no warning.
bool decodes_cleanly(const std::vector<std::uint8_t>& bytes) {
    try {
        const LoadedImage img = decode_image("case.jpg", bytes, LoadOptions{});
        return img.warnings.empty();
    } catch (const Error&) {
        return false;
    }
}

using test::cut_with_eoi;
using test::scan_start;

#if IMGPAR_TEST_LIBJPEG
// An RGB image through libjpeg-turbo with a restart interval of `rows`
// MCU rows or `mcus` MCUs, and the given sampling (4:2:0 when h2v2).
std::vector<std::uint8_t> encode_with_restarts(const ImageU8& img, int mcus, int rows, bool h2v2) {
    const ConstViewU8 v = img.view();
    return test::compress_to_memory(
        img.width(), img.height(), 3, JCS_RGB,
        [&](jpeg_compress_struct& c) {
            jpeg_set_quality(&c, 90, TRUE);
            c.comp_info[0].h_samp_factor = h2v2 ? 2 : 1;
            c.comp_info[0].v_samp_factor = h2v2 ? 2 : 1;
            c.restart_interval = static_cast<unsigned>(mcus);
            c.restart_in_rows = rows;
        },
        [&](jpeg_compress_struct& c) {
            jpeg_start_compress(&c, TRUE);
            test::write_rows(c, v.data, v.stride);
        });
}
#endif

}  // namespace

TEST_CASE("jpeg scan: the files imgpar and cameras write are clean, in every layout and size") {
    if (!jpeg_codec_available()) return;
    const int sizes[][2] = {{1, 1}, {7, 9}, {16, 16}, {17, 33}, {1000, 1}, {1, 300}, {641, 479}};
    for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420})
        for (const auto& s : sizes)
            for (int quality : {50, 92, 100}) {
                CAPTURE(s[0]);
                CAPTURE(s[1]);
                CAPTURE(quality);
                const ImageU8 img = quality == 100 ? test::random_image(s[0], s[1], 3, 3u)
                                                   : test::photo_like_image(s[0], s[1], 3, 4u);
                CHECK(clean(jpeg_encode(img.view(), quality, chroma)));
            }
    const ImageU8 gray = test::photo_like_image(123, 45, 1, 5);
    CHECK(clean(jpeg_encode(gray.view(), 90)));
    for (const char* sample : {"rocket.jpg"}) {
        const std::string text = test::read_bytes(test::sample_path(sample));
        CHECK(clean(std::vector<std::uint8_t>(text.begin(), text.end())));
    }
}

TEST_CASE("jpeg scan: a scan cut anywhere and closed by EOI is not clean, as libjpeg-turbo finds") {
    if (!jpeg_codec_available()) return;
    for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S420}) {
        const ImageU8 img = test::photo_like_image(200, 150, 3, 6);
        const std::vector<std::uint8_t> whole = jpeg_encode(img.view(), 90, chroma);
        const std::size_t start = scan_start(whole);
        REQUIRE(start > 0);
        int cuts = 0;
        // Every cut point in the scan's data, but for the last two bytes
        // (the EOI marker itself).
        for (std::size_t keep = start; keep + 2 < whole.size(); keep += 1 + (keep % 7)) {
            const std::vector<std::uint8_t> cut = cut_with_eoi(whole, keep);
            CAPTURE(keep);
            CHECK_FALSE(clean(cut));
            CHECK_FALSE(decodes_cleanly(cut));
            ++cuts;
        }
        CHECK(cuts > 100);
        // Cut without an EOI, and bytes between the scan and its EOI.
        CHECK_FALSE(clean(std::vector<std::uint8_t>(whole.begin(), whole.end() - 2)));
        std::vector<std::uint8_t> stray = whole;
        stray.insert(stray.end() - 2, {0x12, 0x34});
        CHECK_FALSE(clean(stray));
        // Trailing bytes after the EOI are ignored, as every decoder ignores them.
        std::vector<std::uint8_t> trailing = whole;
        trailing.insert(trailing.end(), {0, 0, 0});
        CHECK(clean(trailing));
    }
}

TEST_CASE("jpeg scan: whatever the walk passes, libjpeg-turbo decodes with no warning") {
    if (!jpeg_codec_available()) return;
    const ImageU8 img = test::photo_like_image(96, 64, 3, 7);
    const std::vector<std::uint8_t> whole = jpeg_encode(img.view(), 85, ChromaSubsampling::S420);
    const std::size_t start = scan_start(whole);
    REQUIRE(start > 0);
    std::uint32_t state = 12345;
    int passed = 0, refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<std::uint8_t> bytes = whole;
        state = state * 1664525u + 1013904223u;
        const std::size_t at = start + (state >> 8) % (whole.size() - 2 - start);
        state = state * 1664525u + 1013904223u;
        bytes[at] = static_cast<std::uint8_t>(state >> 24);
        if (clean(bytes)) {
            CAPTURE(at);
            CHECK(decodes_cleanly(bytes));
            ++passed;
        } else {
            ++refused;
        }
    }
    // A changed byte of scan data usually still decodes (to other pixels);
    // many break a code, a run or the block count.
    CHECK(passed > 100);
    CHECK(refused > 100);
}

TEST_CASE("jpeg scan: restart markers must come in order, where the interval ends") {
#if IMGPAR_TEST_LIBJPEG
    for (bool h2v2 : {false, true})
        for (int mcus : {1, 3, 7}) {
            CAPTURE(h2v2);
            CAPTURE(mcus);
            const ImageU8 img = test::photo_like_image(131, 67, 3, 8);
            const std::vector<std::uint8_t> bytes = encode_with_restarts(img, mcus, 0, h2v2);
            CHECK(clean(bytes));
            CHECK(decodes_cleanly(bytes));
            // Renumber one restart marker: out of order.
            std::vector<std::uint8_t> swapped = bytes;
            for (std::size_t i = scan_start(bytes); i + 1 < swapped.size(); ++i)
                if (swapped[i] == 0xFF && swapped[i + 1] >= 0xD2 && swapped[i + 1] <= 0xD7) {
                    swapped[i + 1] = static_cast<std::uint8_t>(0xD0 + ((swapped[i + 1] - 0xD0 + 3) & 7));
                    break;
                }
            CHECK_FALSE(clean(swapped));
            // Cut inside an interval: the next marker comes too early.
            std::vector<std::uint8_t> cut = bytes;
            for (std::size_t i = scan_start(bytes) + 4; i + 1 < cut.size(); ++i)
                if (cut[i] == 0xFF && cut[i + 1] >= 0xD0 && cut[i + 1] <= 0xD7) {
                    cut.erase(cut.begin() + static_cast<std::ptrdiff_t>(i) - 3, cut.begin() + static_cast<std::ptrdiff_t>(i));
                    break;
                }
            CHECK_FALSE(clean(cut));
            CHECK_FALSE(decodes_cleanly(cut));
        }
    const std::vector<std::uint8_t> rows = encode_with_restarts(test::photo_like_image(300, 90, 3, 9), 0, 1, true);
    CHECK(clean(rows));
#endif
}

TEST_CASE("jpeg scan: what the walk leaves to libjpeg-turbo, and never reads past the end") {
    if (!jpeg_codec_available()) return;
    const ImageU8 img = test::photo_like_image(40, 30, 3, 10);
    const std::vector<std::uint8_t> whole = jpeg_encode(img.view(), 90);
    // Progressive (frame marker changed): not a layout the walk takes.
    std::vector<std::uint8_t> p = whole;
    for (std::size_t i = 2; i + 1 < p.size(); ++i)
        if (p[i] == 0xFF && p[i + 1] == 0xC0) {
            p[i + 1] = 0xC2;
            break;
        }
    CHECK_FALSE(clean(p));
    // Every prefix: false, never a read past its end (the sanitizer builds see that).
    for (std::size_t n = 0; n < whole.size(); ++n) CHECK_FALSE(jpeg_scan_is_clean(whole.data(), n));
    CHECK_FALSE(jpeg_scan_is_clean(nullptr, 0));
}
