// imgpar's PNG encoder: every file it writes decodes to exactly its pixels
// through decoders that are not imgpar's (libpng's simplified API, stb) and
// through imgpar's own, at every compression level, for every channel
// layout and awkward size, across deflate segment boundaries; the bytes do
// not depend on the thread count.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "src/error.hpp"
#include "src/io/load.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/save.hpp"
#include "tests/support/png_reference.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// The encoder cuts the filtered image (one filter byte + the row, per row)
// into segments of `segment_bytes` bytes' worth of whole rows.
int rows_per_segment(int width, int channels, std::size_t segment_bytes = kDefaultPngSegmentBytes) {
    return static_cast<int>(segment_bytes / (static_cast<std::size_t>(width) * channels + 1));
}

std::vector<std::uint8_t> encode_png(ConstViewU8 image, int compression, int threads = 0,
                                     std::size_t segment_bytes = kDefaultPngSegmentBytes) {
    PngEncodeOptions options;
    options.compression = compression;
    options.threads = threads;
    options.segment_bytes = segment_bytes;
    if (png_codec_available()) return png_encode(image, options);
    SaveOptions save;  // a build without libpng: stb's encoder behind the same entry point
    save.compression = compression;
    std::vector<std::string> warnings;
    return encode_image(image, ImageFormat::Png, save, warnings);
}

// Decodes `bytes` with every decoder at hand and checks each gives `expected`.
void check_decodes_to(const ImageU8& expected, const std::vector<std::uint8_t>& bytes, const std::string& what) {
    INFO(what);
    const ImageU8 by_stb = test::decode_with_stb(bytes);
    REQUIRE(by_stb.channels() == expected.channels());
    IMGPAR_CHECK_IMAGES_EQUAL(expected, by_stb);
#if IMGPAR_HAVE_LIBPNG
    const ImageU8 by_libpng = test::decode_with_libpng_simplified(bytes, expected.channels());
    REQUIRE(by_libpng.width() == expected.width());
    IMGPAR_CHECK_IMAGES_EQUAL(expected, by_libpng);
#endif
    LoadedImage ours = decode_image("encoded.png", bytes, {});
    CHECK(ours.warnings.empty());
    REQUIRE(ours.image.channels() == expected.channels());
    IMGPAR_CHECK_IMAGES_EQUAL(expected, ours.image);
}

std::string describe(int w, int h, int c, int level) {
    return std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(c) + " at level " + std::to_string(level);
}

}  // namespace

TEST_CASE("PNG encoder: small and awkward sizes, every channel count, every level") {
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 37}, {37, 1}, {2, 2}, {31, 17}, {101, 13}, {13, 101}};
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : sizes)
            for (int level = 0; level <= 9; ++level) {
                // Photo-like content exercises every filter type; random
                // bytes make deflate fall back to stored blocks.
                const ImageU8 img = (w + level) % 2 ? test::photo_like_image(w, h, c, static_cast<unsigned>(level))
                                                    : test::random_image(w, h, c, static_cast<unsigned>(c * 7 + level));
                check_decodes_to(img, encode_png(img.view(), level), describe(w, h, c, level));
            }
}

TEST_CASE("PNG encoder: segment seams, every level: rows narrower and wider than deflate's window") {
    if (!png_codec_available()) return;  // stb's encoder has no segments
    // Small segments put many seams in small images: rows of 1 byte to more
    // than the 32 KiB window, one row or many per segment.
    const std::size_t segment = 20000;
    for (int c = 1; c <= 4; ++c)
        for (int w : {1, 7, 251, 11003}) {
            const int per_segment = std::max(1, rows_per_segment(w, c, segment));
            const int h = std::min(3 * per_segment + 2, 40);
            const ImageU8 img = test::photo_like_image(w, h, c, static_cast<unsigned>(w + c));
            for (int level = 0; level <= 9; ++level)
                check_decodes_to(img, encode_png(img.view(), level, 0, segment),
                                 describe(w, h, c, level) + ", segments of " + std::to_string(segment) + " bytes");
        }
}

