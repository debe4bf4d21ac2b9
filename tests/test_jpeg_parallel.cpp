// JPEG on several threads: a large image encoded in stripes joined by
// restart markers decodes to the pixels of a one-piece encode, whatever the
// thread count; a large file decoded in bands gives the pixels of one whole
// decode.
#include <doctest/doctest.h>

#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/io/load.hpp"
#include "src/parallel.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

ImageU8 decode_with_threads(const std::vector<std::uint8_t>& bytes, int threads) {
    CpuThreadLimit limit(threads);
    std::vector<std::string> warnings;
    const JpegLayout l = read_jpeg_layout(bytes.data(), bytes.size());
    ImageU8 img = jpeg_decode("t.jpg", bytes, l.width, l.height, warnings);
    CHECK(warnings.empty());
    return img;
}

bool has_restart_markers(const std::vector<std::uint8_t>& b) {
    for (std::size_t i = 0; i + 1 < b.size(); ++i)
        if (b[i] == 0xFF && b[i + 1] == 0xDD) return true;
    return false;
}

}  // namespace

TEST_CASE("jpeg stripes: the pixels of a one-piece encode, bytes independent of threads") {
    if (!jpeg_codec_available()) return;
    struct Case {
        int w, h, c;
        ChromaSubsampling chroma;
    };
    const Case cases[] = {{2049, 1031, 3, ChromaSubsampling::S420}, {2049, 1031, 3, ChromaSubsampling::S422},
                          {1999, 1201, 3, ChromaSubsampling::S444}, {1500, 1500, 1, ChromaSubsampling::Auto},
                          {30001, 70, 3, ChromaSubsampling::S420},  {61, 40001, 3, ChromaSubsampling::S444}};
    for (const Case& k : cases) {
        CAPTURE(k.w);
        CAPTURE(k.h);
        const ImageU8 img = test::photo_like_image(k.w, k.h, k.c, static_cast<unsigned>(k.w + k.h));
        std::vector<std::uint8_t> one_thread, many;
        {
            CpuThreadLimit limit(1);
            one_thread = jpeg_encode(img.view(), 88, k.chroma);
        }
        many = jpeg_encode(img.view(), 88, k.chroma);
        CHECK(one_thread == many);
        CHECK(has_restart_markers(many));
        const std::vector<std::uint8_t> whole = jpeg_encode(img.view(), 88, k.chroma, nullptr, false);
        CHECK_FALSE(has_restart_markers(whole));
        IMGPAR_CHECK_IMAGES_EQUAL(decode_with_threads(whole, 1), decode_with_threads(many, 1));
        // And through stb, an independent decoder (upsampling aside, it reads the restart markers too).
        const LoadedImage through_load = decode_image("m.jpg", many, LoadOptions{});
        CHECK(through_load.image.width() == k.w);
    }
}

TEST_CASE("jpeg bands: a large file decoded on several threads gives one decode's pixels") {
    if (!jpeg_codec_available()) return;
    for (ChromaSubsampling c : {ChromaSubsampling::S420, ChromaSubsampling::S422, ChromaSubsampling::S444}) {
        const ImageU8 img = test::photo_like_image(1800, 1700, 3, 3);
        for (bool stripes : {false, true}) {
            const std::vector<std::uint8_t> bytes = jpeg_encode(img.view(), 90, c, nullptr, stripes);
            IMGPAR_CHECK_IMAGES_EQUAL(decode_with_threads(bytes, 1), decode_with_threads(bytes, 64));
        }
    }
    const ImageU8 gray = test::photo_like_image(2500, 1300, 1, 5);
    const std::vector<std::uint8_t> g = jpeg_encode(gray.view(), 80);
    IMGPAR_CHECK_IMAGES_EQUAL(decode_with_threads(g, 1), decode_with_threads(g, 64));
}
