// JPEGs written by libjpeg-turbo with the settings the Huffman decoders'
// tests vary (quality, luma's sampling, optimized tables, restart
// intervals), and the comparison of two decoders' coefficients. Only for
// builds with libjpeg-turbo (IMGPAR_TEST_LIBJPEG).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "tests/support/jpeg_reference.hpp"

namespace imgpar::test {

struct Encoding {
    int quality = 90;
    int h = 1, v = 1;   // luma's sampling factors (chroma 1 x 1); ignored for gray
    bool optimize = false;
    int restart_mcus = 0, restart_rows = 0;
};

inline std::vector<std::uint8_t> encode(const ImageU8& img, const Encoding& e) {
    const ConstViewU8 view = img.view();
    const bool gray = img.channels() == 1;
    return test::compress_to_memory(
        img.width(), img.height(), img.channels(), gray ? JCS_GRAYSCALE : JCS_RGB,
        [&](jpeg_compress_struct& c) {
            jpeg_set_quality(&c, e.quality, TRUE);
            c.optimize_coding = e.optimize ? TRUE : FALSE;
            if (!gray) {
                c.comp_info[0].h_samp_factor = e.h;
                c.comp_info[0].v_samp_factor = e.v;
            }
            c.restart_interval = static_cast<unsigned>(e.restart_mcus);
            c.restart_in_rows = e.restart_rows;
        },
        [&](jpeg_compress_struct& c) {
            jpeg_start_compress(&c, TRUE);
            test::write_rows(c, view.data, view.stride);
        });
}

// The first coefficient where two decoders' blocks differ, "block b, index i:
// <a> x, <b> y" (or how many blocks each gave), or empty when they agree.
inline std::string coefficient_mismatch(const std::vector<std::int16_t>& a, const std::vector<std::int16_t>& b,
                                        const std::string& a_name, const std::string& b_name) {
    if (a.size() != b.size())
        return "blocks: " + a_name + " " + std::to_string(a.size() / 64) + ", " + b_name + " " + std::to_string(b.size() / 64);
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            return "block " + std::to_string(i / 64) + ", index " + std::to_string(i % 64) + ": " + a_name + " " +
                   std::to_string(a[i]) + ", " + b_name + " " + std::to_string(b[i]);
    return "";
}

}  // namespace imgpar::test
