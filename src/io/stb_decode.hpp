// stb_image behind imgpar's guards (src/io/jpeg_check.hpp,
// src/io/stb_guard.hpp): the decoder of PNG in builds without libpng, of
// JPEG without libjpeg-turbo, and of BMP in every build. Each call's failure
// reason is its own: stb keeps the last reason in a variable that nothing
// resets, so a file that fails without setting one would show another
// file's ("Corrupt JPEG" for a PNG).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/image_format.hpp"

namespace imgpar {

struct StbHeader {
    int width = 0;
    int height = 0;
    int channels = 0;  // as decoded: a gray or RGB PNG with a transparent colour gains alpha
    bool sixteen_bit = false;
};

// The header as stb reads it, through the reader of `format` alone (so the
// reason for a failure is that format's). `transparent_color`: the PNG has a
// tRNS chunk for its gray or RGB pixels (src/io/stb_guard.hpp). Throws
// imgpar::Error (input) naming `name`.
StbHeader stb_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes, ImageFormat format,
                          bool transparent_color);

// Decodes the whole image, as stb_read_header described it, to 8 bits per
// sample: 16-bit samples are rounded to nearest (round(v / 257), as libpng's
// png_set_scale_16 and ImageMagick do), not truncated as stb's own 8-bit
// path does. `zero_fill`: stb's buffers start zeroed, so parts of a partial
// file that no data reaches decode black, never to memory another file
// left. Throws imgpar::Error (input) naming `name`.
ImageU8 stb_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, ImageFormat format,
                   const StbHeader& header, bool zero_fill);

// round(v / 257) in integers: what a 16-bit sample becomes in 8 bits.
inline std::uint8_t scale_16_to_8(unsigned v) { return static_cast<std::uint8_t>((v * 255u + 32895u) >> 16); }

}  // namespace imgpar
