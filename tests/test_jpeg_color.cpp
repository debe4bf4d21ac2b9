// src/io/jpeg_color.hpp against libjpeg-turbo itself: libjpeg-turbo's raw
// component planes (its IDCT output, what the GPU's hardware decoder hands
// over), upsampled and converted pixel by pixel, must give exactly the
// pixels libjpeg-turbo decodes, for every chroma layout and for sizes whose
// chroma planes are odd, one or two samples wide, or a single row.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_color.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/io/load.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;

#if IMGPAR_TEST_LIBJPEG
namespace {

using test::Plane;
using test::raw_planes;

// Planes through jpeg_color.hpp, compared with libjpeg-turbo's own decode;
// the first mismatch is reported as (x, y, channel, libjpeg-turbo, planes).
void check_planes_give_pixels(const ImageU8& source, int quality, ChromaSubsampling chroma) {
    const std::vector<std::uint8_t> jpeg = jpeg_encode(source.view(), quality, chroma, nullptr, false);
    const std::optional<ChromaLayout> layout = read_jpeg_layout(jpeg.data(), jpeg.size()).chroma_layout();
    REQUIRE(layout);
    const ImageU8 expected = decode_image("test.jpg", jpeg, LoadOptions{}).image;
    const std::vector<Plane> planes = raw_planes(jpeg);
    REQUIRE(planes.size() == 3);
    const ChromaPlane cb{planes[1].data.data(), planes[1].pitch, planes[1].width, planes[1].height};
    const ChromaPlane cr{planes[2].data.data(), planes[2].pitch, planes[2].width, planes[2].height};
    for (int y = 0; y < source.height(); ++y)
        for (int x = 0; x < source.width(); ++x) {
            std::uint8_t rgb[3];
            const int luma = planes[0].data[static_cast<std::size_t>(y) * planes[0].pitch + static_cast<std::size_t>(x)];
            ycbcr_to_rgb(luma, upsampled_chroma(cb, *layout, x, y), upsampled_chroma(cr, *layout, x, y), rgb);
            for (int c = 0; c < 3; ++c)
                if (rgb[c] != expected.at(x, y, c)) {
                    char where[160];
                    std::snprintf(where, sizeof where, "%dx%d, mismatch at (x %d, y %d, channel %d): libjpeg-turbo %d, planes %d",
                                  source.width(), source.height(), x, y, c, expected.at(x, y, c), rgb[c]);
                    FAIL(where);
                }
        }
}

}  // namespace

TEST_CASE("jpeg colour: libjpeg-turbo's planes upsampled and converted are libjpeg-turbo's pixels") {
    const int sizes[][2] = {{1, 1},  {2, 1},   {3, 2},  {4, 4},   {5, 3},   {1, 37}, {37, 1}, {6, 7},
                            {15, 9}, {16, 16}, {17, 17}, {31, 33}, {33, 31}, {97, 61}, {250, 3}};
    for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420})
        for (const auto& s : sizes)
            for (int quality : {75, 100}) {
                CAPTURE(static_cast<int>(chroma));
                CAPTURE(quality);
                check_planes_give_pixels(test::photo_like_image(s[0], s[1], 3, 7), quality, chroma);
                check_planes_give_pixels(test::random_image(s[0], s[1], 3, 11), quality, chroma);
            }
    // Larger: many MCU rows, saturated colours (the clamps of the conversion).
    check_planes_give_pixels(test::photo_like_image(1031, 517, 3, 3), 95, ChromaSubsampling::S420);
    check_planes_give_pixels(test::random_image(641, 363, 3, 5), 90, ChromaSubsampling::S422);
}

#else
TEST_CASE("jpeg colour: libjpeg-turbo's planes (not checked: this build has no libjpeg-turbo)") {
    MESSAGE("built without libjpeg-turbo: the planes-to-pixels arithmetic is not compared");
}
#endif
