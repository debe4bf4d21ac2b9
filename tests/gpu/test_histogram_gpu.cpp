// GPU histogram, equalize and threshold against the CPU reference: identical
// counts, byte-identical images, same Otsu level, on real photos, constant
// images, awkward sizes, every channel count, 8K images, pitched and
// unaligned device images, and a reused workspace.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/histogram_policy.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/gpu_histogram_support.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::UnalignedDeviceImage;
using test::first_difference;

namespace {

// The host forms of the seam, through the suite's session.
Histogram gpu_histogram(ConstViewU8 img, bool luma) {
    gpu::Session& s = test::session();
    const DeviceViewU8 d = s.image<std::uint8_t>(gpu::Session::Slot::Input, img.width, img.height, img.channels);
    s.upload(img, d);
    return gpu::histogram(s, d, luma);
}
ImageU8 gpu_equalize(ConstViewU8 img, EqualizeMode m) {
    return gpu::run_on_images(test::session(), img, img.channels, [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
        gpu::equalize(test::session(), in, out, m);
    });
}
ThresholdResult gpu_threshold(ConstViewU8 img, const ThresholdSpec& spec) {
    ThresholdResult r;
    r.image = gpu::run_on_images(test::session(), img, threshold_output_channels(img.channels),
                                 [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
                                     r.threshold = gpu::threshold(test::session(), in, out, spec);
                                 });
    return r;
}

// Histogram, both equalize modes and threshold (Otsu and a level) on one image.
void check_all(const ImageU8& img, const std::string& label) {
    CAPTURE(label);
    CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view(), true), gpu_histogram(img.view(), true));
    CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view(), false), gpu_histogram(img.view(), false));
    for (EqualizeMode m : {EqualizeMode::Luma, EqualizeMode::Channels}) {
        CAPTURE(equalize_mode_name(m));
        IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view(), m), gpu_equalize(img.view(), m));
    }
    for (const ThresholdSpec& spec : {threshold_otsu(), threshold_at(0), threshold_at(97), threshold_at(255)}) {
        CAPTURE(spec.otsu);
        CAPTURE(spec.value);
        const ThresholdResult c = cpu::threshold(img.view(), spec);
        const ThresholdResult g = gpu_threshold(img.view(), spec);
        CHECK(c.threshold == g.threshold);
        IMGPAR_CHECK_IMAGES_EQUAL(c.image, g.image);
    }
}

using test::stream;

}  // namespace

TEST_CASE("GPU histogram family: real photos") {
    check_all(test::load_sample("camera.png"), "camera.png");
    check_all(test::load_sample("chelsea.png"), "chelsea.png");
    ImageU8 cam = test::load_sample("camera.png");
    ImageU8 rgba(cam.width(), cam.height(), 4);
    for (int y = 0; y < cam.height(); ++y)
        for (int x = 0; x < cam.width(); ++x) {
            rgba.at(x, y, 0) = cam.at(x, y, 0);
            rgba.at(x, y, 1) = static_cast<std::uint8_t>(255 - cam.at(x, y, 0));
            rgba.at(x, y, 2) = static_cast<std::uint8_t>(x);
            rgba.at(x, y, 3) = static_cast<std::uint8_t>(y);
        }
    check_all(rgba, "camera as RGBA");
}

TEST_CASE("GPU histogram family: constant, black, white at every channel count") {
    for (int c = 1; c <= 4; ++c)
        for (int v : {0, 255, 77})
            for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {37, 23}, {256, 256}, {1000, 3}})
                check_all(test::constant_image(w, h, c, v), "constant " + std::to_string(v) + " " + std::to_string(w) +
                                                                "x" + std::to_string(h) + " c=" + std::to_string(c));
}

