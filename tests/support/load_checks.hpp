// Helpers of the loading tests: files as byte vectors, the message of the
// input error a load throws (error_capture.hpp), decoding with --allow-partial, PSNR.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/io/load.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/error_capture.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test {

inline std::vector<std::uint8_t> file_vector(const std::string& path) {
    const std::string s = read_bytes(path);
    return std::vector<std::uint8_t>(s.begin(), s.end());
}

inline LoadOptions partial_load() {
    LoadOptions o;
    o.allow_partial = true;
    return o;
}

// The decoded image of `bytes`, with its warnings.
inline LoadedImage decode_bytes(const std::vector<std::uint8_t>& bytes, const LoadOptions& o = {}) {
    return decode_image("test", bytes, o);
}

// 10 log10(255^2 / MSE) over every sample of two images of one shape (99
// when equal).
inline double psnr_u8(const ImageU8& a, const ImageU8& b) {
    REQUIRE(a.size_bytes() == b.size_bytes());
    double sum = 0;
    for (std::size_t i = 0; i < a.size_bytes(); ++i) {
        const double d = static_cast<double>(a.data()[i]) - static_cast<double>(b.data()[i]);
        sum += d * d;
    }
    if (sum == 0) return 99;
    return 10 * std::log10(255.0 * 255.0 * static_cast<double>(a.size_bytes()) / sum);
}

}  // namespace imgpar::test
