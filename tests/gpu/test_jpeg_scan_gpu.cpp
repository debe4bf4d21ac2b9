// The whole JPEG decode on the GPU (src/gpu/jpeg_idct.hpp's decode_jpeg_scan:
// the Huffman decoding, the inverse DCT, upsampling and colour conversion)
// against libjpeg-turbo's decode: exactly its pixels (a mismatch is reported
// as x, y, channel, cpu, gpu) in every layout, size, quality and restart
// interval; a damaged scan is sent back (to libjpeg-turbo) with damage
// exactly when the scan walk finds it unclean, and a clean one decodes to
// libjpeg-turbo's pixels unless a block is unsafe; a forged file's unsafe
// block is sent back with no damage.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "src/gpu/jpeg_idct.hpp"
#include "src/io/jpeg_huffman_plan.hpp"
#include "src/io/jpeg_scan.hpp"
#include "src/io/load.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/jpeg_scan_damage.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_encodings.hpp"
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;

#if IMGPAR_TEST_LIBJPEG
namespace {

using Bytes = std::vector<std::uint8_t>;

struct ScanDecode {
    bool planned = false;  // the plan took the file
    std::uint32_t damage = 0;
    std::optional<ImageU8> image;
};

ScanDecode scan_decode(const Bytes& bytes) {
    ScanDecode r;
    const JpegHuffmanPlan plan = plan_jpeg_huffman(bytes.data(), bytes.size());
    r.planned = plan.taken;
    if (!plan.taken) return r;
    gpu::Session& session = test::session();
    const auto view = gpu::decode_jpeg_scan(session, plan, "case.jpg", r.damage, huffman::kMaxPasses);
    if (!view) return r;
    r.image.emplace(view->width, view->height, view->channels);
    session.download(ConstDeviceViewU8(*view), r.image->view());
    return r;
}

void check_scan(const Bytes& bytes) {
    const LoadedImage cpu = decode_image("case.jpg", bytes, LoadOptions{});
    CHECK(cpu.warnings.empty());
    const ScanDecode gpu = scan_decode(bytes);
    REQUIRE(gpu.planned);
    CAPTURE(gpu.damage);
    REQUIRE(gpu.image);
    IMGPAR_CHECK_IMAGES_EQUAL(cpu.image, *gpu.image);
}

}  // namespace

TEST_CASE("gpu jpeg scan: libjpeg-turbo's pixels in every layout, odd sizes, qualities and restart intervals") {
    const int sizes[][2] = {{1, 1}, {2, 2}, {1, 77}, {93, 1}, {7, 9}, {8, 8}, {9, 7}, {16, 16},
                            {17, 13}, {101, 67}, {1000, 1}, {641, 479}, {2049, 1537}};
    const int layouts[][3] = {{1, 1, 1}, {3, 1, 1}, {3, 2, 1}, {3, 2, 2}};  // gray, 4:4:4, 4:2:2, 4:2:0
    unsigned seed = 3;
    for (const auto& l : layouts)
        for (const auto& s : sizes)
            for (int quality : {1, 75, 100}) {
                CAPTURE(l[0] * 100 + l[1] * 10 + l[2]);
                CAPTURE(s[0]);
                CAPTURE(s[1]);
                CAPTURE(quality);
                test::Encoding e;
                e.quality = quality;
                e.h = l[1];
                e.v = l[2];
                e.optimize = ++seed % 2 == 0;
                e.restart_mcus = seed % 3 == 0 ? 1 + static_cast<int>(seed % 7) : 0;
                CAPTURE(e.restart_mcus);
                const ImageU8 img = quality == 100 && s[0] * s[1] < 100000
                                        ? test::random_image(s[0], s[1], l[0], seed)
                                        : test::photo_like_image(s[0], s[1], l[0], seed);
                check_scan(test::encode(img, e));
            }
    // A 16 MP photo as a camera writes it, and the repository's photo.
    test::Encoding camera;
    camera.quality = 92;
    camera.h = camera.v = 2;
    check_scan(test::encode(test::photo_like_image(4896, 3264, 3, 5), camera));
    const std::string file = test::read_bytes(test::sample_path("rocket.jpg"));
    check_scan(Bytes(file.begin(), file.end()));
}

TEST_CASE("gpu jpeg scan: a damaged scan goes back to libjpeg-turbo exactly when the walk finds it unclean") {
    std::vector<Bytes> seeds;
    for (int k = 0; k < 4; ++k) {
        test::Encoding e;
        e.h = e.v = k % 2 ? 2 : 1;
        e.restart_mcus = k < 2 ? 0 : k;
        seeds.push_back(test::encode(test::photo_like_image(70 + 9 * k, 50 + 5 * k, k == 3 ? 1 : 3, 40u + static_cast<unsigned>(k)), e));
    }
    std::mt19937 rng(1207);
    int decoded = 0, sent_back = 0;
    for (int trial = 0; trial < 300; ++trial) {
        CAPTURE(trial);
        const Bytes damaged = test::damage_scan(seeds[static_cast<std::size_t>(trial) % seeds.size()], rng);
        const ScanDecode gpu = scan_decode(damaged);
        if (!gpu.planned) continue;
        const bool clean = jpeg_scan_is_clean(damaged.data(), damaged.size());
        CAPTURE(gpu.damage);
        CHECK((gpu.damage != 0) == !clean);
        if (!gpu.image) {
            // A clean scan is sent back only for an unsafe block: damage can
            // make coefficients no encoder writes.
            if (clean) {
                std::vector<std::string> warnings;
                const LoadedImage cpu = decode_image("case.jpg", damaged, LoadOptions{});
                const JpegCoefficients k =
                    jpeg_read_coefficients("case.jpg", damaged, cpu.image.width(), cpu.image.height(), warnings);
                CHECK(test::split_planes(k).unsafe_blocks > 0);
            }
            ++sent_back;
            continue;
        }
        ++decoded;
        const LoadedImage cpu = decode_image("case.jpg", damaged, LoadOptions{});
        CHECK(cpu.warnings.empty());
        IMGPAR_CHECK_IMAGES_EQUAL(cpu.image, *gpu.image);
    }
    CHECK(decoded > 10);
    CHECK(sent_back > 10);
}

TEST_CASE("gpu jpeg scan: a forged file's unsafe block goes back to libjpeg-turbo, with no damage") {
    std::mt19937 rng(77);
    int decoded = 0, sent_back = 0;
    for (int round = 0; round < 32; ++round) {
        CAPTURE(round);
        const test::ForgedJpeg forged = test::forged_jpeg(rng, round);
        const ScanDecode gpu = scan_decode(forged.bytes);
        if (!gpu.planned) continue;
        std::vector<std::string> warnings;
        const JpegCoefficients k = jpeg_read_coefficients("forged.jpg", forged.bytes, forged.width, forged.height, warnings);
        const bool safe = test::split_planes(k).unsafe_blocks == 0;
        CHECK(gpu.damage == 0);
        CHECK(gpu.image.has_value() == safe);
        if (!gpu.image) {
            ++sent_back;
            continue;
        }
        ++decoded;
        IMGPAR_CHECK_IMAGES_EQUAL(decode_image("forged.jpg", forged.bytes, LoadOptions{}).image, *gpu.image);
    }
    CHECK(decoded > 4);
    CHECK(sent_back > 4);
}

#else
TEST_CASE("gpu jpeg scan: libjpeg-turbo's pixels (not checked: this build has no libjpeg-turbo)") {}
#endif
