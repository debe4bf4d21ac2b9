// GPU statistics against the CPU reference, field for field (a mismatch says
// the field and the channel): real photos, constant, black and white images,
// every channel count, odd sizes (1x1, 1xN, Nx1, primes, every tail length of
// a tile), masks, unaligned device images, extremes at the ends and ties far
// apart, sums past 32 bits and 16 MP and 64 MP images.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/stats.hpp"
#include "src/error.hpp"
#include "src/gpu/session.hpp"
#include "src/ops/stats.hpp"
#include "tests/support/gpu_histogram_support.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::UnalignedDeviceImage;

namespace {

// Through the seam, as stats runs: the image in the session's Input slot,
// the mask in its Output slot.
ImageStats gpu_stats(ConstViewU8 img, const ImageU8* mask) {
    gpu::Session& s = test::session();
    const DeviceViewU8 d = s.image<std::uint8_t>(gpu::Session::Slot::Input, img.width, img.height, img.channels);
    s.upload(img, d);
    if (!mask) return gpu::stats(s, d, nullptr);
    const DeviceViewU8 m = s.image<std::uint8_t>(gpu::Session::Slot::Output, mask->width(), mask->height(), 1);
    s.upload(mask->view(), m);
    const ConstDeviceViewU8 cm = m;
    return gpu::stats(s, d, &cm);
}

void check_stats(const ImageU8& img, const std::string& label, const ImageU8* mask = nullptr) {
    CAPTURE(label);
    ConstViewU8 mv;
    if (mask) mv = mask->view();
    const ImageStats want = cpu::stats(img.view(), mask ? &mv : nullptr);
    const ImageStats got = gpu_stats(img.view(), mask);
    CHECK_MESSAGE(got == want, "cpu vs gpu: ", stats_difference(want, got));
}

// About `percent` % of the pixels selected, with mask values other than 1.
ImageU8 random_mask(int w, int h, int percent, unsigned seed) {
    ImageU8 m(w, h, 1);
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < m.size_bytes(); ++i)
        m.data()[i] = static_cast<int>(rng() % 100) < percent ? static_cast<std::uint8_t>(1 + rng() % 255) : 0;
    return m;
}

std::string size_label(int w, int h, int c) {
    return std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c);
}

}  // namespace

TEST_CASE("GPU stats: real photos") {
    check_stats(test::load_sample("camera.png"), "camera.png");
    check_stats(test::load_sample("chelsea.png"), "chelsea.png");
    check_stats(test::load_sample("chelsea_alpha.png"), "chelsea_alpha.png");
    const ImageU8 cam = test::load_sample("camera.png");
    const ImageU8 m = random_mask(cam.width(), cam.height(), 40, 3);
    check_stats(cam, "camera.png, masked", &m);
    check_stats(cam, "camera.png, masked by itself", &cam);
}

TEST_CASE("GPU stats: constant, black and white images at every channel count") {
    for (int c = 1; c <= 4; ++c)
        for (int v : {0, 1, 77, 255})
            for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 301}, {301, 1}, {37, 23}, {256, 256}, {1000, 3}})
                check_stats(test::constant_image(w, h, c, v), "constant " + std::to_string(v) + " " + size_label(w, h, c));
}

TEST_CASE("GPU stats: awkward sizes, every tail length of a tile, every channel count") {
    for (int c = 1; c <= 4; ++c) {
        for (auto [w, h] : test::awkward_sizes()) {
            check_stats(test::random_image(w, h, c, static_cast<unsigned>(w * 7 + h * 3 + c)), "random " + size_label(w, h, c));
            check_stats(test::photo_like_image(w, h, c, 3), "photo-like " + size_label(w, h, c));
        }
        // Tiles are 16-64 pixels: widths 1..130 give every tail, and tile sizes +-1.
        for (int w = 1; w <= 130; ++w)
            check_stats(test::random_image(w, 3, c, static_cast<unsigned>(w)), "width " + size_label(w, 3, c));
        for (int h : {2, 3, 5, 7, 97, 251})
            check_stats(test::random_image(61, h, c, static_cast<unsigned>(h)), "prime height " + size_label(61, h, c));
        if (c == 2 || c == 4) check_stats(test::alpha_image(301, 77, c, 4), "alpha " + size_label(301, 77, c));
    }
}

