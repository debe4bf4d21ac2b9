// The one 16-to-8-bit reduction that 16-bit PNG and TIFF and 10- and 12-bit
// AVIF loads share (src/io/sample_depth.hpp), and its warning.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "src/io/sample_depth.hpp"

namespace imgpar {

TEST_CASE("sample depth: reduce_sample_16_to_8 is round(v / 257) for every 16-bit value, and undoes v * 257") {
    for (std::uint32_t v = 0; v <= 65535; ++v) {
        const auto expected = static_cast<std::uint8_t>(std::lround(static_cast<double>(v) / 257.0));
        if (reduce_sample_16_to_8(static_cast<std::uint16_t>(v)) != expected) {
            FAIL("v = ", v);
            break;
        }
    }
    for (std::uint32_t b = 0; b < 256; ++b) CHECK(reduce_sample_16_to_8(static_cast<std::uint16_t>(b * 257)) == b);
}

TEST_CASE("sample depth: reduce_to_8_bits reduces every sample of every row; the warning names depth and format") {
    ImageU16 wide(3, 2, 2);
    for (std::size_t i = 0; i < wide.row_samples() * 2; ++i) wide.data()[i] = static_cast<std::uint16_t>(i * 9000);
    const ImageU8 eight = reduce_to_8_bits(wide.cview());
    CHECK(eight.width() == 3);
    CHECK(eight.height() == 2);
    CHECK(eight.channels() == 2);
    for (std::size_t i = 0; i < wide.row_samples() * 2; ++i)
        CHECK(eight.data()[i] == reduce_sample_16_to_8(wide.data()[i]));
    CHECK(depth_reduced_warning(16, "TIFF") == "16-bit TIFF reduced to 8 bits per sample (rounded to nearest)");
    CHECK(depth_reduced_warning(12, "AVIF") == "12-bit AVIF reduced to 8 bits per sample (rounded to nearest)");
}

}  // namespace imgpar
