// Thread-, warp- and block-level building blocks of the histogram-family
// kernels (cuda/histogram.cu, cuda/histogram_apply.cu): walking an image in
// 16-pixel chunks, moving chunks through registers with 16-byte accesses, and
// the privatized shared-memory histogram with run-length merging.
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

// Loads the n pixels at p (a row pointer plus x0 * C).
template <int C>
__device__ __forceinline__ void load_chunk(const std::uint8_t* p, int n, bool vec, Chunk<C>& ch) {
    if (vec && n == kChunkPixels) {
        const uint4* q = reinterpret_cast<const uint4*>(p);
#pragma unroll
        for (int k = 0; k < C; ++k) {
            const uint4 v = q[k];
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

// --- Privatized histogram ---------------------------------------------------

// A run of equal values seen by one thread in one plane, not yet counted.
struct Run {
    unsigned value = 0;
    unsigned length = 0;
};

// Extends the run, or adds the finished run to `plane` (a 256-bin shared
// sub-histogram) and starts a new one. Neighbouring pixels of photos are
// often equal and constant areas are common, so most pixels cost a compare
// and an increment instead of a shared atomic.
__device__ __forceinline__ void push_value(Run& r, unsigned v, unsigned* plane) {
    if (v == r.value) {
        ++r.length;
    } else {
        if (r.length) atomicAdd(plane + r.value, r.length);
        r.value = v;
        r.length = 1;
    }
}

// Adds every lane's pending run to `plane`. Must be called by all 32 lanes of
// the warp together. When all lanes' runs have the same value (a constant
// region), one lane adds their sum: 1 atomic instead of 32 on one address.
__device__ __forceinline__ void flush_run_warp(Run& r, unsigned* plane) {
    const unsigned leader = __shfl_sync(kFullWarp, r.value, 0);
    const bool same = r.length == 0 || r.value == leader;
    if (__all_sync(kFullWarp, same)) {
        const unsigned total = __reduce_add_sync(kFullWarp, r.length);
        if ((threadIdx.x & 31) == 0 && total) atomicAdd(plane + leader, total);
    } else if (r.length) {
        atomicAdd(plane + r.value, r.length);
    }
    r.length = 0;
}

// Planes a sweep counts for a C-channel image.
template <int C, bool kChannels, bool kLuma>
constexpr int sweep_planes() {
    return (kChannels ? C : 0) + (kLuma ? 1 : 0);
}

// Counts the first n pixels of a chunk (all 16 when kFull) into the runs.
template <int C, bool kChannels, bool kLuma, bool kFull>
__device__ __forceinline__ void count_chunk(const Chunk<C>& px, int n, Run* runs, unsigned* hist) {
    constexpr int P = sweep_planes<C, kChannels, kLuma>();
#pragma unroll
    for (int i = 0; i < kChunkPixels; ++i) {
        if (kFull || i < n) {
            if constexpr (kChannels) {
#pragma unroll
                for (int c = 0; c < C; ++c) push_value(runs[c], static_cast<unsigned>(px.byte(i * C + c)), hist + c * 256);
            }
            if constexpr (kLuma) {
                const int y = luma601(px.byte(i * C), px.byte(i * C + 1), px.byte(i * C + 2));
                push_value(runs[P - 1], static_cast<unsigned>(y), hist + (P - 1) * 256);
            }
        }
    }
}

// The thread's share of the grid-stride walk over all chunks, counted into
// `hist` (this warp's P x 256 sub-histogram). Runs carry across chunks and are
// flushed once at the end, so a constant image adds nothing to shared memory
// until then.
template <int C, bool kChannels, bool kLuma>
__device__ __forceinline__ void sweep_chunks(const SweepArgs& a, unsigned* hist) {
    constexpr int P = sweep_planes<C, kChannels, kLuma>();
    Run runs[P];
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < a.grid.total; k += stride) {
        int y, x0, n;
        locate_chunk(a.grid, k, y, x0, n);
        Chunk<C> px;
        load_chunk<C>(a.data + static_cast<std::size_t>(y) * a.pitch + static_cast<std::size_t>(x0) * C, n, a.vec, px);
        if (n == kChunkPixels)
            count_chunk<C, kChannels, kLuma, true>(px, n, runs, hist);
        else
            count_chunk<C, kChannels, kLuma, false>(px, n, runs, hist);
    }
#pragma unroll
    for (int p = 0; p < P; ++p) flush_run_warp(runs[p], hist + p * 256);
}

// Zeroes `words` shared counters with the whole block.
__device__ __forceinline__ void block_zero(unsigned* smem, int words) {
    for (int i = threadIdx.x; i < words; i += blockDim.x) smem[i] = 0;
}

// Adds the block's `copies` sub-histograms (each planes x 256) into the
// 64-bit global counts, one atomic per non-empty bin.
__device__ __forceinline__ void block_merge(const unsigned* smem, int copies, int planes, unsigned long long* out) {
    const int bins = planes * 256;
    for (int i = threadIdx.x; i < bins; i += blockDim.x) {
        unsigned long long s = 0;
        for (int k = 0; k < copies; ++k) s += smem[k * bins + i];
        if (s) atomicAdd(out + i, s);
    }
}

}  // namespace imgpar::cuda::hist
