// src/io/jpeg_encode_math.hpp and src/io/jpeg_encode_plan.hpp against
// libjpeg-turbo itself: an encoder made of that arithmetic, one block at a
// time in scan order (what the GPU's kernels do in parallel), must write
// exactly the bytes of imgpar's libjpeg-turbo path, for every chroma layout,
// gray, alpha dropped, sizes with partial and dummy blocks, and images large
// enough to be encoded in restart-marked stripes.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_encode_plan.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// Bits MSB first into bytes, as a JPEG's entropy-coded data holds them.
struct BitWriter {
    std::vector<std::uint8_t>& out;
    std::uint64_t buffer = 0;
    int count = 0;
    void operator()(std::uint32_t bits, int n) {
        buffer = buffer << n | bits;
        count += n;
        while (count >= 8) {
            count -= 8;
            out.push_back(static_cast<std::uint8_t>(buffer >> count));
        }
    }
    void pad() {  // with ones to a whole byte
        if (count) (*this)((1u << (8 - count)) - 1u, 8 - count);
    }
};

std::vector<std::uint8_t> encode_by_blocks(ConstViewU8 image, int quality, ChromaSubsampling chroma) {
    const JpegEncodePlan plan = plan_jpeg_encode(image.width, image.height, image.channels, quality, chroma);
    const jpegenc::PixelSource source{image.data, image.stride, image.width, image.height, image.channels};
    std::vector<std::int16_t> coefficients(plan.blocks * 64);
    for (std::uint64_t b = 0; b < plan.blocks; ++b)
        jpegenc::quantized_block(source, plan.tables, plan.scan, jpegenc::place_of(plan.scan, b), &coefficients[b * 64]);
    std::vector<std::uint8_t> data;
    std::vector<std::uint64_t> offsets{0};
    BitWriter writer{data};
    const std::uint64_t per_segment = plan.scan.restart_mcus * static_cast<std::uint64_t>(plan.scan.blocks_per_mcu);
    for (std::uint64_t b = 0; b < plan.blocks; ++b) {
        if (b > 0 && b % per_segment == 0) {
            writer.pad();
            offsets.push_back(data.size());
        }
        const jpegenc::BlockPlace p = jpegenc::place_of(plan.scan, b);
        const int previous_dc = p.previous < 0 ? 0 : coefficients[static_cast<std::size_t>(p.previous) * 64];
        const int table = plan.scan.comp[p.c].huffman_table;
        jpegenc::encode_block(&coefficients[b * 64], coefficients[b * 64] - previous_dc, plan.tables.dc[table],
                              plan.tables.ac[table], writer);
    }
    writer.pad();
    offsets.push_back(data.size());
    REQUIRE(offsets.size() == plan.segments + 1);
    return assemble_jpeg(plan, data.data(), offsets.data());
}

void check_same_bytes(const ImageU8& image, int quality, ChromaSubsampling chroma) {
    ImageU8 stored = image;
    if (image.channels() == 2 || image.channels() == 4) {  // what the libjpeg path encodes: alpha dropped
        stored = ImageU8(image.width(), image.height(), image.channels() - 1);
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                for (int c = 0; c < stored.channels(); ++c) stored.at(x, y, c) = image.at(x, y, c);
    }
    const std::vector<std::uint8_t> expected = jpeg_encode(stored.view(), quality, chroma);
    const std::vector<std::uint8_t> actual = encode_by_blocks(image.view(), quality, chroma);
    CHECK_MESSAGE(actual == expected, image.width(), "x", image.height(), "x", image.channels(), " q", quality,
                  " chroma ", static_cast<int>(chroma), ": ", test::first_byte_difference(expected, actual));
}

}  // namespace

TEST_CASE("jpeg encode arithmetic: block by block gives libjpeg-turbo's bytes, every layout and awkward sizes") {
    if (!jpeg_codec_available()) return;
    const ChromaSubsampling layouts[] = {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420};
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {7, 5}, {8, 8}, {15, 17}, {16, 16},
                                         {17, 15}, {31, 33}, {33, 31}, {101, 67}, {128, 9}};
    for (const auto& [w, h] : sizes)
        for (ChromaSubsampling chroma : layouts) {
            check_same_bytes(test::photo_like_image(w, h, 3, 7), 95, chroma);
            check_same_bytes(test::random_image(w, h, 3, 3), 75, chroma);
        }
    for (const auto& [w, h] : sizes) {
        check_same_bytes(test::photo_like_image(w, h, 1, 5), 92, ChromaSubsampling::Auto);
        check_same_bytes(test::random_image(w, h, 1, 2), 50, ChromaSubsampling::Auto);
    }
}

TEST_CASE("jpeg encode arithmetic: qualities, saturated and constant content, alpha dropped") {
    if (!jpeg_codec_available()) return;
    for (int q : {1, 10, 50, 90, 91, 100}) {
        check_same_bytes(test::random_image(45, 29, 3, static_cast<unsigned>(q)), q, ChromaSubsampling::Auto);
        check_same_bytes(test::random_image(45, 29, 1, static_cast<unsigned>(q)), q, ChromaSubsampling::Auto);
    }
    for (int v : {0, 128, 255}) {
        check_same_bytes(test::constant_image(23, 19, 3, v), 95, ChromaSubsampling::S420);
        check_same_bytes(test::constant_image(23, 19, 1, v), 100, ChromaSubsampling::Auto);
    }
    check_same_bytes(test::alpha_image(37, 21, 4, 9), 90, ChromaSubsampling::S422);
    check_same_bytes(test::alpha_image(37, 21, 2, 9), 90, ChromaSubsampling::Auto);
}

TEST_CASE("jpeg encode arithmetic: images encoded in stripes (restart segments)") {
    if (!jpeg_codec_available()) return;
    // 2 MP and up is striped; odd sizes leave a partial last stripe and edge blocks.
    check_same_bytes(test::photo_like_image(1601, 1283, 3, 4), 95, ChromaSubsampling::S444);
    check_same_bytes(test::photo_like_image(1601, 1283, 3, 4), 85, ChromaSubsampling::S420);
    check_same_bytes(test::photo_like_image(2049, 1031, 3, 4), 92, ChromaSubsampling::S422);
    check_same_bytes(test::photo_like_image(2047, 1033, 1, 4), 95, ChromaSubsampling::Auto);
}
