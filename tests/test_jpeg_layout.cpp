// Reading a JPEG's coding layout from its markers (which files the GPU's
// hardware decoder may take).
#include <doctest/doctest.h>

#include <algorithm>
#include <initializer_list>

#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_layout.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

TEST_CASE("jpeg layout: what imgpar writes, and what it must not send to the hardware") {
    if (!jpeg_codec_available()) return;
    const ImageU8 rgb = test::photo_like_image(33, 17, 3, 1);
    std::vector<std::uint8_t> bytes = jpeg_encode(rgb.view(), 90);
    JpegLayout l = read_jpeg_layout(bytes.data(), bytes.size());
    CHECK(l.valid);
    CHECK(l.frame_marker == 0xC0);
    CHECK(l.precision == 8);
    CHECK(l.components == 3);
    CHECK(l.width == 33);
    CHECK(l.height == 17);
    CHECK(l.jfif);
    CHECK(l.ycbcr_huffman_8bit());
    CHECK(l.chroma_layout() == ChromaLayout::H2V2);  // quality 90: 4:2:0
    const std::vector<std::uint8_t> q95 = jpeg_encode(rgb.view(), 95);
    CHECK(read_jpeg_layout(q95.data(), q95.size()).chroma_layout() == ChromaLayout::Full);  // above 90: 4:4:4
    for (ChromaSubsampling c : {ChromaSubsampling::S420, ChromaSubsampling::S422}) {
        const std::vector<std::uint8_t> sub = jpeg_encode(rgb.view(), 90, c);
        const JpegLayout sl = read_jpeg_layout(sub.data(), sub.size());
        CHECK(sl.ycbcr_huffman_8bit());
        CHECK(sl.chroma_layout() == (c == ChromaSubsampling::S420 ? ChromaLayout::H2V2 : ChromaLayout::H2V1));
        CHECK(sl.sampling_h[0] == 2);
        CHECK(sl.sampling_v[0] == (c == ChromaSubsampling::S420 ? 2 : 1));
    }

    const ImageU8 gray = test::photo_like_image(8, 8, 1, 2);
    const std::vector<std::uint8_t> g = jpeg_encode(gray.view(), 90);
    CHECK(read_jpeg_layout(g.data(), g.size()).components == 1);
    CHECK_FALSE(read_jpeg_layout(g.data(), g.size()).chroma_layout());
    CHECK_FALSE(read_jpeg_layout(g.data(), g.size()).ycbcr_huffman_8bit());

    // Progressive: the frame marker says so.
    std::vector<std::uint8_t> p = bytes;
    for (std::size_t i = 2; i + 1 < p.size(); ++i)
        if (p[i] == 0xFF && p[i + 1] == 0xC0) {
            p[i + 1] = 0xC2;
            break;
        }
    CHECK(read_jpeg_layout(p.data(), p.size()).frame_marker == 0xC2);
    CHECK_FALSE(read_jpeg_layout(p.data(), p.size()).ycbcr_huffman_8bit());

    // Not a JPEG, or cut before the frame header: not valid, never read past the end.
    const std::uint8_t png[] = {0x89, 'P', 'N', 'G', 0, 0, 0, 0};
    CHECK_FALSE(read_jpeg_layout(png, sizeof png).valid);
    for (std::size_t n = 0; n < 40 && n < bytes.size(); ++n) CHECK_FALSE(read_jpeg_layout(bytes.data(), n).valid);

    // An Adobe segment that says "no colour transform" (RGB stored as is).
    JpegLayout adobe = l;
    adobe.adobe_transform = 0;
    CHECK_FALSE(adobe.ycbcr_huffman_8bit());
    JpegLayout rgb_ids = l;
    rgb_ids.jfif = false;
    rgb_ids.component_ids[0] = 'R';
    rgb_ids.component_ids[1] = 'G';
    rgb_ids.component_ids[2] = 'B';
    CHECK_FALSE(rgb_ids.ycbcr_huffman_8bit());

    // Layouts libjpeg-turbo upsamples otherwise (4:1:1, 4:4:0, chroma planes
    // sampled unlike each other, chroma finer than luma) have no ChromaLayout.
    const auto layout_of = [&](std::initializer_list<int> h, std::initializer_list<int> v) {
        JpegLayout s = l;
        std::copy(h.begin(), h.end(), s.sampling_h);
        std::copy(v.begin(), v.end(), s.sampling_v);
        return s.chroma_layout();
    };
    CHECK(layout_of({2, 2, 2}, {2, 2, 2}) == ChromaLayout::Full);
    CHECK(layout_of({2, 1, 1}, {2, 2, 2}) == ChromaLayout::H2V1);
    CHECK_FALSE(layout_of({4, 1, 1}, {1, 1, 1}));
    CHECK_FALSE(layout_of({1, 1, 1}, {2, 1, 1}));
    CHECK_FALSE(layout_of({2, 1, 2}, {2, 1, 1}));
    CHECK_FALSE(layout_of({1, 2, 2}, {1, 1, 1}));
}
