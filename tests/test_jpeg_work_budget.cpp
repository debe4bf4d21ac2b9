// The bound on the work a JPEG's scans may ask for (src/io/jpeg_work_budget.hpp):
// scan bombs are refused from their markers before anything is decoded, or
// by libjpeg-turbo's count of the scans it reads where the marker walk
// stops early; progressive JPEGs as libjpeg-turbo encodes them, of every
// size, flat or photo-like, decode as before.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/io/jpeg_check.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_work_budget.hpp"
#include "src/io/load.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/jpeg_scan_bomb.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;
using test::Bytes;
using test::has;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What decoding `bytes` as `name` throws ("" when it decodes), and how long it took.
std::string decode_failure(const std::string& name, const Bytes& bytes, double& seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    std::string what;
    try {
        (void)decode_image(name, bytes, LoadOptions{});
    } catch (const Error& e) {
        what = e.what();
    }
    seconds = seconds_since(t0);
    return what;
}

JpegScanWork scans_of(std::uint64_t image_blocks, const std::vector<std::uint64_t>& scans) {
    JpegScanWork w;
    w.progressive = true;
    w.image_blocks = image_blocks;
    for (std::uint64_t blocks : scans) w.add_scan(blocks);
    return w;
}

}  // namespace

TEST_CASE("jpeg work budget: the limit grows with the frame's blocks and the file's bytes; the message says why") {
    // The file: 883 scans over 1 Mi blocks each in 846 KiB.
    CHECK(jpeg_work_limit(1048576, 866304) == 16 * 1048576 + 8 * 866304);
    const JpegScanWork bomb = scans_of(1048576, std::vector<std::uint64_t>(883, 1048576));
    CHECK(bomb.scan_blocks == 925892608);
    CHECK(jpeg_work_refusal(bomb, 866304) ==
          "progressive JPEG with 883 scans over 1,048,576 blocks each (925,892,608 block decodes), more decoding work "
          "than a 846.0 KiB file can hold: at most 23,707,648, 16 passes over its 1,048,576 blocks and 8 blocks for "
          "each byte of the file (the progressive JPEGs encoders write pass over each block about 6 times)");
    // 16 passes over every block are allowed however small the file; each
    // byte of it allows 8 blocks more.
    CHECK(jpeg_work_refusal(scans_of(1000, std::vector<std::uint64_t>(16, 1000)), 0).empty());
    const JpegScanWork seventeen = scans_of(1000, std::vector<std::uint64_t>(17, 1000));
    CHECK_FALSE(jpeg_work_refusal(seventeen, 124).empty());
    CHECK(jpeg_work_refusal(seventeen, 125).empty());
    // Scans of different sizes (an interleaved DC scan of 9 blocks, then luma
    // and chroma AC scans), as the decoder counts those it has read so far.
    std::vector<std::uint64_t> sizes = {9};
    for (int k = 0; k < 10; ++k) sizes.insert(sizes.end(), {4, 1, 1});
    CHECK(has(jpeg_work_refusal(scans_of(4, sizes), 0, false),
              "progressive JPEG whose first 31 scans pass over 1 to 9 blocks (69 block decodes)"));
    // Counts that would overflow saturate.
    CHECK(jpeg_work_limit(UINT64_MAX / 2, UINT64_MAX / 2) == UINT64_MAX);
}

TEST_CASE("jpeg work budget: a hand-built 883-scan bomb is refused from its markers, before decoding") {
    const Bytes bomb = test::jpeg_scan_bomb(4096);
    INFO("bomb of ", bomb.size(), " bytes");
    CHECK(bomb.size() < 80000);
    const JpegCheck c = check_jpeg(bomb.data(), bomb.size());
    CHECK(c.work.scans == 883);
    CHECK(c.work.image_blocks == 262144);
    CHECK(c.work.scan_blocks == 883ull * 262144);
    CHECK(has(c.problem, "progressive JPEG with 883 scans over 262,144 blocks each"));
    // Its header is a plain 4096x4096 gray image (imgpar info describes it).
    LoadOptions header_only;
    header_only.images = 0;
    CHECK(read_image_header("bomb.jpg", bomb, header_only).width == 4096);
    // Decoding it (libjpeg-turbo, or stb where the build has no libjpeg-turbo)
    // is refused at once: it took libjpeg-turbo seconds of passes.
    double seconds = 0;
    const std::string error = decode_failure("bomb.jpg", bomb, seconds);
    INFO(error);
    CHECK(has(error, "bomb.jpg: "));
    CHECK(has(error, "progressive JPEG with 883 scans over 262,144 blocks each (231,473,152 block decodes), more "
                     "decoding work than a "));
    CHECK(seconds < 1.0);
}

TEST_CASE("jpeg work budget: a bomb the marker walk cannot follow is stopped by libjpeg-turbo's count of the scans it reads") {
    if (!jpeg_codec_available()) return;  // stb refuses its progression
    const Bytes bomb = test::jpeg_scan_bomb(4096, test::ScanBomb::BogusProgression);
    const JpegCheck c = check_jpeg(bomb.data(), bomb.size());
    CHECK(has(c.problem, "a refinement scan of component 1 comes before its first pass"));
    CHECK(c.work.scans == 1);
    double seconds = 0;
    const std::string error = decode_failure("bomb.jpg", bomb, seconds);
    INFO(error);
    CHECK(has(error, "bomb.jpg: progressive JPEG whose first "));
    CHECK(has(error, " scans pass over 262,144 blocks each"));
    // Stopped after the budget's ~20 passes, not 883.
    CHECK(seconds < 2.0);
}

