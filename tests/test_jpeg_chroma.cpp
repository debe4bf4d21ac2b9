// JPEG chroma subsampling: the layout asked for is the one in the file's
// frame header, the file decodes (libjpeg-turbo and stb) to the full size,
// gray stays one component, and unknown values are usage errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/png_reference.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// Each component's horizontal and vertical sampling factors, from the
// first frame header (SOF0..SOF15 but DHT, JPG and DAC).
std::vector<std::pair<int, int>> sampling_factors(const std::vector<std::uint8_t>& jpeg) {
    std::size_t i = 2;
    while (i + 4 <= jpeg.size() && jpeg[i] == 0xFF) {
        const int marker = jpeg[i + 1];
        const std::size_t length = (std::size_t{jpeg[i + 2]} << 8) | jpeg[i + 3];
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            std::vector<std::pair<int, int>> out;
            const int components = jpeg[i + 9];
            for (int c = 0; c < components; ++c) {
                const std::uint8_t f = jpeg[i + 11 + 3 * static_cast<std::size_t>(c)];
                out.emplace_back(f >> 4, f & 15);
            }
            return out;
        }
        i += 2 + length;
    }
    return {};
}

std::vector<std::uint8_t> encode_jpeg(const ImageU8& img, int quality, ChromaSubsampling chroma,
                                      std::vector<std::string>& warnings) {
    SaveOptions save;
    save.quality = quality;
    save.chroma = chroma;
    return encode_image(img.view(), ImageFormat::Jpeg, save, warnings);
}

}  // namespace

TEST_CASE("JPEG chroma subsampling: 444, 422, 420 and auto are what the frame header says") {
    const ImageU8 img = test::photo_like_image(37, 23, 3, 2);  // odd sizes: partial chroma blocks
    struct Case {
        ChromaSubsampling chroma;
        int quality;
        std::pair<int, int> luma;  // chroma components are 1x1 in every layout
    };
    const Case cases[] = {{ChromaSubsampling::S444, 80, {1, 1}},  {ChromaSubsampling::S422, 95, {2, 1}},
                          {ChromaSubsampling::S420, 95, {2, 2}},  {ChromaSubsampling::Auto, 91, {1, 1}},
                          {ChromaSubsampling::Auto, 90, {2, 2}}};
    for (const Case& c : cases) {
        INFO("quality ", c.quality, ", layout ", static_cast<int>(c.chroma));
        std::vector<std::string> warnings;
        const std::vector<std::uint8_t> bytes = encode_jpeg(img, c.quality, c.chroma, warnings);
        const ImageU8 by_stb = test::decode_with_stb(bytes);
        CHECK(by_stb.width() == 37);
        CHECK(by_stb.height() == 23);
        const LoadedImage ours = decode_image("c.jpg", bytes, {});
        CHECK(ours.image.width() == 37);
        CHECK(ours.image.height() == 23);
        CHECK(ours.image.channels() == 3);
        if (!jpeg_codec_available()) {
            // stb's encoder has no choice: its own rule, and a warning when asked.
            CHECK(warnings.size() == (c.chroma == ChromaSubsampling::Auto ? 0u : 1u));
            continue;
        }
        CHECK(warnings.empty());
        const auto factors = sampling_factors(bytes);
        REQUIRE(factors.size() == 3);
        CHECK(factors[0] == c.luma);
        CHECK(factors[1] == std::pair{1, 1});
        CHECK(factors[2] == std::pair{1, 1});
    }
}

TEST_CASE("JPEG chroma subsampling: gray stays one component whatever is asked") {
    if (!jpeg_codec_available()) return;  // stb's encoder writes gray as colour
    const ImageU8 gray = test::photo_like_image(17, 9, 1);
    for (auto chroma : {ChromaSubsampling::Auto, ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420}) {
        std::vector<std::string> warnings;
        const std::vector<std::uint8_t> bytes = encode_jpeg(gray, 85, chroma, warnings);
        const auto factors = sampling_factors(bytes);
        REQUIRE(factors.size() == 1);
        CHECK(factors[0] == std::pair{1, 1});
        CHECK(decode_image("g.jpg", bytes, {}).image.channels() == 1);
        CHECK(test::decode_with_stb(bytes).width() == 17);
    }
}

TEST_CASE("JPEG chroma subsampling: values are parsed, others are usage errors") {
    CHECK(parse_chroma_subsampling("auto") == ChromaSubsampling::Auto);
    CHECK(parse_chroma_subsampling("444") == ChromaSubsampling::S444);
    CHECK(parse_chroma_subsampling("422") == ChromaSubsampling::S422);
    CHECK(parse_chroma_subsampling("420") == ChromaSubsampling::S420);
    for (const char* bad : {"411", "", "4:2:0", "AUTO"}) {
        ErrorKind kind = ErrorKind::Input;
        try {
            parse_chroma_subsampling(bad);
        } catch (const Error& e) {
            kind = e.kind();
        }
        CHECK_MESSAGE(kind == ErrorKind::Usage, bad);
    }
}
