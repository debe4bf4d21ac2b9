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
#include <jpeglib.h>
#endif

using namespace imgpar;

#if IMGPAR_TEST_LIBJPEG
namespace {

struct Plane {
    std::vector<std::uint8_t> data;
    std::size_t pitch = 0;
    int width = 0, height = 0;  // the component's downsampled size
};

// The three component planes as libjpeg-turbo's inverse DCT leaves them.
std::vector<Plane> raw_planes(const std::vector<std::uint8_t>& jpeg) {
    jpeg_decompress_struct d{};
    jpeg_error_mgr err{};
    d.err = jpeg_std_error(&err);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, jpeg.data(), static_cast<unsigned long>(jpeg.size()));
    REQUIRE(jpeg_read_header(&d, TRUE) == JPEG_HEADER_OK);
    d.raw_data_out = TRUE;
    jpeg_start_decompress(&d);
    const int n = d.num_components;
    const int mcu_rows = static_cast<int>((d.output_height + d.max_v_samp_factor * DCTSIZE - 1) /
                                          (d.max_v_samp_factor * DCTSIZE));
    std::vector<Plane> planes(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c) {
        const jpeg_component_info& info = d.comp_info[c];
        Plane& p = planes[static_cast<std::size_t>(c)];
        p.pitch = info.width_in_blocks * DCTSIZE;
        p.width = static_cast<int>(info.downsampled_width);
        p.height = static_cast<int>(info.downsampled_height);
        p.data.resize(p.pitch * static_cast<std::size_t>(mcu_rows * info.v_samp_factor * DCTSIZE));
    }
    std::vector<std::vector<JSAMPROW>> rows(static_cast<std::size_t>(n));
    std::vector<JSAMPARRAY> image(static_cast<std::size_t>(n));
    for (int r = 0; r < mcu_rows; ++r) {
        for (int c = 0; c < n; ++c) {
            const int per = d.comp_info[c].v_samp_factor * DCTSIZE;
            Plane& p = planes[static_cast<std::size_t>(c)];
            auto& list = rows[static_cast<std::size_t>(c)];
            list.resize(static_cast<std::size_t>(per));
            for (int i = 0; i < per; ++i) list[static_cast<std::size_t>(i)] = &p.data[(static_cast<std::size_t>(r) * per + i) * p.pitch];
            image[static_cast<std::size_t>(c)] = list.data();
        }
        REQUIRE(jpeg_read_raw_data(&d, image.data(), static_cast<JDIMENSION>(d.max_v_samp_factor * DCTSIZE)) > 0);
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    return planes;
}

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
