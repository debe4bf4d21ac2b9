// 16-bit test images: samples over the whole range 0..65535, with the
// extremes and values that are no multiple of 257 (so no 8-bit image widens
// to them), for the suites that run operations on u16.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "tests/support/test_images.hpp"

namespace imgpar::test {

// Uniform random samples from a fixed seed, 0 and 65535 among them.
inline ImageU16 random_image16(int width, int height, int channels, unsigned seed = 1) {
    ImageU16 img(width, height, channels);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(0, 65535);
    std::uint16_t* p = img.data();
    for (std::size_t i = 0; i < img.sample_count(); ++i) p[i] = static_cast<std::uint16_t>(d(rng));
    p[0] = 0;
    if (img.sample_count() > 1) p[img.sample_count() - 1] = 65535;
    return img;
}

// A photo-like 8-bit image widened, with noise in the low byte: smooth areas,
// edges and every bit in use (alpha layouts: alpha_image's regions, widened).
inline ImageU16 photo_like_image16(int width, int height, int channels, unsigned seed = 1) {
    const ImageU8 base = layout_image(width, height, channels, seed);
    ImageU16 img(width, height, channels);
    std::mt19937 rng(seed + 1000);
    std::uniform_int_distribution<int> low(0, 256);
    for (std::size_t i = 0; i < img.sample_count(); ++i) {
        const int v = base.data()[i] * 257;
        const bool alpha = has_alpha(channels) && i % static_cast<std::size_t>(channels) == static_cast<std::size_t>(channels - 1);
        // Alpha keeps its exact 0 and 65535 regions.
        img.data()[i] = static_cast<std::uint16_t>(alpha && (v == 0 || v == 65535) ? v : std::min(65535, v + low(rng)) - (v == 65535 ? 128 : 0));
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
