// The colour space a file stores its pixels in, as `imgpar info` reports it:
// what the decoder converts from, which the decoded channel layout does not
// tell (a CMYK JPEG and a palette PNG both decode to RGB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/io/image_format.hpp"

namespace imgpar {

// JPEG: "gray", "YCbCr", "RGB" (an Adobe segment with transform 0, or
// components named R, G, B without JFIF or Adobe segments: libjpeg-turbo's
// rule), "CMYK" (Adobe transform 0, or 4 components without an Adobe
// segment), "YCCK" (Adobe transform 2). PNG: "gray", "gray+alpha", "RGB",
// "RGBA", "palette", with "+tRNS" where a transparency chunk adds alpha to
// gray, RGB or palette. BMP: "palette" (1 to 8 bits a pixel), "RGB" or
// "RGBA" (`channels` decoded). "" when the header cannot tell, and for the
// formats whose readers say it themselves (TIFF, WebP, GIF; AVIF does not).
std::string stored_color_space(ImageFormat format, const std::uint8_t* data, std::size_t size, int channels);

}  // namespace imgpar
