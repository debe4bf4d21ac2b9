// Area resize at whole factors (src/ops/resize_blocks.hpp): each output
// sample is the mean of an fx x fy block of input samples, rounded half up.
// One template for 8- and 16-bit samples: a block's sums take lanes twice
// the sample's width (16 bits for bytes, 32 for 16-bit samples).
// Vectorised for the host's SIMD width with runtime dispatch (Google
// Highway), or plain loops without it; every target gives the plain loops'
// samples (the unit suite checks each).
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/hd.hpp"

namespace imgpar::simd {

// The lanes a block's sums of samples T take, and the widest product the
// division needs.
template <typename T>
struct BlockLanes;
template <>
struct BlockLanes<std::uint8_t> {
    using Lane = std::uint16_t;
    using Wide = std::uint32_t;
};
template <>
struct BlockLanes<std::uint16_t> {
    using Lane = std::uint32_t;
    using Wide = std::uint64_t;
};

// Division of a block's sum by a constant 1 <= d <= 2^bits (bits: T's
// width: 256 for bytes, 65536 for 16-bit samples), rounded half up, as a
// multiply-high, a subtraction and shifts (the round-up method of Granlund
// and Montgomery) in lanes of L = 2 bits: round(v / d) = floor(u / d) with
// u = v + d / 2 (d odd has no ties, so floor(d / 2) serves both), for every
// v <= (2^bits - 1) d, so u < 2^L: 255 d + 128 < 2^16 for d <= 256, and
// 65535 d + 32768 < 2^32 for d <= 65536.
template <typename T>
struct BlockDividerOf {
    using Lane = typename BlockLanes<T>::Lane;
    using Wide = typename BlockLanes<T>::Wide;
    static constexpr int kLaneBits = 8 * static_cast<int>(sizeof(Lane));
    static constexpr std::uint32_t kMaxDivisor = std::uint32_t{1} << (8 * sizeof(T));
    Lane d = 1;
    Lane half = 0;
    Lane magic = 0;  // t = (u * magic) >> kLaneBits
    int shift = 0;   // floor(u / d) = (t + ((u - t) >> 1)) >> shift, for d > 1
    static BlockDividerOf of(int d);
    // The plain form the vectors (and the GPU: cuda/resize_blocks.cu) match.
    IMGPAR_HD T mean(std::uint32_t v) const {
        if (d == 1) return static_cast<T>(v);
        const std::uint32_t u = v + half;
        const std::uint32_t t = static_cast<std::uint32_t>((static_cast<Wide>(u) * magic) >> kLaneBits);
        return static_cast<T>((t + ((u - t) >> 1)) >> shift);
    }
};
using BlockDivider = BlockDividerOf<std::uint8_t>;
using BlockDivider16 = BlockDividerOf<std::uint16_t>;

// acc[s] = sum over t < fy of rows[t][s], for s in [0, n) (fy <= 257 for
// bytes, fy <= 65537 for 16-bit samples).
void block_column_sums(const std::uint8_t* const* rows, int fy, std::size_t n, std::uint16_t* acc);
void block_column_sums(const std::uint16_t* const* rows, int fy, std::size_t n, std::uint32_t* acc);

// out[j C + c] = div.mean(sum over i < fx of acc[(j fx + i) C + c]) for
// output pixels j < count, channels c < C; fx * fy = div.d.
void block_row_means(const std::uint16_t* acc, int channels, int fx, const BlockDivider& div, std::size_t count,
                     std::uint8_t* out);
void block_row_means(const std::uint32_t* acc, int channels, int fx, const BlockDivider16& div, std::size_t count,
                     std::uint16_t* out);

// The same for fx = 2 and one or three channels straight from the rows
// (no sums in memory: each vector of a row's samples is read as lanes of
// twice their width, whose two halves are a block's two pixels, or three
// planes of them):
// out[j C + c] = div.mean(sum over t < fy, i < 2 of rows[t][(2 j + i) C + c]).
void block_pair_means(const std::uint8_t* const* rows, int fy, int channels, const BlockDivider& div, std::size_t count,
                      std::uint8_t* out);
void block_pair_means(const std::uint16_t* const* rows, int fy, int channels, const BlockDivider16& div,
                      std::size_t count, std::uint16_t* out);

}  // namespace imgpar::simd
