// nvJPEG's encoder (src/gpu/jpeg_encoder.hpp), read back by libjpeg-turbo:
// every file it writes must be a baseline JFIF whose frame header has the
// size and chroma asked for, and decode to pixels close to the source. Its
// bytes are not libjpeg-turbo's, so closeness is measured (PSNR), against a
// floor and against what libjpeg-turbo's own encoder gets at the same
// settings. Skipped, with a message, where nvJPEG cannot start.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "src/error.hpp"
#include "src/gpu/jpeg_encoder.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/io/load.hpp"
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

// Whether nvJPEG starts here. A failure after it started is the encoder's
// own and fails the test.
bool encoder_started() {
    if (!gpu::jpeg_gpu_encoder_built()) {
        MESSAGE("GPU JPEG encoder not available: this build has no nvJPEG");
        return false;
    }
    try {
        gpu_encode(test::session(), test::photo_like_image(64, 64, 3, 1), 90, ChromaSubsampling::Auto);
        return true;
    } catch (const Error& e) {
        if (!gpu::jpeg_gpu_encoder_name().empty()) throw;
        MESSAGE("GPU JPEG encoder not available: ", e.what());
        return false;
    }
}

double psnr(const ImageU8& a, const ImageU8& b) {
    double squares = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            for (int c = 0; c < a.channels(); ++c) {
                const double d = double(a.at(x, y, c)) - double(b.at(x, y, c));
                squares += d * d;
            }
    const double mse = squares / double(a.size_bytes());
    return mse == 0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
}

int max_difference(const ImageU8& a, const ImageU8& b) {
    int most = 0;
    for (std::size_t i = 0; i < a.size_bytes(); ++i)
        most = std::max(most, std::abs(int(a.data()[i]) - int(b.data()[i])));
    return most;
}

ChromaLayout layout_of(ChromaSubsampling chroma, int quality) {
    if (chroma == ChromaSubsampling::Auto) chroma = quality > 90 ? ChromaSubsampling::S444 : ChromaSubsampling::S420;
    return chroma == ChromaSubsampling::S444   ? ChromaLayout::Full
           : chroma == ChromaSubsampling::S422 ? ChromaLayout::H2V1
                                               : ChromaLayout::H2V2;
}

// Checks the file's markers and frame header and returns its pixels as
// libjpeg-turbo decodes them.
ImageU8 check_file(const std::vector<std::uint8_t>& bytes, const ImageU8& source, int quality,
                   ChromaSubsampling chroma) {
    REQUIRE(bytes.size() >= 4);
    CHECK(bytes[0] == 0xFF);
    CHECK(bytes[1] == 0xD8);
    CHECK(bytes[bytes.size() - 2] == 0xFF);
    CHECK(bytes[bytes.size() - 1] == 0xD9);
    const JpegLayout layout = read_jpeg_layout(bytes.data(), bytes.size());
    REQUIRE(layout.valid);
    CHECK(layout.jfif);
    CHECK(layout.frame_marker == 0xC0);  // baseline
    CHECK(layout.precision == 8);
    CHECK(layout.width == source.width());
    CHECK(layout.height == source.height());
    if (source.channels() == 1) {
        CHECK(layout.components == 1);
    } else {
        REQUIRE(layout.components == 3);
        CHECK(layout.ycbcr_huffman_8bit());
        REQUIRE(layout.chroma_layout());
        CHECK(*layout.chroma_layout() == layout_of(chroma, quality));
    }
    const LoadedImage decoded = decode_image("gpu.jpg", bytes, LoadOptions{});
    CHECK(decoded.warnings.empty());
    REQUIRE(decoded.image.width() == source.width());
    REQUIRE(decoded.image.height() == source.height());
    REQUIRE(decoded.image.channels() == source.channels());
    return decoded.image;
}

// libjpeg-turbo's PSNR for the same settings: what an encoder gets on this
// image. nvJPEG's transforms and chroma filters are its own, hence a margin
// (a wrong layout or garbage costs far more); tiny images that libjpeg-turbo
// encodes almost exactly are held to a fixed floor instead.
double cpu_psnr(const ImageU8& source, int quality, ChromaSubsampling chroma) {
    const std::vector<std::uint8_t> bytes = jpeg_encode(source.view(), quality, chroma);
    return psnr(source, decode_image("cpu.jpg", bytes, LoadOptions{}).image);
}

