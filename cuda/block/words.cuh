// Pixel words: the bytes of 4 pixels of one channel plane in a 32-bit word
// (lowest pixel in the lowest byte), and the shared-memory accesses of words.
// The filters stage and convert pixels 4 at a time this way: one byte permute
// splits or joins channels, where byte-wise code would take one instruction
// per sample.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace imgpar::cuda::filter_detail {

__device__ __forceinline__ std::uint32_t load_u32_shared(const std::uint8_t* p) {
    return *reinterpret_cast<const std::uint32_t*>(p);
}
__device__ __forceinline__ void store_u32_shared(std::uint8_t* p, std::uint32_t v) {
    *reinterpret_cast<std::uint32_t*>(p) = v;
}
__device__ __forceinline__ void store_u16_shared(std::uint8_t* p, std::uint32_t v) {
    *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(v);
}

// Byte e (0..3) of a word, and a word from 4 bytes.
__device__ __forceinline__ int byte_of(std::uint32_t w, int e) { return static_cast<int>((w >> (8 * e)) & 0xFFu); }
__device__ __forceinline__ std::uint32_t pack4(int b0, int b1, int b2, int b3) {
    return static_cast<std::uint32_t>(b0) | (static_cast<std::uint32_t>(b1) << 8) |
           (static_cast<std::uint32_t>(b2) << 16) | (static_cast<std::uint32_t>(b3) << 24);
}

// Splits 4 interleaved gray or RGB pixels (4*C bytes in u[0..C-1]) into C
// plane words.
template <int C>
__device__ __forceinline__ void deinterleave(const std::uint32_t (&u)[C], std::uint32_t (&w)[4]) {
    static_assert(C == 1 || C == 3, "gray or RGB: images with alpha run the wide kernels");
    if constexpr (C == 1) {
        w[0] = u[0];
    } else {
        // u0 = r0 g0 b0 r1 | u1 = g1 b1 r2 g2 | u2 = b2 r3 g3 b3
        w[0] = __byte_perm(__byte_perm(u[0], u[1], 0x0630), u[2], 0x5210);
        w[1] = __byte_perm(__byte_perm(u[0], u[1], 0x0741), u[2], 0x6210);
        w[2] = __byte_perm(__byte_perm(u[0], u[1], 0x0052), u[2], 0x7410);
    }
}

// The inverse of deinterleave<3> for 16 pixels: word j (0..11) of their
// interleaved bytes, from the plane words r, g and b (4 pixels per word):
// r0 g0 b0 r1 | g1 b1 r2 g2 | b2 r3 g3 b3, then pixels 4..7 and so on.
__device__ __forceinline__ std::uint32_t interleaved_word(const std::uint32_t (&r)[4], const std::uint32_t (&g)[4],
                                                          const std::uint32_t (&b)[4], int j) {
    const int k = j / 3;
    switch (j % 3) {
        case 0: return __byte_perm(__byte_perm(r[k], g[k], 0x1040), b[k], 0x3410);
        case 1: return __byte_perm(__byte_perm(g[k], b[k], 0x2051), r[k], 0x3610);
        default: return __byte_perm(__byte_perm(b[k], r[k], 0x3072), g[k], 0x3710);
    }
}

}  // namespace imgpar::cuda::filter_detail