#if IMGPAR_TEST_LIBJPEG
namespace {

// `image` as libjpeg-turbo encodes it progressively: its own progression
// (jpeg_simple_progression) unless `script` is given.
Bytes progressive_jpeg(const ImageU8& image, bool subsampled, const std::vector<jpeg_scan_info>& script = {}) {
    const int channels = image.channels();
    return test::compress_to_memory(
        image.width(), image.height(), channels, channels == 1 ? JCS_GRAYSCALE : JCS_RGB,
        [&](jpeg_compress_struct& c) {
            jpeg_set_quality(&c, 90, TRUE);
            if (channels == 3) c.comp_info[0].h_samp_factor = c.comp_info[0].v_samp_factor = subsampled ? 2 : 1;
            if (script.empty()) {
                jpeg_simple_progression(&c);
            } else {
                c.scan_info = script.data();
                c.num_scans = static_cast<int>(script.size());
            }
        },
        [&](jpeg_compress_struct& c) {
            jpeg_start_compress(&c, TRUE);
            test::write_rows(c, image.data(), image.row_bytes());
        });
}

jpeg_scan_info gray_scan(int ss, int se, int ah, int al) {
    jpeg_scan_info s{};
    s.comps_in_scan = 1;
    s.component_index[0] = 0;
    s.Ss = ss;
    s.Se = se;
    s.Ah = ah;
    s.Al = al;
    return s;
}

// Decodes `jpeg` (which must pass the walk whole) and says how many passes
// over its blocks its scans make.
double passes_of_decodable(const std::string& name, const Bytes& jpeg) {
    const JpegCheck c = check_jpeg(jpeg.data(), jpeg.size());
    INFO(name, ": ", c.problem);
    CHECK(c.problem.empty());
    CHECK(c.progressive);
    const LoadedImage loaded = decode_image(name, jpeg, LoadOptions{});
    CHECK(loaded.warnings.empty());
    return static_cast<double>(c.work.scan_blocks) / static_cast<double>(c.work.image_blocks);
}

}  // namespace

TEST_CASE("jpeg work budget: libjpeg-turbo's progressive JPEGs of every size decode, flat or photo-like") {
    struct Case {
        int width, height, channels;
        bool subsampled, flat;
    };
    // Flat images have the fewest bytes a block: the budget's passes alone
    // must hold them. Sizes from one block to 16 Mi pixels.
    const Case cases[] = {{1, 1, 1, false, false},      {8, 8, 3, true, false},      {17, 9, 3, false, true},
                          {640, 480, 3, true, false},   {1000, 750, 1, false, false}, {1600, 1200, 3, false, false},
                          {4096, 4096, 1, false, true}, {4096, 4096, 3, true, true},  {2048, 2048, 3, false, true}};
    for (const Case& k : cases) {
        CAPTURE(k.width);
        CAPTURE(k.height);
        CAPTURE(k.channels);
        const ImageU8 image = k.flat ? test::constant_image(k.width, k.height, k.channels, 77)
                                     : test::photo_like_image(k.width, k.height, k.channels);
        const Bytes jpeg = progressive_jpeg(image, k.subsampled);
        // libjpeg's progression passes over each block at most 6 times (a
        // tiny image's interleaved DC scans count its MCUs' padding too).
        CHECK(passes_of_decodable("p.jpg", jpeg) <= (k.width < 64 ? 7.0 : 6.0));
    }
}

TEST_CASE("jpeg work budget: a photo in more scans than the passes allow is held by its bytes") {
    // DC in two passes, AC in five spectral bands of three passes each (a
    // first at approximation 2, two refinements): 17 passes over each block,
    // each carrying the photo's detail.
    std::vector<jpeg_scan_info> script = {gray_scan(0, 0, 0, 1)};
    const int bands[][2] = {{1, 5}, {6, 14}, {15, 27}, {28, 42}, {43, 63}};
    for (const auto& b : bands) script.push_back(gray_scan(b[0], b[1], 0, 2));
    script.push_back(gray_scan(0, 0, 1, 0));
    for (int al = 1; al >= 0; --al)
        for (const auto& b : bands) script.push_back(gray_scan(b[0], b[1], al + 1, al));
    const Bytes jpeg = progressive_jpeg(test::photo_like_image(1024, 768, 1), false, script);
    CHECK(passes_of_decodable("many_scans.jpg", jpeg) == 17.0);
}

TEST_CASE("jpeg work budget: libjpeg-turbo's own encode of 694 scans over a flat image is refused") {
    // Every AC coefficient alone, at each of the 11 approximations libjpeg's
    // encoder allows (10 to 0): a valid progression no encoder's defaults write.
    std::vector<jpeg_scan_info> script = {gray_scan(0, 0, 0, 0)};
    for (int k = 1; k < 64; ++k) {
        script.push_back(gray_scan(k, k, 0, 10));
        for (int ah = 10; ah >= 1; --ah) script.push_back(gray_scan(k, k, ah, ah - 1));
    }
    const Bytes jpeg = progressive_jpeg(test::constant_image(512, 512, 1, 77), false, script);
    const JpegCheck c = check_jpeg(jpeg.data(), jpeg.size());
    CHECK(c.work.scans == 694);
    CHECK(has(c.problem, "progressive JPEG with 694 scans over 4,096 blocks each"));
    double seconds = 0;
    CHECK(has(decode_failure("flat.jpg", jpeg, seconds), "flat.jpg: progressive JPEG with 694 scans"));
}
#endif
