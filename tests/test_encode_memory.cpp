// The encoders' memory estimate (src/io/encode_memory.hpp) against the
// files they write of noise, the content that makes the largest.
#include <doctest/doctest.h>

#include "src/io/encode_memory.hpp"
#include "src/io/save.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

TEST_CASE("encode memory: noise's JPEG stays inside the bound per sample at every quality") {
    for (const int channels : {1, 3})
        for (const int quality : {10, 50, 75, 90, 92, 95, 100}) {
            const ImageU8 noise = test::random_image(320, 240, channels, 3);
            SaveOptions options;
            options.quality = quality;
            options.chroma = ChromaSubsampling::S444;
            std::vector<std::string> warnings;
            const std::vector<std::uint8_t> file = encode_image(noise.view(), ImageFormat::Jpeg, options, warnings);
            const double samples = 320.0 * 240.0 * channels;
            INFO(channels, " channels, quality ", quality, ": ", file.size() / samples, " bytes a sample");
            CHECK(static_cast<double>(file.size()) <= jpeg_bytes_per_sample_bound(quality) * samples + 2048);
            const ImageShape shape{320, 240, channels, SampleType::U8};
            CHECK(2 * file.size() <= encode_memory(ImageFormat::Jpeg, shape, options, 0));
        }
}

TEST_CASE("encode memory: BMP counts its 24-bit pixels, gray included, and the vector they are appended to") {
    for (const int channels : {1, 2, 3, 4}) {
        const ImageU8 noise = test::random_image(101, 37, channels, 4);
        std::vector<std::string> warnings;
        const std::vector<std::uint8_t> file = encode_image(noise.view(), ImageFormat::Bmp, 92, warnings);
        const ImageShape shape{101, 37, channels, SampleType::U8};
        CHECK(3 * file.size() <= encode_memory(ImageFormat::Bmp, shape, SaveOptions{}, 0));
    }
}
