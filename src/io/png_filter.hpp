// PNG row filters (the five predictors of the PNG specification, section 9)
// and the per-row choice between them that the encoder makes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace imgpar {

// How the encoder picks each row's filter.
enum class PngFilterChoice {
    None,      // type 0 on every row: for stored (uncompressed) output, where filtering gains nothing
    Adaptive,  // per row, the type whose output has the smallest sum of |signed byte|
};

// Filters one row of `length` bytes into out[0] (the filter type) and
// out[1..length]. `prev` is the row above, or null for the first row (the
// specification's row of zeros). `bpp` is the bytes per pixel (1 to 4 for
// 8-bit samples). `scratch` is reused between calls to avoid allocating.
//
// The adaptive choice is the minimum-sum-of-absolute-differences heuristic
// the PNG specification recommends (section 12.8) and libpng uses: treating
// each filtered byte as signed, the row with the smallest sum of magnitudes
// tends to deflate best. Ties go to the lower filter type, so the output
// depends only on the pixels.
void png_filter_row(const std::uint8_t* row, const std::uint8_t* prev, std::size_t length, int bpp,
                    PngFilterChoice choice, std::uint8_t* out, std::vector<std::uint8_t>& scratch);

}  // namespace imgpar
