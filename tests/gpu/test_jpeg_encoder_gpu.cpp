// The GPU's JPEG encoder (src/gpu/jpeg_encoder.hpp) against libjpeg-turbo:
// every file it writes must be byte for byte the file imgpar's CPU path
// (jpeg_encode) writes for the same pixels, quality and chroma: every chroma
// layout, gray, alpha dropped, sizes with partial and dummy blocks, images
// large enough to be written in restart-marked stripes, saturated and
// constant content, views with unaligned rows, several sessions at once.
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "src/error.hpp"
#include "src/gpu/jpeg_encoder.hpp"
#include "src/io/jpeg_codec.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// Uploads `image` into the session's Input slot and encodes it from there.
std::vector<std::uint8_t> gpu_encode(gpu::Session& session, const ImageU8& image, int quality,
                                     ChromaSubsampling chroma) {
    const DeviceViewU8 in =
        session.image<std::uint8_t>(gpu::Session::Slot::Input, image.width(), image.height(), image.channels());
    session.upload(image.view(), in);
    return gpu::encode_jpeg_on_gpu(session, in, quality, chroma);
}

// What the CPU path writes: alpha dropped, then libjpeg-turbo.
std::vector<std::uint8_t> cpu_encode(const ImageU8& image, int quality, ChromaSubsampling chroma) {
    if (image.channels() == 1 || image.channels() == 3) return jpeg_encode(image.view(), quality, chroma);
    ImageU8 opaque(image.width(), image.height(), image.channels() - 1);
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            for (int c = 0; c < opaque.channels(); ++c) opaque.at(x, y, c) = image.at(x, y, c);
    return jpeg_encode(opaque.view(), quality, chroma);
}

bool encoder_built() {
    if (gpu::jpeg_gpu_encoder_built()) return true;
    MESSAGE("GPU JPEG encoder not available: this build has no libjpeg-turbo");
    return false;
}

void check_same_bytes(gpu::Session& session, const ImageU8& image, int quality, ChromaSubsampling chroma) {
    const std::vector<std::uint8_t> expected = cpu_encode(image, quality, chroma);
    const std::vector<std::uint8_t> actual = gpu_encode(session, image, quality, chroma);
    CHECK_MESSAGE(actual == expected, image.width(), "x", image.height(), "x", image.channels(), " quality ", quality,
                  " chroma ", static_cast<int>(chroma), ": ", test::first_byte_difference(expected, actual));
}

const ChromaSubsampling kChromas[] = {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420};

}  // namespace

TEST_CASE("gpu jpeg encoder: libjpeg-turbo's bytes at awkward sizes, every channel count and layout") {
    if (!encoder_built()) return;
    MESSAGE("encoder: ", gpu::jpeg_gpu_encoder_name());
    for (const auto& [w, h] : test::awkward_sizes())
        for (int channels = 1; channels <= 4; ++channels)
            for (ChromaSubsampling chroma : kChromas) {
                if (channels < 3 && chroma != ChromaSubsampling::S444) continue;  // gray has no chroma
                check_same_bytes(test::session(), test::photo_like_image(w, h, channels, static_cast<unsigned>(w + h)),
                                 92, chroma);
            }
}

TEST_CASE("gpu jpeg encoder: libjpeg-turbo's bytes for random, saturated and constant content at every quality") {
    if (!encoder_built()) return;
    for (int quality : {1, 10, 50, 75, 90, 91, 95, 100})
        for (int channels : {1, 3}) {
            check_same_bytes(test::session(), test::random_image(97, 61, channels, static_cast<unsigned>(quality)),
                             quality, ChromaSubsampling::Auto);
            check_same_bytes(test::session(), test::photo_like_image(130, 67, channels, 3), quality,
                             ChromaSubsampling::S420);
        }
    for (int value : {0, 1, 128, 254, 255})
        for (ChromaSubsampling chroma : kChromas) {
            check_same_bytes(test::session(), test::constant_image(33, 17, 3, value), 95, chroma);
            check_same_bytes(test::session(), test::constant_image(33, 17, 1, value), 100, chroma);
        }
    check_same_bytes(test::session(), test::alpha_image(301, 199, 4, 3), 90, ChromaSubsampling::S422);
    check_same_bytes(test::session(), test::alpha_image(301, 199, 2, 3), 90, ChromaSubsampling::Auto);
}

