// 16-bit test images, header-only: samples over the whole 0..65535 range,
// 0 and 65535 included and most values not multiples of 257 (so an 8-bit
// path in disguise would show), with alpha regions transparent, opaque and
// partial for the layouts that have alpha.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "src/image.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test {

// Uniform samples, with every 11th sample 0 and every 13th 65535.
inline ImageU16 random_image16(int width, int height, int channels, unsigned seed = 1) {
    ImageU16 img(width, height, channels);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> any(0, 65535);
    for (std::size_t i = 0; i < img.sample_count(); ++i) {
        int v = any(rng);
        if (i % 11 == 3) v = 0;
        if (i % 13 == 5) v = 65535;
        img.data()[i] = static_cast<std::uint16_t>(v);
    }
    return img;
}

// Smooth 16-bit gradients with an edge and noise: what a filter's float64
// comparison should be run on (random samples make every output a tie-free
// but extreme case; photos are smooth).
inline ImageU16 smooth_image16(int width, int height, int channels, unsigned seed = 1) {
    ImageU16 img(width, height, channels);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> noise(-300, 300);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < channels; ++c) {
                const double fx = static_cast<double>(x) / std::max(1, width - 1);
                const double fy = static_cast<double>(y) / std::max(1, height - 1);
                double v = 65535.0 * (0.5 * fx + 0.3 * fy + 0.2 * ((c + 1) % 3) / 2.0);
                if (x > width / 2 && y < height / 3) v = 65535.0 - v * 0.7;  // a sharp edge
                int s = static_cast<int>(v) + noise(rng);
                img.at(x, y, c) = static_cast<std::uint16_t>(s < 0 ? 0 : s > 65535 ? 65535 : s);
            }
    return img;
}

// random_image16 for the colour; the alpha of 2- and 4-channel images in
// bands: 0, 65535 and partial values (some of them tiny, 1..300).
inline ImageU16 layout_image16(int width, int height, int channels, unsigned seed = 1) {
    ImageU16 img = random_image16(width, height, channels, seed);
    if (channels != 2 && channels != 4) return img;
    std::mt19937 rng(seed * 7 + 1);
    std::uniform_int_distribution<int> any(1, 65534), tiny(1, 300);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int band = (x / 3 + y / 2) % 4;
            img.at(x, y, channels - 1) =
                static_cast<std::uint16_t>(band == 0 ? 0 : band == 1 ? 65535 : band == 2 ? any(rng) : tiny(rng));
        }
    return img;
}

// A photo-like 8-bit image widened, with noise in the low byte: smooth areas,
// edges and every bit in use (alpha layouts: alpha_image's regions, widened,
// their exact 0 and 65535 kept).
inline ImageU16 photo_like_image16(int width, int height, int channels, unsigned seed = 1) {
    const ImageU8 base = layout_image(width, height, channels, seed);
    ImageU16 img(width, height, channels);
    std::mt19937 rng(seed + 1000);
    std::uniform_int_distribution<int> low(0, 256);
    for (std::size_t i = 0; i < img.sample_count(); ++i) {
        const int v = base.data()[i] * 257;
        const bool alpha = has_alpha(channels) && i % static_cast<std::size_t>(channels) == static_cast<std::size_t>(channels - 1);
        const bool extreme = v == 0 || v == 65535;
        img.data()[i] = static_cast<std::uint16_t>(alpha && extreme ? v : v == 65535 ? v - low(rng) : v + low(rng) / 2);
    }
    return img;
}

// Every sample = value.
inline ImageU16 constant_image16(int width, int height, int channels, int value) {
    ImageU16 img(width, height, channels);
    img.fill(static_cast<std::uint16_t>(value));
    return img;
}

// An 8-bit image widened exactly (v * 257).
inline ImageU16 widened(const ImageU8& src) {
    ImageU16 img(src.width(), src.height(), src.channels());
    for (std::size_t i = 0; i < img.sample_count(); ++i) img.data()[i] = static_cast<std::uint16_t>(src.data()[i] * 257);
    return img;
}

}  // namespace imgpar::test
