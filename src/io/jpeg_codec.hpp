// JPEG through libjpeg-turbo (its libjpeg API), where the build found it
// (IMGPAR_HAVE_LIBJPEG): 3-10x faster than stb's codec, with the pixels that
// OpenCV, libvips and ImageMagick decode. Without it, load.cpp and save.cpp
// use stb.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"

namespace imgpar {

// Whether JPEG goes through libjpeg-turbo in this build.
bool jpeg_codec_available();

// "libjpeg-turbo 2.1.5" or "stb_image": what reads and writes JPEG here.
std::string jpeg_codec_name();

// Decodes a whole JPEG to gray or RGB (CMYK converted to RGB), whose header
// the caller has read and checked as width x height: a frame of another size
// is refused before anything is allocated. Throws imgpar::Error (input)
// naming `name` when the data is corrupt; recoverable damage (libjpeg's
// warnings) goes to `warnings`.
ImageU8 jpeg_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                    std::vector<std::string>& warnings);

// Encodes gray (1 channel) or RGB (3); alpha is the caller's to drop.
// Chroma: full resolution above quality 90, halved both ways at 90 and below
// (what imgpar's JPEGs have always had).
std::vector<std::uint8_t> jpeg_encode(ConstViewU8 image, int quality);

}  // namespace imgpar
