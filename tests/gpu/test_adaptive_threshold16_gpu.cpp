// The 16-bit adaptive threshold on the GPU against the CPU's, byte for byte:
// every method, windows from 1 to wide, odd sizes, every layout, few values
// (flat windows), unaligned device images.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "src/gpu/session.hpp"
#include "src/ops/adaptive_threshold.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/gpu_u16_support.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

void check16(const ImageU16& img, const AdaptiveSpec& spec, bool unaligned) {
    gpu::Session& s = test::session();
    const int oc = threshold_output_channels(img.channels());
    ImageU16 want(img.width(), img.height(), oc);
    cpu::adaptive_threshold(img.view(), want.view(), spec);
    const DeviceViewU16 out = s.image<std::uint16_t>(gpu::Session::Slot::Output, img.width(), img.height(), oc);
    std::string kernel;
    if (unaligned) {
        const test::UnalignedDeviceImage16 odd(img, test::stream());
        gpu::adaptive_threshold(s, ConstDeviceViewU16(odd.ref), out, spec, &kernel);
        ImageU16 got(img.width(), img.height(), oc);
        s.download(ConstDeviceViewU16(out), got.view());  // waits: `odd` may go
        IMGPAR_CHECK_IMAGES_EQUAL(want, got);
        return;
    }
    gpu::adaptive_threshold(s, ConstDeviceViewU16(test::upload16(img)), out, spec, &kernel);
    ImageU16 got(img.width(), img.height(), oc);
    s.download(ConstDeviceViewU16(out), got.view());
    IMGPAR_CHECK_IMAGES_EQUAL(want, got);
    CHECK(!kernel.empty());
}

}  // namespace

TEST_CASE("GPU adaptive threshold u16: every method, window, size and layout") {
    int runs = 0;
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c)
            for (AdaptiveMethod m : {AdaptiveMethod::Mean, AdaptiveMethod::Sauvola, AdaptiveMethod::Niblack})
                for (int window : {1, 3, 15, 63}) {
                    if (window > w || window > h) continue;
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(adaptive_method_name(m));
                    CAPTURE(window);
                    AdaptiveSpec spec;
                    spec.method = m;
                    spec.window = window;
                    spec.offset = runs % 2 ? 7.5 : -200.0;
                    spec.k = m == AdaptiveMethod::Niblack ? -0.3 : 0.25;
                    const ImageU16 img = runs % 3 == 0 ? test::few_values16(w, h, c, static_cast<unsigned>(runs))
                                                       : test::random_runs_image16(w, h, c, static_cast<unsigned>(runs));
                    check16(img, spec, runs % 5 == 0);
                    ++runs;
                }
    CHECK(runs > 100);
}

TEST_CASE("GPU adaptive threshold u16: a wide window on a larger image") {
    AdaptiveSpec spec;
    spec.method = AdaptiveMethod::Sauvola;
    spec.window = 301;
    check16(test::random_runs_image16(1021, 769, 1, 3), spec, false);
    spec.method = AdaptiveMethod::Mean;
    spec.offset = 1000;
    check16(test::random_runs_image16(769, 1021, 3, 4), spec, false);
}
