// The split JPEG decode (src/gpu/jpeg_idct.hpp) against libjpeg-turbo's own
// decode: the coefficients read on the CPU, the inverse DCT, upsampling and
// colour conversion on the GPU must give exactly its pixels (a mismatch is
// reported as x, y, channel, cpu, gpu), for every chroma layout, gray, odd
// sizes, every quality and a 16 MP photo; a forged file's unsafe block sends
// the file back to the CPU.
#include <doctest/doctest.h>

#include <random>

#include "src/gpu/jpeg_idct.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/load.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;

namespace {

// Decodes split, or reports that the GPU sent it back.
std::optional<ImageU8> split_decode(const std::vector<std::uint8_t>& bytes, int width, int height) {
    REQUIRE(jpeg_coefficients_suit(bytes.data(), bytes.size()));
    std::vector<std::string> warnings;
    const JpegCoefficients k = jpeg_read_coefficients("test.jpg", bytes, width, height, warnings);
    gpu::Session& session = test::session();
    const auto view = gpu::decode_jpeg_coefficients(session, k);
    if (!view) return std::nullopt;
    ImageU8 out(view->width, view->height, view->channels);
    session.download(ConstDeviceViewU8(*view), out.view());
    return out;
}

void check_split(const std::vector<std::uint8_t>& bytes) {
    const LoadedImage cpu = decode_image("case.jpg", bytes, LoadOptions{});
    const std::optional<ImageU8> gpu = split_decode(bytes, cpu.image.width(), cpu.image.height());
    REQUIRE(gpu);
    IMGPAR_CHECK_IMAGES_EQUAL(cpu.image, *gpu);
}

}  // namespace

TEST_CASE("gpu jpeg split: libjpeg-turbo's pixels for every layout, gray, odd sizes and qualities") {
    const int sizes[][2] = {{1, 1},  {2, 2},    {3, 1},    {1, 3},     {7, 9},      {8, 8},      {9, 7},
                            {17, 13}, {16, 16}, {1000, 1}, {1, 1000},  {641, 479},  {2049, 1537}};
    for (const auto& s : sizes)
        for (int quality : {1, 75, 92, 100}) {
            const int w = s[0], h = s[1];
            CAPTURE(w);
            CAPTURE(h);
            CAPTURE(quality);
            const unsigned seed = static_cast<unsigned>(w * 7 + h);
            check_split(jpeg_encode(test::photo_like_image(w, h, 1, seed).view(), quality));
            for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420}) {
                CAPTURE(static_cast<int>(chroma));
                check_split(jpeg_encode(test::photo_like_image(w, h, 3, seed).view(), quality, chroma));
                if (w * h <= 1000000) check_split(jpeg_encode(test::random_image(w, h, 3, seed).view(), quality, chroma));
            }
        }
    for (int value : {0, 255}) check_split(jpeg_encode(test::constant_image(33, 17, 3, value).view(), 90));
    // A 16 MP photo as a camera writes it (4:2:0), and the sample photo at two qualities.
    check_split(jpeg_encode(test::photo_like_image(4896, 3264, 3, 5).view(), 92, ChromaSubsampling::S420));
    const ImageU8 rocket = load_image(test::sample_path("rocket.jpg")).image;
    for (int quality : {85, 95}) check_split(jpeg_encode(rocket.view(), quality));
    const std::string file = test::read_bytes(test::sample_path("rocket.jpg"));
    check_split(std::vector<std::uint8_t>(file.begin(), file.end()));
}

#if IMGPAR_TEST_LIBJPEG
TEST_CASE("gpu jpeg split: forged coefficients decode to libjpeg-turbo's pixels, or go back to the CPU") {
    std::mt19937 rng(77);
    int decoded = 0, sent_back = 0;
    for (int round = 0; round < 32; ++round) {
        CAPTURE(round);
        const test::ForgedJpeg forged = test::forged_jpeg(rng, round);
        const std::vector<std::uint8_t>& bytes = forged.bytes;
        const int width = forged.width, height = forged.height;
        // Whether the CPU's twin of the kernel finds an unsafe block.
        std::vector<std::string> warnings;
        const JpegCoefficients k = jpeg_read_coefficients("forged.jpg", bytes, width, height, warnings);
        const bool safe = test::split_planes(k).unsafe_blocks == 0;
        const std::optional<ImageU8> gpu = split_decode(bytes, width, height);
        CHECK(gpu.has_value() == safe);
        if (!gpu) {
            ++sent_back;
            continue;
        }
        ++decoded;
        IMGPAR_CHECK_IMAGES_EQUAL(decode_image("forged.jpg", bytes, LoadOptions{}).image, *gpu);
    }
    CHECK(decoded > 4);
    CHECK(sent_back > 4);
}
#endif
