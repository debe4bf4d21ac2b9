// Thread- and block-level building blocks of the histogram-family kernels
// (cuda/histogram.cu, cuda/histogram_apply.cu): walking an image in 16-pixel
// chunks, moving chunks through registers with 16-byte accesses, and the
// block's shared sub-histogram copies (zero, merge). How samples are counted
// into them is cuda/histogram_count.cuh.
//
// Chunks: row y is cut into ceil(width / 16) chunks of 16 pixels (the last
// one may be shorter); chunk k of the image is chunk k % cpr of row k / cpr.
// A full chunk of a C-channel image is 16*C bytes, a multiple of 16, so it
// starts 16-byte aligned whenever the row does: it moves as C 16-byte
// vectors. Short chunks, and rows that are not 16-byte aligned, move byte by
// byte; both go through the same fully unrolled register array.
#pragma once

#include <cstdint>

#include "cuda/histogram_launch.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar::cuda::hist {

constexpr unsigned kFullWarp = 0xffffffffu;

// Position of chunk k: row y, first pixel x0, n pixels (1..16).
__device__ __forceinline__ void locate_chunk(const ChunkGrid& g, unsigned k, int& y, int& x0, int& n) {
    const unsigned row = k / g.chunks_per_row;
    y = static_cast<int>(row);
    x0 = static_cast<int>((k - row * g.chunks_per_row) * kChunkPixels);
    n = min(kChunkPixels, g.width - x0);
}

// 16 pixels of C channels in registers: byte j is sample j % C of pixel j / C.
// Every index is a compile-time constant after unrolling, so this stays in
// registers (no local memory).
template <int C>
struct Chunk {
    std::uint32_t w[4 * C];

    __device__ __forceinline__ int byte(int j) const { return static_cast<int>((w[j >> 2] >> ((j & 3) * 8)) & 0xffu); }
    __device__ __forceinline__ void clear() {
#pragma unroll
        for (int k = 0; k < 4 * C; ++k) w[k] = 0;
    }
    // Sets byte j of a cleared chunk.
    __device__ __forceinline__ void put(int j, int v) { w[j >> 2] |= static_cast<std::uint32_t>(v) << ((j & 3) * 8); }
};

// Loads the n pixels at p (a row pointer plus x0 * C). kReadOnly: through
// the non-coherent read-only path (ld.global.nc), for kernels that never
// write the image (an in-place apply must not use it).
template <int C, bool kReadOnly = false>
__device__ __forceinline__ void load_chunk(const std::uint8_t* p, int n, bool vec, Chunk<C>& ch) {
    if (vec && n == kChunkPixels) {
        const uint4* q = reinterpret_cast<const uint4*>(p);
#pragma unroll
        for (int k = 0; k < C; ++k) {
            const uint4 v = kReadOnly ? __ldg(q + k) : q[k];
            ch.w[4 * k + 0] = v.x;
            ch.w[4 * k + 1] = v.y;
            ch.w[4 * k + 2] = v.z;
            ch.w[4 * k + 3] = v.w;
        }
    } else {
        const int nb = n * C;
#pragma unroll
        for (int k = 0; k < 4 * C; ++k) {
            std::uint32_t word = 0;
#pragma unroll
            for (int b = 0; b < 4; ++b)
                if (4 * k + b < nb) word |= static_cast<std::uint32_t>(p[4 * k + b]) << (8 * b);
            ch.w[k] = word;
        }
    }
}

// Stores the n pixels of ch at p.
template <int C>
__device__ __forceinline__ void store_chunk(std::uint8_t* p, int n, bool vec, const Chunk<C>& ch) {
    if (vec && n == kChunkPixels) {
        uint4* q = reinterpret_cast<uint4*>(p);
#pragma unroll
        for (int k = 0; k < C; ++k) q[k] = make_uint4(ch.w[4 * k], ch.w[4 * k + 1], ch.w[4 * k + 2], ch.w[4 * k + 3]);
    } else {
        const int nb = n * C;
#pragma unroll
        for (int j = 0; j < 16 * C; ++j)
            if (j < nb) p[j] = static_cast<std::uint8_t>(ch.byte(j));
    }
}

// --- Shared sub-histogram copies ---------------------------------------------

// Words between consecutive copies of a P-plane sub-histogram: one more than
// P x 256, so bin b of copy r sits in bank (b + r) % 32 and lanes adding the
// same value to different copies do not collide on a bank.
__host__ __device__ constexpr int copy_stride(int planes) { return planes * 256 + 1; }

// Zeroes `words` shared counters with the whole block.
__device__ __forceinline__ void block_zero(unsigned* smem, int words) {
    for (int i = threadIdx.x; i < words; i += blockDim.x) smem[i] = 0;
}

// Adds the block's `copies` sub-histograms (each planes x 256, copy_stride
// apart) into the 64-bit global counts, one atomic per non-empty bin.
__device__ __forceinline__ void block_merge(const unsigned* smem, int copies, int planes, unsigned long long* out) {
    const int bins = planes * 256;
    const int stride = copy_stride(planes);
    for (int i = threadIdx.x; i < bins; i += blockDim.x) {
        unsigned long long s = 0;
        for (int k = 0; k < copies; ++k) s += smem[k * stride + i];
        if (s) atomicAdd(out + i, s);
    }
}

}  // namespace imgpar::cuda::hist