TEST_CASE("GPU stats: masks: none, one pixel, sparse, dense and all selected, any non-zero value") {
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 97}, {97, 1}, {64, 64}, {131, 67}, {1021, 13}}) {
            const ImageU8 img = test::photo_like_image(w, h, c, 6);
            for (int percent : {0, 1, 10, 50, 99, 100}) {
                const ImageU8 m = random_mask(w, h, percent, static_cast<unsigned>(w + h + percent + c));
                check_stats(img, "mask " + std::to_string(percent) + "% " + size_label(w, h, c), &m);
            }
            ImageU8 one(w, h, 1);
            one.at(w - 1, h - 1, 0) = 9;  // the last pixel only
            check_stats(img, "mask of the last pixel " + size_label(w, h, c), &one);
        }
    // An empty selection: no extremes, on both backends.
    const ImageU8 img = test::random_image(100, 40, 3, 5);
    const ImageU8 none(100, 40, 1);
    const ImageStats st = gpu_stats(img.view(), &none);
    CHECK(st.selected == 0);
    for (int c = 0; c < 3; ++c) CHECK_FALSE(st.channel[static_cast<std::size_t>(c)].has_extremes());
    check_stats(img, "empty mask", &none);
}

TEST_CASE("GPU stats: extremes at the first and last pixels, ties far apart go to the first") {
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{4099, 517}, {64, 9000}, {1, 70000}, {70000, 1}}) {
            ImageU8 img = test::constant_image(w, h, c, 100);
            check_stats(img, "constant: every tie, position 0 " + size_label(w, h, c));
            img.at(w - 1, h - 1, c - 1) = 0;  // the minimum at the last pixel
            img.at(0, 0, 0) = 255;            // the maximum at the first
            check_stats(img, "extremes at the ends " + size_label(w, h, c));
            // The same minimum near the end and in the middle: the middle one is first.
            img.at(w / 2, h / 2, c - 1) = 0;
            img.at(w - 1, 0, 0) = 255;
            check_stats(img, "ties far apart " + size_label(w, h, c));
            const ImageStats st = gpu_stats(img.view(), nullptr);
            CHECK(st.channel[static_cast<std::size_t>(c - 1)].min_index ==
                  static_cast<std::uint64_t>(h / 2) * static_cast<std::uint64_t>(w) + static_cast<std::uint64_t>(w / 2));
            CHECK(st.channel[0].max_index == 0);
        }
}

TEST_CASE("GPU stats: sums past 32 bits, 16 MP and 64 MP images, repeated runs give the same result") {
    const ImageU8 white = test::constant_image(5000, 4000, 3, 255);
    const ImageStats w = gpu_stats(white.view(), nullptr);
    CHECK(w.channel[0].sum == 20'000'000ull * 255);
    CHECK(w.channel[2].sum_squares == 20'000'000ull * 255 * 255);
    check_stats(white, "5000x4000 white RGB");
    struct Big {
        int w, h, c;
    } cases[] = {{4608, 3456, 3}, {8192, 8192, 1}, {7680, 4320, 3}, {4096, 4096, 4}};
    for (const Big& b : cases) {
        const ImageU8 img = test::photo_like_image(b.w, b.h, b.c, 8);
        const std::string label = size_label(b.w, b.h, b.c);
        check_stats(img, "photo-like " + label);
        const ImageU8 m = random_mask(b.w, b.h, 70, 2);
        check_stats(img, "photo-like, masked " + label, &m);
        const ImageStats first = gpu_stats(img.view(), nullptr);
        for (int run = 0; run < 3; ++run) CHECK(gpu_stats(img.view(), nullptr) == first);
    }
}

