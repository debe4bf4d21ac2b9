// Thread-level building blocks of the geometry kernels (cuda/geometry.cu):
// chunks of 16 pixels (hist::Chunk, cuda/histogram_block.cuh) loaded from any
// byte offset of a 16-byte aligned row, filled with one pixel, or reversed.
#pragma once

#include <cstdint>

#include "cuda/histogram_block.cuh"

namespace imgpar::cuda::geo {

using hist::Chunk;
using hist::kChunkPixels;

// Word i + q of w, for a run-time q in 0..3: a select over constant indices,
// so w stays in registers.
template <int N>
__device__ __forceinline__ std::uint32_t word_at(const std::uint32_t (&w)[N], int i, int q) {
    return q == 0 ? w[i] : q == 1 ? w[i + 1] : q == 2 ? w[i + 2] : w[i + 3];
}

// The 16 C bytes at byte `offset` of `row` (16-byte aligned), whatever the
// offset's alignment: C aligned 16-byte loads (one more when the offset is
// not a multiple of 16) through the read-only path, then funnel shifts. Every
// vector read holds at least one of the bytes asked for, so it lies within
// the row's pitch (the caller guarantees the bytes lie in the row).
template <int C>
__device__ __forceinline__ void load_shifted(const std::uint8_t* row, std::size_t offset, Chunk<C>& ch) {
    const uint4* base = reinterpret_cast<const uint4*>(row + (offset & ~static_cast<std::size_t>(15)));
    const int s = static_cast<int>(offset & 15);
    std::uint32_t w[4 * C + 4];
#pragma unroll
    for (int k = 0; k < C; ++k) {
        const uint4 v = __ldg(base + k);
        w[4 * k] = v.x;
        w[4 * k + 1] = v.y;
        w[4 * k + 2] = v.z;
        w[4 * k + 3] = v.w;
    }
    if (s == 0) {
#pragma unroll
        for (int k = 0; k < 4 * C; ++k) ch.w[k] = w[k];
        return;
    }
    const uint4 v = __ldg(base + C);
    w[4 * C] = v.x;
    w[4 * C + 1] = v.y;
    w[4 * C + 2] = v.z;
    w[4 * C + 3] = v.w;
    const int q = s >> 2, r = (s & 3) * 8;
#pragma unroll
    for (int i = 0; i < 4 * C; ++i) ch.w[i] = __funnelshift_r(word_at(w, i, q), word_at(w, i + 1, q), r);
}

// A chunk of 16 copies of one pixel.
template <int C>
__device__ __forceinline__ void fill_chunk(const std::uint8_t (&pixel)[4], Chunk<C>& ch) {
    ch.clear();
#pragma unroll
    for (int i = 0; i < kChunkPixels; ++i)
#pragma unroll
        for (int c = 0; c < C; ++c) ch.put(i * C + c, pixel[c]);
}

// out's pixel i is in's pixel 15 - i.
template <int C>
__device__ __forceinline__ void reverse_chunk(const Chunk<C>& in, Chunk<C>& out) {
    if constexpr (C == 1) {
#pragma unroll
        for (int k = 0; k < 4; ++k) out.w[k] = __byte_perm(in.w[3 - k], 0, 0x0123);
    } else if constexpr (C == 2) {
#pragma unroll
        for (int k = 0; k < 8; ++k) out.w[k] = __byte_perm(in.w[7 - k], 0, 0x1032);
    } else if constexpr (C == 4) {
#pragma unroll
        for (int k = 0; k < 16; ++k) out.w[k] = in.w[15 - k];
    } else {
        out.clear();
#pragma unroll
        for (int i = 0; i < kChunkPixels; ++i)
#pragma unroll
            for (int c = 0; c < C; ++c) out.put(i * C + c, in.byte((kChunkPixels - 1 - i) * C + c));
    }
}

}  // namespace imgpar::cuda::geo
