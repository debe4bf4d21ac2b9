// GPU adaptive threshold against the CPU reference: byte-identical images for
// every method, window sizes from 1 to the image's side, every channel
// layout, awkward sizes and a 16 MP page; bad windows refused alike.
#include <doctest/doctest.h>

#include <string>

#include "src/error.hpp"
#include "src/gpu/session.hpp"
#include "src/ops/adaptive_threshold.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/adaptive_cases.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

ImageU8 cpu_run(const ImageU8& img, const AdaptiveSpec& spec) {
    ImageU8 out(img.width(), img.height(), threshold_output_channels(img.channels()));
    cpu::adaptive_threshold(img.view(), out.view(), spec);
    return out;
}

ImageU8 gpu_run(const ImageU8& img, const AdaptiveSpec& spec) {
    return gpu::run_on_images(test::session(), img.view(), threshold_output_channels(img.channels()),
                              [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
                                  gpu::adaptive_threshold(test::session(), in, out, spec);
                              });
}

}  // namespace

TEST_CASE("gpu adaptive threshold: every method, window and layout gives the CPU's bytes") {
    const int runs = test::for_each_adaptive_case(
        // A warp's strip decides 256, 240, 224 or 192 columns (windows 19-63):
        // one past each, and past a block's four strips of 240; 70 and 97 rows
        // cross bands of 32. The tensor-core mean kernel's tiles are 128 x 64
        // (windows up to 17), each warp's 32 columns: 65 x 81, 63 x 127,
        // 129 x 65 and 257 x 129 cross them.
        {{1, 1}, {1, 37}, {37, 1}, {17, 13}, {33, 31}, {131, 67}, {257, 129}, {129, 65}, {128, 193}, {241, 70},
         {225, 97}, {193, 64}, {961, 35}, {65, 81}, {63, 127}},
        // 17: the tensor-core kernel's widest, 19 the strips' narrowest; 63:
        // the fused kernel's widest window; 65 and up: through the tables.
        {1, 3, 5, 15, 17, 19, 31, 63, 65, 129},
        [](const ImageU8& img, const AdaptiveSpec& spec) { IMGPAR_CHECK_IMAGES_EQUAL(cpu_run(img, spec), gpu_run(img, spec)); });
    MESSAGE(runs, " images compared");
}

TEST_CASE("gpu adaptive threshold: a 16 MP image, large windows; a window larger than the image refused alike") {
    const ImageU8 page = test::photo_like_image(4096, 4096, 1, 21);
    for (AdaptiveMethod m : {AdaptiveMethod::Mean, AdaptiveMethod::Sauvola, AdaptiveMethod::Niblack}) {
        CAPTURE(adaptive_method_name(m));
        AdaptiveSpec spec;
        spec.method = m;
        spec.window = 51;
        IMGPAR_CHECK_IMAGES_EQUAL(cpu_run(page, spec), gpu_run(page, spec));
    }
    AdaptiveSpec mean17;  // the tensor-core kernel's widest window
    mean17.window = 17;
    mean17.offset = 3;
    IMGPAR_CHECK_IMAGES_EQUAL(cpu_run(page, mean17), gpu_run(page, mean17));
    const ImageU8 page_rgb = test::photo_like_image(2999, 2001, 3, 22);
    IMGPAR_CHECK_IMAGES_EQUAL(cpu_run(page_rgb, mean17), gpu_run(page_rgb, mean17));
    AdaptiveSpec big;
    big.window = 2047;
    const ImageU8 wide = test::photo_like_image(2047, 2047, 3, 4);
    IMGPAR_CHECK_IMAGES_EQUAL(cpu_run(wide, big), gpu_run(wide, big));
    const ImageU8 small = test::photo_like_image(40, 30, 1, 5);
    AdaptiveSpec too_big;
    too_big.window = 31;
    CHECK_THROWS_AS(cpu_run(small, too_big), Error);
    CHECK_THROWS_AS(gpu_run(small, too_big), Error);
}
