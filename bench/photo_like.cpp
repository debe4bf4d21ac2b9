#include "bench/photo_like.hpp"

#include <algorithm>
#include <cstdint>
#include <random>

namespace imgpar::bench {

ImageU8 make_photo_like(int width, int height, int channels, unsigned seed) {
    ImageU8 img(width, height, channels);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> noise(-6, 6);
    for (int y = 0; y < height; ++y) {
        std::uint8_t* row = img.row(y);
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < channels; ++c) {
                // smooth gradients + blocks with edges + sensor-like noise
                int v = (x * (c + 1) * 255 / std::max(1, width - 1) + y * 255 / std::max(1, height - 1)) / 2;
                if (((x >> 6) + (y >> 6)) % 3 == 0) v = 255 - v;
                if (has_alpha(channels) && c == channels - 1) v = ((x >> 5) & 1) ? 255 : ((x * 7 + y) & 255);
                row[x * channels + c] = static_cast<std::uint8_t>(std::clamp(v + noise(rng), 0, 255));
            }
    }
    return img;
}

ImageU16 widen_with_noise(const ImageU8& image, unsigned seed) {
    ImageU16 out(image.width(), image.height(), image.channels());
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < out.sample_count(); ++i) {
        const int v = image.data()[i];
        out.data()[i] = static_cast<std::uint16_t>(v * 257 - (v ? rng() % 257 : 0));
    }
    return out;
}

}  // namespace imgpar::bench
