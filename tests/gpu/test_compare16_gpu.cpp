// Comparing 16-bit images on the GPU against the CPU, bit for bit: the sums,
// the u16 difference image, SSIM (L = 65535) and its map, every channel
// count, odd sizes, identical and very different pairs, unaligned images.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "src/gpu/session.hpp"
#include "src/ops/compare.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/gpu_u16_support.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

ImageU16 noisy16(const ImageU16& a, int amount, unsigned seed) {
    ImageU16 b = ImageU16::copy_of(a.view());
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < b.sample_count(); ++i) {
        const int d = static_cast<int>(rng() % (2 * amount + 1)) - amount;
        b.data()[i] = static_cast<std::uint16_t>(std::clamp(b.data()[i] + d, 0, 65535));
    }
    return b;
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

void check16(const ImageU16& a, const ImageU16& b, bool unaligned, const std::string& label, int downsample = 1) {
    CAPTURE(label);
    CAPTURE(downsample);
    CompareOptions o;
    o.diff = true;
    o.ssim_downsample = downsample;
    o.ssim_map = ssim_plan(o, a.width(), a.height()).fits;
    const Comparison16 want = cpu::compare(a.view(), b.view(), o);
    gpu::Session& s = test::session();
    Comparison16 got;
    if (unaligned) {
        const test::UnalignedDeviceImage16 da(a, test::stream()), db(b, test::stream());
        got = gpu::compare(s, ConstDeviceViewU16(da.ref), ConstDeviceViewU16(db.ref), o);
    } else {
        const DeviceViewU16 da = test::upload16(a, gpu::Session::Slot::Input);
        const DeviceViewU16 db = test::upload16(b, gpu::Session::Slot::Output);
        got = gpu::compare(s, ConstDeviceViewU16(da), ConstDeviceViewU16(db), o);
    }
    CHECK(got.sums == want.sums);
    IMGPAR_CHECK_IMAGES_EQUAL(want.diff, got.diff);
    CHECK(got.ssim.defined == want.ssim.defined);
    if (want.ssim.defined) {
        for (int c = 0; c < a.channels(); ++c) CHECK(same_bits(got.ssim.channel[c], want.ssim.channel[c]));
        CHECK(same_bits(got.ssim.mean, want.ssim.mean));
        IMGPAR_CHECK_IMAGES_EQUAL(want.ssim_map, got.ssim_map);
    }
}

}  // namespace

TEST_CASE("GPU compare u16: odd sizes and every layout") {
    int runs = 0;
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c) {
            const ImageU16 a = test::random_runs_image16(w, h, c, static_cast<unsigned>(w * 3 + h + c));
            const ImageU16 b = runs % 2 ? noisy16(a, 2000, 9) : test::random_runs_image16(w, h, c, 99);
            check16(a, b, runs % 4 == 3, std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c));
            ++runs;
        }
}

TEST_CASE("GPU compare u16: identical, constant and larger pairs") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU16 a = test::random_runs_image16(257, 131, c, 1);
        check16(a, a, false, "identical");
        check16(test::flat_image16(64, 64, c, 0), test::flat_image16(64, 64, c, 65535), false, "black/white");
    }
    const ImageU16 big = test::random_runs_image16(1920, 1080, 3, 5);
    check16(big, noisy16(big, 500, 6), false, "1920x1080 RGB");
}

TEST_CASE("GPU compare u16: --ssim-downsample (2, 3, 7 and auto) shrinks as the CPU does") {
    for (int c = 1; c <= 4; ++c)
        for (int f : {2, 3, 7, kSsimAutoDownsample}) {
            const ImageU16 a = test::random_runs_image16(301, 187, c, static_cast<unsigned>(c * 10 + f));
            check16(a, noisy16(a, 3000, static_cast<unsigned>(f)), c == 3, "301x187 c=" + std::to_string(c), f);
        }
    // An output's f x f sum of 16-bit samples passes 2^31 from f = 182 on.
    const ImageU16 white = test::flat_image16(2100, 2100, 1, 65535);
    check16(white, noisy16(white, 40000, 3), false, "2100x2100 gray, f = 190", 190);
}