TEST_CASE("GPU histogram family: awkward sizes, every channel count") {
    for (int c = 1; c <= 4; ++c) {
        for (auto [w, h] : test::awkward_sizes()) {
            const std::string size = std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c);
            check_all(test::random_image(w, h, c, static_cast<unsigned>(w * 7 + h * 3 + c)), "random " + size);
            check_all(test::photo_like_image(w, h, c, 3), "photo-like " + size);
        }
        // rows of 1..40 pixels: every tail length of a 16-pixel chunk
        for (int w = 1; w <= 40; ++w)
            check_all(test::random_image(w, 5, c, static_cast<unsigned>(w)), "width " + std::to_string(w));
        if (c == 2 || c == 4) check_all(test::alpha_image(301, 77, c, 4), "alpha c=" + std::to_string(c));
    }
}

TEST_CASE("GPU histogram family: unaligned device images and sub-view pitches") {
    cudaStream_t s = stream();
    cuda::HistogramWorkspace ws;
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {17, 5}, {64, 9}, {129, 130}}) {
            CAPTURE(c);
            CAPTURE(w);
            CAPTURE(h);
            ImageU8 img = test::photo_like_image(w, h, c, 11);
            UnalignedDeviceImage src(w, h, c, s, &img);
            CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view()), cuda::histogram(src.ref, true, ws, s));
            for (EqualizeMode m : {EqualizeMode::Luma, EqualizeMode::Channels}) {
                UnalignedDeviceImage dst(w, h, c, s);
                cuda::equalize(src.ref, dst.ref, m, ws, s);
                IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view(), m), dst.download(s));
            }
            UnalignedDeviceImage out(w, h, threshold_output_channels(c), s);
            const int t = cuda::threshold(src.ref, out.ref, threshold_otsu(), ws, s);
            const ThresholdResult ref = cpu::threshold(img.view(), threshold_otsu());
            CHECK(t == ref.threshold);
            IMGPAR_CHECK_IMAGES_EQUAL(ref.image, out.download(s));
            // the bytes around the image are untouched (0xEE fill)
            std::vector<std::uint8_t> raw(out.buffer.bytes());
            IMGPAR_CUDA_CHECK(cudaMemcpy(raw.data(), out.buffer.get(), raw.size(), cudaMemcpyDeviceToHost));
            CHECK(raw[0] == 0xEE);
            bool pad_ok = true;
            for (int y = 0; y < h; ++y)
                for (std::size_t k = out.ref.pitch - 3; k < out.ref.pitch; ++k)
                    pad_ok = pad_ok && raw[1 + static_cast<std::size_t>(y) * out.ref.pitch + k] == 0xEE;
            CHECK(pad_ok);
        }
    // A sub-window of a larger device image: 16-byte aligned pitch, shifted start.
    ImageU8 big = test::random_image(300, 50, 3, 2);
    cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(big.view(), s);
    DeviceViewU8 win = d.view();
    win.data += 5 * 3;  // x = 5: not 16-byte aligned
    win.width = 200;
    ImageU8 cpu_win = ImageU8::copy_of(big.view().sub(5, 0, 200, 50));
    CHECK_HISTOGRAMS_EQUAL(cpu::histogram(cpu_win.view()), cuda::histogram(win, true, ws, s));
    win = d.view();
    win.data += 16 * 3;  // x = 16: aligned, 16-byte path with a shorter row
    win.width = 123;
    cpu_win = ImageU8::copy_of(big.view().sub(16, 0, 123, 50));
    CHECK_HISTOGRAMS_EQUAL(cpu::histogram(cpu_win.view()), cuda::histogram(win, true, ws, s));
}

