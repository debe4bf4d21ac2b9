#include "src/io/sample_depth.hpp"

namespace imgpar {

ImageU8 reduce_to_8_bits(ImageView<const std::uint16_t> image) {
    ImageU8 out(image.width, image.height, image.channels);
    const std::size_t n = image.row_samples();
    for (int y = 0; y < image.height; ++y) {
        const std::uint16_t* s = image.row(y);
        std::uint8_t* d = out.row(y);
        for (std::size_t i = 0; i < n; ++i) d[i] = reduce_sample_16_to_8(s[i]);
    }
    return out;
}

ImageU16 widen_to_16_bits(ImageView<const std::uint8_t> image) {
    ImageU16 out(image.width, image.height, image.channels);
    const std::size_t n = image.row_samples();
    for (int y = 0; y < image.height; ++y) {
        const std::uint8_t* s = image.row(y);
        std::uint16_t* d = out.row(y);
        for (std::size_t i = 0; i < n; ++i) d[i] = static_cast<std::uint16_t>(s[i] * 257u);
    }
    return out;
}

std::string depth_reduced_warning(int bits, const char* format_label) {
    return std::to_string(bits) + "-bit " + format_label + " reduced to 8 bits per sample (rounded to nearest)";
}

}  // namespace imgpar