void check_close_to_libjpeg(const ImageU8& source, const ImageU8& decoded, int quality, ChromaSubsampling chroma) {
    const double gpu = psnr(source, decoded), cpu = cpu_psnr(source, quality, chroma);
    CAPTURE(gpu);
    CAPTURE(cpu);
    CHECK(gpu >= std::min(cpu, 40.0) - 3.0);
}

const ChromaSubsampling kChromas[] = {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420};

}  // namespace

TEST_CASE("gpu jpeg encoder: baseline JFIF with the chroma asked for, at every size") {
    if (!encoder_started()) return;
    const std::string name = gpu::jpeg_gpu_encoder_name();
    MESSAGE("encoder: ", name);
    CHECK(name.rfind("nvJPEG ", 0) == 0);
    CHECK(name.find(" encoder (CUDA)") != std::string::npos);
    // One pixel, one row, one column, partial MCUs both ways, a 16 MP photo.
    const int sizes[][2] = {{1, 1}, {1, 300}, {300, 1}, {17, 13}, {641, 479}, {4896, 3264}};
    for (const auto& s : sizes)
        for (int channels : {1, 3}) {
            const ImageU8 img = test::photo_like_image(s[0], s[1], channels, static_cast<unsigned>(s[0] + 3 * s[1]));
            for (ChromaSubsampling chroma : kChromas) {
                if (channels == 1 && chroma != ChromaSubsampling::S444) continue;  // gray has no chroma
                CAPTURE(s[0]);
                CAPTURE(s[1]);
                CAPTURE(channels);
                CAPTURE(static_cast<int>(chroma));
                const auto bytes = gpu_encode(test::session(), img, 90, chroma);
                const ImageU8 decoded = check_file(bytes, img, 90, chroma);
                check_close_to_libjpeg(img, decoded, 90, chroma);
            }
        }
}

TEST_CASE("gpu jpeg encoder: quality 95 keeps a photo at 38 dB; Auto picks the CPU encoder's chroma") {
    if (!encoder_started()) return;
    for (int channels : {1, 3})
        for (const auto& s : {std::pair<int, int>{641, 479}, std::pair<int, int>{4896, 3264}}) {
            CAPTURE(channels);
            CAPTURE(s.first);
            const ImageU8 img = test::photo_like_image(s.first, s.second, channels, 11);
            // Auto at 95 is 4:4:4, at 90 4:2:0 (check_file checks the frame).
            const ImageU8 decoded = check_file(gpu_encode(test::session(), img, 95, ChromaSubsampling::Auto), img, 95,
                                               ChromaSubsampling::Auto);
            CHECK(psnr(img, decoded) >= 38.0);
            check_file(gpu_encode(test::session(), img, 90, ChromaSubsampling::Auto), img, 90, ChromaSubsampling::Auto);
        }
}

TEST_CASE("gpu jpeg encoder: a constant image decodes to within one level") {
    if (!encoder_started()) return;
    for (int value : {0, 1, 77, 128, 200, 254, 255})
        for (int channels : {1, 3})
            for (ChromaSubsampling chroma : kChromas)
                for (int quality : {90, 95}) {
                    if (channels == 1 && chroma != ChromaSubsampling::S444) continue;
                    CAPTURE(value);
                    CAPTURE(channels);
                    CAPTURE(static_cast<int>(chroma));
                    CAPTURE(quality);
                    const ImageU8 img = test::constant_image(33, 17, channels, value);
                    const auto bytes = gpu_encode(test::session(), img, quality, chroma);
                    const ImageU8 decoded = check_file(bytes, img, quality, chroma);
                    CHECK(max_difference(img, decoded) <= 1);
                }
}