TEST_CASE("GPU histogram: device form planes, reused workspace, bad arguments") {
    cudaStream_t s = stream();
    cuda::HistogramWorkspace ws;
    ws.reserve();
    // Every channel count, one workspace, interleaved with equalize/threshold.
    for (int round = 0; round < 3; ++round)
        for (int c = 1; c <= 4; ++c) {
            CAPTURE(round);
            CAPTURE(c);
            ImageU8 img = test::photo_like_image(97 + round * 31, 61, c, static_cast<unsigned>(round + c));
            cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
            CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view()), cuda::histogram(d.view(), true, ws, s));
            cuda::DeviceImageU8 e(img.width(), img.height(), c);
            cuda::equalize(d.view(), e.view(), EqualizeMode::Luma, ws, s);
            ImageU8 out(img.width(), img.height(), c);
            e.download(out.view(), s);
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
            IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view()), out);
            // in place
            cuda::equalize(d.view(), d.view(), EqualizeMode::Channels, ws, s);
            d.download(out.view(), s);
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
            IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view(), EqualizeMode::Channels), out);
        }
    // Luma-only and channel-only planes through the device form.
    ImageU8 rgb = test::load_sample("chelsea.png");
    const Histogram ref = cpu::histogram(rgb.view());
    cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(rgb.view(), s);
    cuda::DeviceBuffer<unsigned long long> counts(5 * 256);
    std::vector<unsigned long long> host(5 * 256);
    cuda::HistogramPlanes luma_only;
    luma_only.channels = false;
    luma_only.luma = true;
    CHECK(luma_only.count(3) == 1);
    CHECK_THROWS_AS(luma_only.count(1), Error);
    cuda::histogram(d.view(), luma_only, counts.get(), s);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), counts.get(), 256 * 8, cudaMemcpyDeviceToHost, s));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
    bool ok = true;
    for (int v = 0; v < 256; ++v) ok = ok && host[v] == ref.counts[3][v];
    CHECK(ok);
    // Bad arguments are usage errors, before any GPU work.
    DeviceViewU8 null_ref = d.view();
    null_ref.data = nullptr;
    CHECK_THROWS_AS(cuda::histogram(null_ref, true, ws, s), Error);
    DeviceViewU8 short_pitch = d.view();
    short_pitch.pitch = 10;
    CHECK_THROWS_AS(cuda::histogram(short_pitch, true, ws, s), Error);
    cuda::DeviceImageU8 wrong(rgb.width(), rgb.height(), 3);
    CHECK_THROWS_AS(cuda::threshold(d.view(), wrong.view(), threshold_at(5), ws, s), Error);
    CHECK_THROWS_AS(cuda::threshold(d.view(), wrong.view(), ThresholdSpec{false, 300}, ws, s), Error);
    cuda::DeviceImageU8 small(5, 5, 3);
    CHECK_THROWS_AS(cuda::equalize(d.view(), small.view(), EqualizeMode::Luma, ws, s), Error);
}

TEST_CASE("GPU histogram family: 8192x8192 gray and 7680x4320 RGB, photo-like and constant") {
    struct Big {
        int w, h, c;
        bool constant;
    } cases[] = {{8192, 8192, 1, false}, {8192, 8192, 1, true}, {7680, 4320, 3, false}, {7680, 4320, 3, true}};
    for (const Big& b : cases) {
        const std::string label = std::to_string(b.w) + "x" + std::to_string(b.h) + " c=" + std::to_string(b.c) +
                                  (b.constant ? " constant" : " photo-like");
        CAPTURE(label);
        ImageU8 img = b.constant ? test::constant_image(b.w, b.h, b.c, 200) : test::photo_like_image(b.w, b.h, b.c, 8);
        const Histogram gh = gpu_histogram(img.view(), true);
        CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view()), gh);
        if (b.constant) CHECK(gh.counts[0][200] == static_cast<std::uint64_t>(b.w) * b.h);
        IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view()), gpu_equalize(img.view(), EqualizeMode::Luma));
        const ThresholdResult c = cpu::threshold(img.view(), threshold_otsu());
        const ThresholdResult g = gpu_threshold(img.view(), threshold_otsu());
        CHECK(c.threshold == g.threshold);
        IMGPAR_CHECK_IMAGES_EQUAL(c.image, g.image);
    }
}
