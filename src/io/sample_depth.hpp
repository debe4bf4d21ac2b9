// Converting samples between depths, the one rule every 16-bit input
// follows on its way to 8 bits (libpng's png_set_scale_16 for PNG, this
// for TIFF): round(v / 257), exact, so 8-bit values widened by v * 257
// come back unchanged.
#pragma once

#include <cstdint>

#include "src/image.hpp"

namespace imgpar {

// round(v / 257): 257 is odd, so no value lies half-way.
inline std::uint8_t reduce_sample_to_8(std::uint16_t v) {
    return static_cast<std::uint8_t>((2u * v + 257u) / 514u);
}

// The image with each sample reduced by reduce_sample_to_8.
ImageU8 reduce_to_8_bits(ConstViewU16 image);

// The warning a load gives when it reduces: "16-bit TIFF reduced to 8 bits
// per sample (rounded to nearest)", `label` naming the format.
std::string reduced_to_8_bits_warning(const char* label);

}  // namespace imgpar