TEST_CASE("gpu jpeg encoder: quality 1 and 100 both encode, 100 closer and larger") {
    if (!encoder_started()) return;
    for (int channels : {1, 3})
        for (const ImageU8& content :
             {test::photo_like_image(641, 479, channels, 5), test::random_image(97, 61, channels, 6)}) {
            CAPTURE(channels);
            CAPTURE(content.width());
            const auto low = gpu_encode(test::session(), content, 1, ChromaSubsampling::S420);
            const auto high = gpu_encode(test::session(), content, 100, ChromaSubsampling::S444);
            const ImageU8 low_pixels = check_file(low, content, 1, ChromaSubsampling::S420);
            const ImageU8 high_pixels = check_file(high, content, 100, ChromaSubsampling::S444);
            CHECK(high.size() > low.size());
            CHECK(psnr(content, high_pixels) > psnr(content, low_pixels));
            check_close_to_libjpeg(content, high_pixels, 100, ChromaSubsampling::S444);
        }
}

TEST_CASE("gpu jpeg encoder: a view with unaligned rows encodes as an aligned one") {
    if (!encoder_started()) return;
    gpu::Session& session = test::session();
    for (int channels : {1, 3}) {
        CAPTURE(channels);
        const ImageU8 img = test::photo_like_image(641, 479, channels, 9);
        const ImageU8 expected = check_file(gpu_encode(session, img, 90, ChromaSubsampling::S422), img, 90,
                                            ChromaSubsampling::S422);
        // Rows packed one byte apart from the next and a start off alignment,
        // inside the Output slot's larger image.
        const DeviceViewU8 room = session.image<std::uint8_t>(gpu::Session::Slot::Output, 700, 500, channels);
        const DeviceViewU8 odd{room.data + 1, img.width(), img.height(), channels, img.view().row_bytes() + 1};
        session.upload(img.view(), odd);
        const ImageU8 got = check_file(gpu::encode_jpeg_on_gpu(session, odd, 90, ChromaSubsampling::S422), img, 90,
                                       ChromaSubsampling::S422);
        IMGPAR_CHECK_IMAGES_EQUAL(expected, got);
    }
}

TEST_CASE("gpu jpeg encoder: what JPEG cannot hold is refused before nvJPEG runs") {
    if (!encoder_started()) return;
    gpu::Session& session = test::session();
    const DeviceViewU8 two = session.image<std::uint8_t>(gpu::Session::Slot::Input, 8, 8, 2);
    CHECK_THROWS_AS(gpu::encode_jpeg_on_gpu(session, two, 90, ChromaSubsampling::Auto), Error);
    const DeviceViewU8 rgb = session.image<std::uint8_t>(gpu::Session::Slot::Input, 8, 8, 3);
    CHECK_THROWS_AS(gpu::encode_jpeg_on_gpu(session, rgb, 0, ChromaSubsampling::Auto), Error);
    CHECK_THROWS_AS(gpu::encode_jpeg_on_gpu(session, rgb, 101, ChromaSubsampling::Auto), Error);
    // The session still encodes afterwards.
    const ImageU8 img = test::photo_like_image(8, 8, 3, 2);
    check_file(gpu_encode(session, img, 90, ChromaSubsampling::Auto), img, 90, ChromaSubsampling::Auto);
}

TEST_CASE("gpu jpeg encoder: sessions on several threads encode at the same time") {
    if (!encoder_started()) return;
    // Each thread's files must decode to what the same files encoded alone
    // decode to: no state is shared between the sessions' encodes.
    struct Job {
        ImageU8 image;
        ChromaSubsampling chroma;
        ImageU8 expected;
    };
    std::vector<Job> jobs;
    for (int i = 0; i < 24; ++i) {
        const int channels = i % 4 == 3 ? 1 : 3;
        ImageU8 img = test::photo_like_image(200 + 53 * i, 150 + 17 * i, channels, static_cast<unsigned>(i + 40));
        const ChromaSubsampling chroma = kChromas[i % 3];
        ImageU8 expected = decode_image("one.jpg", gpu_encode(test::session(), img, 90, chroma), LoadOptions{}).image;
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
                    for (std::size_t k = static_cast<std::size_t>(t); k < jobs.size(); k += kThreads) {
                        const auto bytes = gpu_encode(session, jobs[k].image, 90, jobs[k].chroma);
                        const ImageU8 got = decode_image("many.jpg", bytes, LoadOptions{}).image;
                        if (first_mismatch(jobs[k].expected.view(), got.view()).found) ++differ;
                    }
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
