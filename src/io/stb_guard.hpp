// What stb_image (the decoder of PNG without libpng, of JPEG without
// libjpeg-turbo, and of BMP in every build) must not be handed, checked
// before it is: its version 2.27 (Debian 12's) reads some malformed files
// into whatever memory held before (a BMP palette shorter than its pixels'
// indices, or an offset that points into the header), decodes cut files
// silently to black, and reports the wrong channel count for a gray or RGB
// PNG with a transparent colour. JPEG has its own walk (src/io/jpeg_check.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace imgpar {

struct StbGuard {
    std::string problem;    // refuse the file: why ("" when nothing was found)
    std::string truncated;  // the data ends before the image does: how ("" when whole)
};

// A BMP's headers, palette and the extent of its pixel rows.
// `check_indices`: also checks that every pixel of a palette image names an
// entry its palette has (a pass over the pixel data, made only for a
// palette shorter than its depth allows; decoding callers ask for it).
StbGuard check_bmp(const std::uint8_t* data, std::size_t size, bool check_indices);

// A PNG's chunk structure (lengths only: CRCs are not checked here).
struct PngChunks {
    StbGuard guard;
    int color_type = -1;
    int bit_depth = 0;
    bool transparent_color = false;  // a tRNS chunk in a gray or RGB image
};
PngChunks check_png_chunks(const std::uint8_t* data, std::size_t size);

}  // namespace imgpar
