// Samples of more than 8 bits (16-bit PNG and TIFF, 10- and 12-bit AVIF)
// reduced to the 8 bits imgpar's loader delivers today: one rounding rule
// and one warning for every format, so the 16-bit path can take the wide
// samples from the decoders' own functions later, unchanged.
#pragma once

#include <cstdint>
#include <string>

#include "src/image.hpp"

namespace imgpar {

// round(v / 257): 65535 -> 255 exactly, as libpng's png_set_scale_16 (the
// PNG path) and ImageMagick reduce, and 8-bit values widened by v * 257 come
// back unchanged. No ties: 2v + 257 is odd.
constexpr std::uint8_t reduce_sample_16_to_8(std::uint16_t v) {
    return static_cast<std::uint8_t>((2u * v + 257u) / 514u);
}

// Every sample of `image` reduced by reduce_sample_16_to_8.
ImageU8 reduce_to_8_bits(ImageView<const std::uint16_t> image);

// Every sample of `image` widened exactly, v * 257 (0..255 onto 0..65535;
// reduce_to_8_bits gives the image back).
ImageU16 widen_to_16_bits(ImageView<const std::uint8_t> image);

// "16-bit PNG reduced to 8 bits per sample (rounded to nearest)": the one
// warning a file of `bits` (> 8) per sample gets when it loads.
std::string depth_reduced_warning(int bits, const char* format_label);

}  // namespace imgpar