TEST_CASE("PNG encoder: images just over one default segment and of several") {
    for (int c = 1; c <= 4; ++c) {
        const int w = 251;  // prime: rows do not divide the segment evenly
        const int per_segment = rows_per_segment(w, c);
        for (int h : {per_segment + 1, 2 * per_segment + 17}) {
            const ImageU8 img = test::photo_like_image(w, h, c, static_cast<unsigned>(c));
            // Every level crosses seams in the test above; here the real
            // segment size at stored, the default and (one layout) level 9.
            std::vector<int> levels = {0, kDefaultPngCompression};
            if (c == 1) levels.push_back(9);
            for (int level : levels) check_decodes_to(img, encode_png(img.view(), level), describe(w, h, c, level));
        }
    }
}

TEST_CASE("PNG encoder: the bytes do not depend on the thread count") {
    if (!png_codec_available()) return;  // stb's encoder has one thread
    for (int c = 1; c <= 4; ++c) {
        const ImageU8 img = test::photo_like_image(97, 211, c, 9);
        for (int level : {0, 1, 2, 9}) {
            const std::vector<std::uint8_t> one = encode_png(img.view(), level, 1, 4096);
            for (int threads : {2, 3, 8, 0}) {
                INFO(describe(97, 211, c, level), " on ", threads, " threads");
                CHECK(encode_png(img.view(), level, threads, 4096) == one);
            }
        }
    }
    // At the default segment size too.
    const ImageU8 big = test::photo_like_image(509, 4 * rows_per_segment(509, 3) + 3, 3, 9);
    const std::vector<std::uint8_t> one = encode_png(big.view(), 1, 1);
    CHECK(encode_png(big.view(), 1, 3) == one);
    CHECK(encode_png(big.view(), 1, 0) == one);
}

TEST_CASE("PNG encoder: rows with padding (a view into a larger image) encode as the packed copy") {
    const ImageU8 big = test::photo_like_image(300, 40, 3, 4);
    const ConstViewU8 window = big.view().sub(7, 3, 250, 30);
    REQUIRE(window.stride != window.row_bytes());
    const ImageU8 packed = ImageU8::copy_of(window);
    for (int level : {0, 1, 7}) {
        const std::vector<std::uint8_t> bytes = encode_png(window, level);
        CHECK(bytes == encode_png(packed.view(), level));
        check_decodes_to(packed, bytes, "window at level " + std::to_string(level));
    }
}

TEST_CASE("PNG encoder: levels trade time for size; 0 stores") {
    if (!png_codec_available()) return;  // stb treats levels below 5 as 5
    const ImageU8 img = test::load_sample("chelsea.png");
    const std::size_t raw = img.size_bytes() + static_cast<std::size_t>(img.height());
    const std::size_t stored = encode_png(img.view(), 0).size();
    CHECK(stored > raw);  // stored blocks add a few bytes per 64 KiB
    CHECK(stored < raw + raw / 100 + 200);
    const std::size_t fastest = encode_png(img.view(), 1).size();
    const std::size_t smallest = encode_png(img.view(), 9).size();
    CHECK(fastest < stored * 3 / 4);
    CHECK(smallest < fastest);
    // The default is what SaveOptions and the command line start from.
    CHECK(SaveOptions{}.compression == kDefaultPngCompression);
    CHECK(PngEncodeOptions{}.compression == kDefaultPngCompression);
}

TEST_CASE("PNG compression levels outside 0..9 are usage errors") {
    const ImageU8 img = test::random_image(4, 4, 3);
    for (int bad : {-1, 10, 100}) {
        ErrorKind kind = ErrorKind::Input;
        try {
            check_png_compression(bad);
        } catch (const Error& e) {
            kind = e.kind();
            CHECK(std::string(e.what()).find("0 to 9") != std::string::npos);
        }
        CHECK(kind == ErrorKind::Usage);
        SaveOptions save;
        save.compression = bad;
        std::vector<std::string> warnings;
        CHECK_THROWS_AS(encode_image(img.view(), ImageFormat::Png, save, warnings), Error);
        if (png_codec_available()) {
            PngEncodeOptions options;
            options.compression = bad;
            CHECK_THROWS_AS(png_encode(img.view(), options), Error);
        }
    }
    for (int good = 0; good <= 9; ++good) CHECK_NOTHROW(check_png_compression(good));
}

TEST_CASE("PNG codec names the library in use") {
    const std::string name = png_codec_name();
    if (png_codec_available()) {
        CHECK(name.rfind("libpng 1.", 0) == 0);
        CHECK(name.find("zlib 1.") != std::string::npos);
    } else {
        CHECK(name == "stb_image");
    }
}
