#include "src/io/codec_pixels.hpp"

namespace imgpar {

ImageU8 gray_as_rgb(ConstViewU8 img) {
    const bool alpha = has_alpha(img.channels);
    ImageU8 out(img.width, img.height, alpha ? 4 : 3);
    for (int y = 0; y < img.height; ++y) {
        const std::uint8_t* s = img.row(y);
        std::uint8_t* d = out.view().row(y);
        for (int x = 0; x < img.width; ++x, s += img.channels, d += out.channels()) {
            d[0] = d[1] = d[2] = s[0];
            if (alpha) d[3] = s[1];
        }
    }
    return out;
}

}  // namespace imgpar
