// Area resize at whole factors (src/ops/resize_blocks.hpp): each output
// sample is the mean of an fx x fy block of input samples, rounded half up.
// Vectorised for the host's SIMD width with runtime dispatch (Google
// Highway), or plain loops without it; every target gives the plain loops'
// bytes (the unit suite checks each).
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/hd.hpp"

namespace imgpar::simd {

// Division of a 16-bit sum by a constant 1 <= d <= 256, rounded half up,
// as a multiply-high, a subtraction and shifts (the round-up method of
// Granlund and Montgomery): round(v / d) = floor(u / d) with u = v + d / 2
// (d odd has no ties, so floor(d / 2) serves both), for every v <= 255 d.
struct BlockDivider {
    std::uint16_t d = 1;
    std::uint16_t half = 0;
    std::uint16_t magic = 0;  // t = (u * magic) >> 16
    int shift = 0;            // floor(u / d) = (t + ((u - t) >> 1)) >> shift, for d > 1
    static BlockDivider of(int d);
    // The plain form the vectors (and the GPU: cuda/resize_blocks.cu) match.
    IMGPAR_HD std::uint8_t mean(std::uint32_t v) const {
        if (d == 1) return static_cast<std::uint8_t>(v);
        const std::uint32_t u = v + half;
        const std::uint32_t t = (u * magic) >> 16;
        return static_cast<std::uint8_t>((t + ((u - t) >> 1)) >> shift);
    }
};

// acc[s] = sum over t < fy of rows[t][s], for s in [0, n) (fy <= 257).
void block_column_sums(const std::uint8_t* const* rows, int fy, std::size_t n, std::uint16_t* acc);

// out[j C + c] = div.mean(sum over i < fx of acc[(j fx + i) C + c]) for
// output pixels j < count, channels c < C; fx * fy = div.d.
void block_row_means(const std::uint16_t* acc, int channels, int fx, const BlockDivider& div, std::size_t count,
                     std::uint8_t* out);

// The same for fx = 2 and one or three channels straight from the rows
// (no sums in memory: each vector of a row's bytes is read as 16-bit lanes,
// whose two bytes are a block's two pixels, or three planes of them):
// out[j C + c] = div.mean(sum over t < fy, i < 2 of rows[t][(2 j + i) C + c]).
void block_pair_means(const std::uint8_t* const* rows, int fy, int channels, const BlockDivider& div, std::size_t count,
                      std::uint8_t* out);

}  // namespace imgpar::simd
