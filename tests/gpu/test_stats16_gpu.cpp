// 16-bit GPU statistics against the CPU reference, field for field: every
// channel count, odd sizes (every tail length of a tile), masks, constant
// images, extremes tied far apart, unaligned device images, a 16 MP image.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "cuda/stats.hpp"
#include "src/gpu/session.hpp"
#include "src/ops/stats.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/gpu_u16_support.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

ImageU8 mask16(int w, int h, int percent, unsigned seed) {
    ImageU8 m(w, h, 1);
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < m.size_bytes(); ++i)
        m.data()[i] = static_cast<int>(rng() % 100) < percent ? static_cast<std::uint8_t>(1 + rng() % 255) : 0;
    return m;
}

void check16(const ImageU16& img, const std::string& label, const ImageU8* mask = nullptr) {
    CAPTURE(label);
    gpu::Session& s = test::session();
    ConstViewU8 mv;
    if (mask) mv = mask->view();
    const ImageStats want = cpu::stats(img.view(), mask ? &mv : nullptr);
    const DeviceViewU16 d = test::upload16(img);
    ImageStats got;
    if (mask) {
        const DeviceViewU8 m = s.image<std::uint8_t>(gpu::Session::Slot::Output, mask->width(), mask->height(), 1);
        s.upload(mask->view(), m);
        const ConstDeviceViewU8 cm = m;
        got = gpu::stats(s, ConstDeviceViewU16(d), &cm);
    } else {
        got = gpu::stats(s, ConstDeviceViewU16(d), nullptr);
    }
    CHECK_MESSAGE(got == want, "cpu vs gpu: ", stats_difference(want, got));
    if (!mask) {
        const test::UnalignedDeviceImage16 odd(img, test::stream());
        const ImageStats got_odd = gpu::stats(s, ConstDeviceViewU16(odd.ref), nullptr);
        CHECK_MESSAGE(got_odd == want, "unaligned: ", stats_difference(want, got_odd));
    }
}

std::string label_of(int w, int h, int c) { return std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c); }

}  // namespace

TEST_CASE("GPU stats u16: odd sizes and every layout, masked or not") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c) {
            const ImageU16 img = test::random_runs_image16(w, h, c, static_cast<unsigned>(3 * w + h + c));
            check16(img, label_of(w, h, c));
            const ImageU8 m = mask16(w, h, 40, static_cast<unsigned>(w * h + c));
            check16(img, label_of(w, h, c) + " masked", &m);
        }
}

TEST_CASE("GPU stats u16: every tail length of a tile, constants, ties far apart, empty masks") {
    for (int c = 1; c <= 4; ++c) {
        for (int w = 1; w <= 40; ++w) check16(test::random_runs_image16(w, 3, c, static_cast<unsigned>(w)), label_of(w, 3, c));
        for (std::uint16_t v : {std::uint16_t{0}, std::uint16_t{256}, std::uint16_t{65535}})
            check16(test::flat_image16(333, 71, c, v), "constant " + std::to_string(v));
        check16(test::few_values16(1001, 203, c, 7), "few values");
        const ImageU8 none(129, 9, 1);
        check16(test::random_runs_image16(129, 9, c, 2), "nothing selected", &none);
    }
}

TEST_CASE("GPU stats u16: a 16 MP image") {
    check16(test::random_runs_image16(4096, 4096, 1, 8), "4096x4096 gray");
    check16(test::random_runs_image16(2001, 1999, 4, 9), "2001x1999 RGBA");
}
