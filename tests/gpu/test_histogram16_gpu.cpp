// The 16-bit GPU histogram against the CPU reference, count for count
// (65,536 values a plane): every channel count, odd sizes, constant images
// (the warp merge's whole-warp case), few values, aligned and unaligned
// device images; then 16-bit equalize and threshold (the same level, the
// same samples), which build on it.
#include <doctest/doctest.h>

#include <string>

#include "cuda/histogram.hpp"
#include "src/gpu/session.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/gpu_u16_support.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

// "" when equal, else the first difference as (plane, value, cpu, gpu).
std::string first_difference16(const Histogram16& a, const Histogram16& b) {
    if (a.channels != b.channels || a.luma != b.luma || a.pixels != b.pixels || a.counts.size() != b.counts.size())
        return "shape differs";
    for (int p = 0; p < a.planes(); ++p)
        for (int v = 0; v < kHistogramValues16; ++v)
            if (a.plane(p)[v] != b.plane(p)[v])
                return "plane " + a.plane_name(p) + " value " + std::to_string(v) + ": cpu " +
                       std::to_string(a.plane(p)[v]) + ", gpu " + std::to_string(b.plane(p)[v]);
    return "";
}

void check16(const ImageU16& img, const std::string& label) {
    CAPTURE(label);
    const Histogram16 want = cpu::histogram(img.view());
    std::string kernel;
    const Histogram16 got = gpu::histogram(test::session(), ConstDeviceViewU16(test::upload16(img)), true, &kernel);
    const std::string d = first_difference16(want, got);
    CHECK_MESSAGE(d.empty(), d);
    CHECK(!kernel.empty());
    // Without luma, and from an unaligned image.
    const test::UnalignedDeviceImage16 odd(img, test::stream());
    const Histogram16 got_odd = gpu::histogram(test::session(), ConstDeviceViewU16(odd.ref), false);
    const std::string d2 = first_difference16(cpu::histogram(img.view(), false), got_odd);
    CHECK_MESSAGE(d2.empty(), "unaligned, no luma: ", d2);
}

std::string label_of(int w, int h, int c) { return std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c); }

}  // namespace

TEST_CASE("GPU histogram u16: odd sizes and every layout") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c) check16(test::random_runs_image16(w, h, c, static_cast<unsigned>(w + h * c)), label_of(w, h, c));
}

TEST_CASE("GPU histogram u16: constant images and few values") {
    for (int c = 1; c <= 4; ++c) {
        for (std::uint16_t v : {std::uint16_t{0}, std::uint16_t{257}, std::uint16_t{65535}})
            check16(test::flat_image16(1031, 67, c, v), "constant " + std::to_string(v) + " " + label_of(1031, 67, c));
        check16(test::few_values16(997, 101, c, 3), "few values " + label_of(997, 101, c));
    }
}

// A block's 16-bit counters wrap many times over (each block sees far more
// than 65,535 samples of one value), and two values share every counter word
// (2k and 2k + 1 side by side), so the wrap and the word's two halves are
// both exercised.
TEST_CASE("GPU histogram u16: counters that wrap, values sharing a word") {
    check16(test::flat_image16(4096, 4096, 1, 40001), "constant 4096x4096 gray");
    check16(test::flat_image16(2048, 1024, 3, 65535), "constant 2048x1024 RGB");
    ImageU16 pairs(3001, 2003, 1);
    for (int y = 0; y < pairs.height(); ++y)
        for (int x = 0; x < pairs.width(); ++x) pairs.view().row(y)[x] = static_cast<std::uint16_t>(1000 + ((x + y) & 1));
    check16(pairs, "two neighbouring values 3001x2003 gray");
}

TEST_CASE("GPU histogram u16: a 16 MP image") {
    check16(test::random_runs_image16(4096, 4096, 1, 5), "4096x4096 gray");
    check16(test::random_runs_image16(2003, 1999, 3, 6), "2003x1999 RGB");
}

// --- equalize and threshold -------------------------------------------------------

namespace {

void check_equalize16(const ImageU16& img, EqualizeMode mode, const std::string& label) {
    CAPTURE(label);
    CAPTURE(equalize_mode_name(mode));
    gpu::Session& s = test::session();
    const ImageU16 want = cpu::equalize(img.view(), mode);
    const DeviceViewU16 in = test::upload16(img);
    const DeviceViewU16 out = s.image<std::uint16_t>(gpu::Session::Slot::Output, img.width(), img.height(), img.channels());
    std::string kernel;
    gpu::equalize(s, ConstDeviceViewU16(in), out, mode, &kernel);
    ImageU16 got(img.width(), img.height(), img.channels());
    s.download(ConstDeviceViewU16(out), got.view());
    IMGPAR_CHECK_IMAGES_EQUAL(want, got);
    // In place.
    gpu::equalize(s, ConstDeviceViewU16(in), in, mode);
    ImageU16 in_place(img.width(), img.height(), img.channels());
    s.download(ConstDeviceViewU16(in), in_place.view());
    IMGPAR_CHECK_IMAGES_EQUAL(want, in_place);
}

void check_threshold16(const ImageU16& img, const ThresholdSpec& spec, const std::string& label) {
    CAPTURE(label);
    CAPTURE(spec.otsu);
    CAPTURE(spec.value);
    gpu::Session& s = test::session();
    const int oc = threshold_output_channels(img.channels());
    ImageU16 want(img.width(), img.height(), oc);
    const int t_cpu = cpu::threshold(img.view(), want.view(), spec);
    const DeviceViewU16 in = test::upload16(img);
    const DeviceViewU16 out = s.image<std::uint16_t>(gpu::Session::Slot::Output, img.width(), img.height(), oc);
    const int t_gpu = gpu::threshold(s, ConstDeviceViewU16(in), out, spec);
    ImageU16 got(img.width(), img.height(), oc);
    s.download(ConstDeviceViewU16(out), got.view());
    CHECK(t_gpu == t_cpu);
    IMGPAR_CHECK_IMAGES_EQUAL(want, got);
}

}  // namespace

TEST_CASE("GPU equalize u16: odd sizes, every layout, both modes, in place") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c)
            for (EqualizeMode mode : {EqualizeMode::Luma, EqualizeMode::Channels})
                check_equalize16(test::random_runs_image16(w, h, c, static_cast<unsigned>(w + 3 * h + c)), mode, label_of(w, h, c));
    for (int c = 1; c <= 4; ++c) {
        check_equalize16(test::flat_image16(300, 7, c, 12345), EqualizeMode::Channels, "constant");
        check_equalize16(test::few_values16(1023, 33, c, 2), EqualizeMode::Luma, "few values");
    }
    check_equalize16(test::random_runs_image16(2048, 1536, 3, 4), EqualizeMode::Luma, "2048x1536 RGB");
}

TEST_CASE("GPU threshold u16: fixed levels and Otsu, odd sizes, every layout") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c) {
            const ImageU16 img = test::random_runs_image16(w, h, c, static_cast<unsigned>(7 * w + h + c));
            for (int t : {0, 257, 32767, 65535}) check_threshold16(img, threshold_at_any_depth(t), label_of(w, h, c));
            check_threshold16(img, threshold_otsu(), label_of(w, h, c));
        }
    for (int c = 1; c <= 4; ++c) check_threshold16(test::few_values16(999, 77, c, 5), threshold_otsu(), "few values");
}