TEST_CASE("GPU stats: unaligned device images and masks, sub-views, one workspace for all") {
    cudaStream_t s = test::stream();
    cuda::StatsWorkspace ws;
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {17, 5}, {64, 9}, {129, 130}, {300, 2}}) {
            const std::string label = size_label(w, h, c);
            CAPTURE(label);
            const ImageU8 img = test::photo_like_image(w, h, c, 11);
            const ImageU8 mask = random_mask(w, h, 50, 4);
            UnalignedDeviceImage src(w, h, c, s, &img);
            UnalignedDeviceImage msk(w, h, 1, s, &mask);
            cuda::stats(src.ref, nullptr, ws, s);
            ImageStats got = cuda::stats_result(src.ref, false, ws, s);
            ImageStats want = cpu::stats(img.view());
            CHECK_MESSAGE(got == want, stats_difference(want, got));
            const ConstDeviceViewU8 mref = msk.ref;
            cuda::stats(src.ref, &mref, ws, s);
            got = cuda::stats_result(src.ref, true, ws, s);
            ConstViewU8 mv = mask.view();
            want = cpu::stats(img.view(), &mv);
            CHECK_MESSAGE(got == want, stats_difference(want, got));
            // An aligned image with an unaligned mask.
            cuda::DeviceImageU8 aligned = cuda::DeviceImageU8::from_host(img.view(), s);
            cuda::stats(aligned.view(), &mref, ws, s);
            got = cuda::stats_result(aligned.view(), true, ws, s);
            CHECK_MESSAGE(got == want, stats_difference(want, got));
        }
    // Windows of a larger device image: an unaligned start, and an aligned one with a shorter row.
    const ImageU8 big = test::random_image(300, 50, 3, 2);
    cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(big.view(), s);
    for (auto [x, width] : std::vector<std::pair<int, int>>{{5, 200}, {16, 123}, {64, 236}}) {
        CAPTURE(x);
        DeviceViewU8 win = d.view();
        win.data += x * 3;
        win.width = width;
        const ImageU8 cpu_win = ImageU8::copy_of(big.view().sub(x, 0, width, 50));
        cuda::stats(win, nullptr, ws, s);
        const ImageStats got = cuda::stats_result(win, false, ws, s);
        const ImageStats want = cpu::stats(cpu_win.view());
        CHECK_MESSAGE(got == want, stats_difference(want, got));
    }
}

TEST_CASE("GPU stats: bad arguments are usage errors, before any GPU work") {
    cudaStream_t s = test::stream();
    cuda::StatsWorkspace ws;
    const ImageU8 img = test::random_image(40, 30, 3, 1);
    cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
    DeviceViewU8 null_ref = d.view();
    null_ref.data = nullptr;
    CHECK_THROWS_AS(cuda::stats(null_ref, nullptr, ws, s), Error);
    DeviceViewU8 short_pitch = d.view();
    short_pitch.pitch = 10;
    CHECK_THROWS_AS(cuda::stats(short_pitch, nullptr, ws, s), Error);
    cuda::DeviceImageU8 small_mask(39, 30, 1), rgb_mask(40, 30, 3);
    const ConstDeviceViewU8 sm = small_mask.view(), rm = rgb_mask.view();
    CHECK_THROWS_AS(cuda::stats(d.view(), &sm, ws, s), Error);
    CHECK_THROWS_AS(cuda::stats(d.view(), &rm, ws, s), Error);
    // The workspace still works after the refusals.
    cuda::stats(d.view(), nullptr, ws, s);
    const ImageStats got = cuda::stats_result(d.view(), false, ws, s);
    CHECK_MESSAGE(got == cpu::stats(img.view()), stats_difference(cpu::stats(img.view()), got));
}
