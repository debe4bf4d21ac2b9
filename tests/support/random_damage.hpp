// Decoding files damaged at random: each trial takes the next seed file,
// damages it 1 to 3 times (a byte replaced, set to 0xFF or a bit flipped,
// or the file cut) within its first `head` bytes, and decodes it, every
// other trial with --allow-partial. Each must give an image of the shape
// its header says, or an input error naming the file: never a crash.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/io/load.hpp"

namespace imgpar::test {

inline void decode_damaged(const std::vector<std::vector<std::uint8_t>>& seeds, unsigned seed, int trials,
                           std::size_t head) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < trials; ++trial) {
        std::vector<std::uint8_t> b = seeds[static_cast<std::size_t>(trial) % seeds.size()];
        for (int k = 0; k < 1 + trial % 3; ++k) {
            const std::size_t at = rng() % std::min(b.size(), head);
            switch (rng() % 4) {
                case 0: b[at] = static_cast<std::uint8_t>(rng()); break;
                case 1: b[at] = 0xFF; break;
                case 2: b.resize(std::max<std::size_t>(at, 3)); break;
                default: b[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;
            }
        }
        LoadOptions o;
        o.allow_partial = trial % 2 == 1;
        o.max_pixels = 1 << 20;
        INFO("trial ", trial);
        try {
            const LoadedImage img = decode_image("damaged", b, o);
            CHECK(img.image.width() == img.header.width);
            CHECK(img.image.height() == img.header.height);
            CHECK(img.image.channels() == img.header.channels);
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Input);
            CHECK(std::string(e.what()).find("damaged: ") != std::string::npos);
        }
    }
}

}  // namespace imgpar::test