TEST_CASE("gpu jpeg encoder: libjpeg-turbo's bytes for large images written in stripes") {
    if (!encoder_built()) return;
    // 16 MP (a camera's), 8192 x 8192, and odd sizes whose last stripe and
    // blocks are partial.
    for (ChromaSubsampling chroma : kChromas)
        check_same_bytes(test::session(), test::photo_like_image(4896, 3264, 3, 21), 95, chroma);
    check_same_bytes(test::session(), test::photo_like_image(8192, 8192, 3, 22), 95, ChromaSubsampling::Auto);
    check_same_bytes(test::session(), test::photo_like_image(2049, 1031, 3, 23), 85, ChromaSubsampling::S420);
    check_same_bytes(test::session(), test::photo_like_image(4897, 3263, 1, 24), 95, ChromaSubsampling::Auto);
    check_same_bytes(test::session(), test::random_image(2047, 1035, 4, 25), 92, ChromaSubsampling::S422);
}

TEST_CASE("gpu jpeg encoder: a view with unaligned rows gives the same bytes") {
    if (!encoder_built()) return;
    gpu::Session& session = test::session();
    for (int channels : {1, 3, 4}) {
        CAPTURE(channels);
        const ImageU8 img = test::photo_like_image(641, 479, channels, 9);
        // Rows packed one byte apart from the next and a start off alignment,
        // inside the Output slot's larger image.
        const DeviceViewU8 room = session.image<std::uint8_t>(gpu::Session::Slot::Output, 700, 500, channels);
        const DeviceViewU8 odd{room.data + 1, img.width(), img.height(), channels, img.view().row_bytes() + 1};
        session.upload(img.view(), odd);
        CHECK(gpu::encode_jpeg_on_gpu(session, odd, 90, ChromaSubsampling::S422) ==
              cpu_encode(img, 90, ChromaSubsampling::S422));
    }
}

TEST_CASE("gpu jpeg encoder: what JPEG cannot hold is refused, and the session still encodes") {
    if (!encoder_built()) return;
    gpu::Session& session = test::session();
    const DeviceViewU8 rgb = session.image<std::uint8_t>(gpu::Session::Slot::Input, 8, 8, 3);
    CHECK_THROWS_AS(gpu::encode_jpeg_on_gpu(session, rgb, 0, ChromaSubsampling::Auto), Error);
    CHECK_THROWS_AS(gpu::encode_jpeg_on_gpu(session, rgb, 101, ChromaSubsampling::Auto), Error);
    const DeviceViewU8 wide = session.image<std::uint8_t>(gpu::Session::Slot::Input, 65536, 1, 1);
    CHECK_THROWS_AS(gpu::encode_jpeg_on_gpu(session, wide, 90, ChromaSubsampling::Auto), Error);
    check_same_bytes(session, test::photo_like_image(8, 8, 3, 2), 90, ChromaSubsampling::Auto);
}

TEST_CASE("gpu jpeg encoder: sessions on several threads encode at the same time") {
    if (!encoder_built()) return;
    struct Job {
        ImageU8 image;
        ChromaSubsampling chroma;
        std::vector<std::uint8_t> expected;
    };
    std::vector<Job> jobs;
    for (int i = 0; i < 24; ++i) {
        const int channels = i % 4 == 3 ? 1 : 3;
        ImageU8 img = test::photo_like_image(200 + 53 * i, 150 + 17 * i, channels, static_cast<unsigned>(i + 40));
        const ChromaSubsampling chroma = kChromas[i % 3];
        std::vector<std::uint8_t> expected = cpu_encode(img, 90, chroma);
        jobs.push_back({std::move(img), chroma, std::move(expected)});
    }
    constexpr int kThreads = 6;
    std::atomic<int> differ{0}, failed{0};
    std::mutex first_error_mutex;
    std::string first_error;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            try {
                gpu::Session session(test::session().device());
                for (int round = 0; round < 2; ++round)
                    for (std::size_t k = static_cast<std::size_t>(t); k < jobs.size(); k += kThreads)
                        if (gpu_encode(session, jobs[k].image, 90, jobs[k].chroma) != jobs[k].expected) ++differ;
            } catch (const std::exception& e) {
                ++failed;
                std::lock_guard<std::mutex> lock(first_error_mutex);
                if (first_error.empty()) first_error = e.what();
            }
        });
    for (auto& t : threads) t.join();
    CHECK_MESSAGE(failed == 0, first_error);
    CHECK(differ == 0);
}
