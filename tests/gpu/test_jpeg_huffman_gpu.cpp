// The GPU's parallel Huffman decoding (src/gpu/jpeg_huffman.hpp) against its
// CPU twin (src/io/jpeg_huffman_cpu.hpp, itself proven against libjpeg-turbo
// in the unit tests): the same coefficients, block for block, in every
// layout, awkward sizes, restart intervals, subsequence sizes and a photo of
// many megapixels; the same verdict on damaged scans (and so the scan walk's).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "src/gpu/jpeg_huffman.hpp"
#include "src/io/jpeg_scan.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/jpeg_scan_damage.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_encodings.hpp"
#endif

using namespace imgpar;

#if IMGPAR_TEST_LIBJPEG
namespace {

using Bytes = std::vector<std::uint8_t>;

std::string mismatch(const std::vector<std::int16_t>& cpu, const std::vector<std::int16_t>& gpu) {
    return test::coefficient_mismatch(cpu, gpu, "cpu", "gpu");
}

// The GPU gives the twin's verdict and coefficients; returns whether it took the file.
bool check_same(const Bytes& bytes, std::uint32_t size) {
    const JpegHuffmanPlan plan = plan_jpeg_huffman(bytes.data(), bytes.size(), size);
    const JpegHuffmanResult cpu = decode_jpeg_huffman_cpu(plan);
    const JpegHuffmanResult gpu = gpu::decode_jpeg_huffman_gpu(test::session(), plan);
    CAPTURE(cpu.reason);
    CAPTURE(gpu.reason);
    CAPTURE(gpu.sync_passes);
    // Giving up on decoders out of step is no verdict on the file (the passes
    // it takes depend on the order the threads ran): none of these files
    // should need it, but it is not a mismatch.
    if (!gpu.taken && gpu.sync_passes == huffman::kMaxPasses) {
        MESSAGE("the GPU's decoders did not fall into step: " << gpu.reason);
        return cpu.taken;
    }
    CHECK(gpu.taken == cpu.taken);
    CHECK(cpu.taken == jpeg_scan_is_clean(bytes.data(), bytes.size()));
    if (cpu.taken && gpu.taken) CHECK(mismatch(cpu.blocks, gpu.blocks) == "");
    return gpu.taken;
}

}  // namespace

TEST_CASE("gpu jpeg huffman: the CPU twin's coefficients in every layout, size and restart interval") {
    const int sizes[][2] = {{1, 1}, {1, 77}, {93, 1}, {7, 9}, {16, 16}, {17, 15}, {101, 67}, {641, 479}};
    const int layouts[][3] = {{1, 1, 1}, {3, 1, 1}, {3, 2, 1}, {3, 2, 2}};
    unsigned seed = 1;
    for (const auto& l : layouts)
        for (const auto& s : sizes)
            for (int restart : {0, 1, 5}) {
                CAPTURE(l[0] * 100 + l[1] * 10 + l[2]);
                CAPTURE(s[0]);
                CAPTURE(s[1]);
                CAPTURE(restart);
                test::Encoding e;
                e.quality = 30 + static_cast<int>(++seed % 70);
                e.h = l[1];
                e.v = l[2];
                e.optimize = seed % 2 == 0;
                e.restart_mcus = restart;
                const Bytes bytes = test::encode(test::photo_like_image(s[0], s[1], l[0], seed), e);
                for (std::uint32_t size : {32u, 72u, huffman::kSubsequenceBits, 4096u}) {
                    CAPTURE(size);
                    CHECK(check_same(bytes, size));
                }
                // The GPU's own order takes two passes at its subsequence size.
                const JpegHuffmanResult gpu = gpu::decode_jpeg_huffman_gpu(test::session(), plan_jpeg_huffman(bytes.data(), bytes.size()));
                CHECK(gpu.sync_passes <= 3);
            }
}

TEST_CASE("gpu jpeg huffman: photos of many megapixels, noise at quality 100") {
    for (int round = 0; round < 3; ++round) {
        CAPTURE(round);
        const int w = round == 2 ? 1024 : 4096, h = round == 2 ? 768 : 3072;
        const ImageU8 img = round == 2 ? test::random_image(w, h, 3, 7) : test::photo_like_image(w, h, 3, static_cast<unsigned>(round));
        test::Encoding e;
        e.quality = round == 2 ? 100 : 90;
        e.h = 2;
        e.v = round == 0 ? 2 : 1;
        e.restart_mcus = round == 1 ? 64 : 0;
        const Bytes bytes = test::encode(img, e);
        CHECK(check_same(bytes, huffman::kSubsequenceBits));
        CHECK(check_same(bytes, 32));
    }
}

TEST_CASE("gpu jpeg huffman: damaged scans get the twin's verdict") {
    std::vector<Bytes> seeds;
    for (int k = 0; k < 4; ++k) {
        test::Encoding e;
        e.h = e.v = k % 2 ? 2 : 1;
        e.restart_mcus = k < 2 ? 0 : k;
        seeds.push_back(test::encode(test::photo_like_image(60 + 9 * k, 44 + 5 * k, 3, static_cast<unsigned>(k)), e));
    }
    std::mt19937 rng(530);
    int taken = 0;
    for (int trial = 0; trial < 400; ++trial) {
        CAPTURE(trial);
        const Bytes damaged = test::damage_scan(seeds[static_cast<std::size_t>(trial) % seeds.size()], rng);
        taken += check_same(damaged, trial % 2 ? 32 : huffman::kSubsequenceBits) ? 1 : 0;
    }
    CHECK(taken > 20);
    CHECK(taken < 380);
}

#else
TEST_CASE("gpu jpeg huffman: the CPU twin's coefficients (not checked: this build has no libjpeg-turbo)") {}
#endif
