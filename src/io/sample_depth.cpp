#include "src/io/sample_depth.hpp"

#include <string>

namespace imgpar {

ImageU8 reduce_to_8_bits(ConstViewU16 image) {
    ImageU8 out(image.width, image.height, image.channels);
    const std::size_t n = image.row_samples();
    for (int y = 0; y < image.height; ++y) {
        const std::uint16_t* s = image.row(y);
        std::uint8_t* d = out.row(y);
        for (std::size_t i = 0; i < n; ++i) d[i] = reduce_sample_to_8(s[i]);
    }
    return out;
}

std::string reduced_to_8_bits_warning(const char* label) {
    return std::string("16-bit ") + label + " reduced to 8 bits per sample (rounded to nearest)";
}

}  // namespace imgpar
