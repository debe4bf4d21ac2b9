// 16-bit test images for the report and threshold suites: samples over the whole 0..65535 range, with 0 and
// 65535 always present and most values not multiples of 257 (so a value
// widened from 8 bits is no stand-in), plus flat runs (equal neighbours,
// which the GPU histogram merges) and the sizes the 16-bit suites sweep.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "src/image.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test {

// Random samples from a fixed seed: uniform over 0..65535, except that
// sample 0 is 0, the last sample is 65535, and about one pixel in eight
// repeats its left neighbour.
inline ImageU16 random_runs_image16(int width, int height, int channels, unsigned seed = 1) {
    ImageU16 img(width, height, channels);
    std::mt19937 rng(seed);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < channels; ++c) {
                const bool repeat = x > 0 && rng() % 8 == 0;
                img.at(x, y, c) = repeat ? img.at(x - 1, y, c) : static_cast<std::uint16_t>(rng() & 0xFFFFu);
            }
    img.data()[0] = 0;
    img.data()[img.sample_count() - 1] = 65535;
    return img;
}

// Every sample = value.
inline ImageU16 flat_image16(int width, int height, int channels, std::uint16_t value) {
    ImageU16 img(width, height, channels);
    img.fill(value);
    return img;
}

// A few values only (0, 1, 256, 257, 32767, 65534, 65535): ties for the
// extremes, the mode and the median.
inline ImageU16 few_values16(int width, int height, int channels, unsigned seed = 1) {
    static const std::uint16_t values[] = {0, 1, 256, 257, 32767, 65534, 65535};
    ImageU16 img(width, height, channels);
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < img.sample_count(); ++i) img.data()[i] = values[rng() % 7];
    return img;
}

// The awkward sizes (1x1, 1xN, Nx1, primes, tile sizes +-1) and a few wider ones.
inline std::vector<std::pair<int, int>> report_sizes16() {
    std::vector<std::pair<int, int>> sizes = awkward_sizes();
    for (std::pair<int, int> s : std::vector<std::pair<int, int>>{{255, 257}, {511, 3}, {3, 511}, {1021, 7}, {8, 1031}})
        sizes.push_back(s);
    return sizes;
}

}  // namespace imgpar::test
