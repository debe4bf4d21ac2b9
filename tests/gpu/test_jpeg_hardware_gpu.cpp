// The GPU's hardware JPEG decoder against libjpeg-turbo, on every run of the
// suite: every file the hardware takes must decode to exactly libjpeg-turbo's
// pixels (a mismatch is reported as x, y, channel, cpu, gpu). Files it must
// not take (gray, progressive, truncated) are left to the CPU.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "src/error.hpp"
#include "src/gpu/jpeg_hardware.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/io/load.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// Decodes on the hardware, or reports that it declined.
std::optional<ImageU8> hardware_decode(const std::vector<std::uint8_t>& bytes) {
    gpu::Session& session = test::session();
    const auto view = gpu::decode_jpeg_on_gpu(session, "test.jpg", bytes.data(), bytes.size());
    if (!view) return std::nullopt;
    ImageU8 out(view->width, view->height, view->channels);
    session.download(ConstDeviceViewU8(*view), out.view());
    return out;
}

bool hardware_started() {
    if (!gpu::jpeg_hardware_built()) return false;
    try {
        gpu::start_jpeg_hardware(test::session().device());
        return true;
    } catch (const Error& e) {
        MESSAGE("hardware JPEG decoder not available: ", e.what());
        return false;
    }
}

}  // namespace

TEST_CASE("gpu jpeg: the hardware decoder gives libjpeg-turbo's pixels for every chroma layout") {
    if (!hardware_started()) return;
    MESSAGE("decoder: ", gpu::jpeg_hardware_name());
    // Odd sizes, chroma planes one or two samples wide or one row high, MCU
    // and tile edges, a 16 MP photo; photo-like and random (saturated) content.
    const int sizes[][2] = {{1, 1},     {2, 2},     {3, 1},    {4, 3},     {5, 5},      {17, 13},  {16, 16},
                            {1000, 1},  {1, 1000},  {641, 479}, {2049, 1537}, {4896, 3264}};
    int taken = 0;
    for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420})
        for (const auto& s : sizes)
            for (int content = 0; content < 2; ++content) {
                const int w = s[0], h = s[1];
                if (content == 1 && w * h > 1000000) continue;
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(static_cast<int>(chroma));
                CAPTURE(content);
                const unsigned seed = static_cast<unsigned>(w * 7 + h);
                const ImageU8 img = content ? test::random_image(w, h, 3, seed) : test::photo_like_image(w, h, 3, seed);
                const std::vector<std::uint8_t> bytes = jpeg_encode(img.view(), content ? 75 : 92, chroma);
                const LoadedImage cpu = decode_image("case.jpg", bytes, LoadOptions{});
                const std::optional<ImageU8> gpu = hardware_decode(bytes);
                REQUIRE(gpu);
                ++taken;
                IMGPAR_CHECK_IMAGES_EQUAL(cpu.image, *gpu);
            }
    CHECK(taken == 3 * (2 * 12 - 2));

    // A real photo, as a camera (4:2:0) and as imgpar at quality 95 (4:4:4) write it.
    const ImageU8 rocket = load_image(test::sample_path("rocket.jpg")).image;
    for (int quality : {85, 95}) {
        const std::vector<std::uint8_t> bytes = jpeg_encode(rocket.view(), quality);
        const auto gpu = hardware_decode(bytes);
        REQUIRE(gpu);
        IMGPAR_CHECK_IMAGES_EQUAL(decode_image("rocket.jpg", bytes, LoadOptions{}).image, *gpu);
    }
}

TEST_CASE("gpu jpeg: gray and truncated files are left to the CPU") {
    if (!hardware_started()) return;
    const ImageU8 gray = test::photo_like_image(300, 200, 1, 5);
    const std::vector<std::uint8_t> gray_bytes = jpeg_encode(gray.view(), 90);
    CHECK_FALSE(read_jpeg_layout(gray_bytes.data(), gray_bytes.size()).ycbcr_huffman_8bit());
    const ImageU8 rgb = test::photo_like_image(300, 200, 3, 6);
    std::vector<std::uint8_t> cut = jpeg_encode(rgb.view(), 90);
    CHECK(read_jpeg_layout(cut.data(), cut.size()).ycbcr_huffman_8bit());
    cut.resize(cut.size() / 2);
    CHECK_FALSE(hardware_decode(cut));
}

// A file cut mid-scan and closed by an EOI marker looks whole to a check of
// its end; libjpeg-turbo refuses it (the scan ends before the image does), so
// the hardware must not turn it into an image either: it declines the file
// (the CPU then says what is wrong) or fails it as corrupt.
TEST_CASE("gpu jpeg: a file cut mid-scan and closed by EOI is never decoded to pixels on the hardware") {
    if (!hardware_started()) return;
    for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S420}) {
        const ImageU8 rgb = test::photo_like_image(1600, 1200, 3, 9);
        const std::vector<std::uint8_t> whole = jpeg_encode(rgb.view(), 90, chroma);
        for (double keep : {0.3, 0.6, 0.95}) {
            CAPTURE(keep);
            CAPTURE(static_cast<int>(chroma));
            std::vector<std::uint8_t> cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(whole.size() * keep));
            cut.push_back(0xFF);
            cut.push_back(0xD9);
            CHECK_THROWS(decode_image("cut.jpg", cut, LoadOptions{}));
            try {
                CHECK_FALSE(hardware_decode(cut));
            } catch (const Error& e) {
                CHECK(e.kind() == ErrorKind::Input);
            }
        }
    }
}

TEST_CASE("gpu jpeg: files from many workers decode in shared batches, each into its own session") {
    if (!hardware_started()) return;
    constexpr int kWorkers = 12;
    std::vector<std::vector<std::uint8_t>> files;
    std::vector<ImageU8> expected;
    for (int i = 0; i < kWorkers * 3; ++i) {
        const ImageU8 img = test::photo_like_image(300 + 37 * i, 200 + 11 * i, 3, static_cast<unsigned>(i + 70));
        // Layouts mixed within the batches.
        const ChromaSubsampling chroma[] = {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420};
        files.push_back(jpeg_encode(img.view(), 90, chroma[i % 3]));
        expected.push_back(decode_image("f.jpg", files.back(), LoadOptions{}).image);
    }
    std::atomic<int> declined{0}, differ{0};
    std::vector<std::thread> workers;
    for (int w = 0; w < kWorkers; ++w)
        workers.emplace_back([&, w] {
            gpu::Session session(test::session().device());
            for (int k = w; k < static_cast<int>(files.size()); k += kWorkers) {
                const auto view = gpu::decode_jpeg_on_gpu(session, "f.jpg", files[k].data(), files[k].size());
                if (!view) {
                    ++declined;
                    continue;
                }
                ImageU8 got(view->width, view->height, 3);
                session.download(ConstDeviceViewU8(*view), got.view());
                if (first_mismatch(expected[k].view(), got.view()).found) ++differ;
            }
        });
    for (auto& t : workers) t.join();
    CHECK(declined == 0);
    CHECK(differ == 0);
}
