// How the histogram sweep (cuda/histogram.cu) counts an image into a block's
// shared sub-histogram: each thread's walk over the chunks, and one counter
// per HistogramMerge strategy (cuda/histogram_policy.hpp says what each
// trades). All strategies give identical counts.
//
// The walk is warp-uniform: every lane of a warp runs the same number of
// steps (lanes past the end count nothing), so counters may use warp
// collectives with the full mask at any point of a step.
#pragma once

#include <cstdint>

#include "cuda/histogram_block.cuh"
#include "cuda/histogram_policy.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar::cuda::hist {

// Planes a sweep counts for a C-channel image.
template <int C, bool kChannels, bool kLuma>
constexpr int sweep_planes() {
    return (kChannels ? C : 0) + (kLuma ? 1 : 0);
}

// Calls f(plane, value) for every plane of pixel i of a chunk: the channels
// in order, then luma.
template <int C, bool kChannels, bool kLuma, typename F>
__device__ __forceinline__ void for_each_sample(const Chunk<C>& px, int i, F&& f) {
    constexpr int P = sweep_planes<C, kChannels, kLuma>();
    if constexpr (kChannels) {
#pragma unroll
        for (int c = 0; c < C; ++c) f(c, px.byte(i * C + c));
    }
    if constexpr (kLuma) f(P - 1, luma601(px.byte(i * C), px.byte(i * C + 1), px.byte(i * C + 2)));
}

// Adds `count` to the bins of pixel i in every plane.
template <int C, bool kChannels, bool kLuma>
__device__ __forceinline__ void add_pixel(const Chunk<C>& px, int i, unsigned count, unsigned* hist) {
    for_each_sample<C, kChannels, kLuma>(px, i, [&](int p, int v) { atomicAdd(hist + p * 256 + v, count); });
}

// One atomic per sample of the first n pixels (all 16 when kFull).
template <int C, bool kChannels, bool kLuma, bool kFull>
__device__ __forceinline__ void add_samples(const Chunk<C>& px, int n, unsigned* hist) {
#pragma unroll
    for (int i = 0; i < kChunkPixels; ++i)
        if (kFull || i < n) add_pixel<C, kChannels, kLuma>(px, i, 1u, hist);
}

template <int C, bool kChannels, bool kLuma>
__device__ __forceinline__ void add_samples(const Chunk<C>& px, int n, unsigned* hist) {
    if (n == kChunkPixels)
        add_samples<C, kChannels, kLuma, true>(px, n, hist);
    else
        add_samples<C, kChannels, kLuma, false>(px, n, hist);
}

// --- Uniform chunks ---------------------------------------------------------

// __byte_perm selector that builds word k of a chunk whose pixels all equal
// pixel 0 (bytes 0..C-1 of word 0): byte b of word k is sample (4k + b) % C.
__host__ __device__ constexpr unsigned repeat_selector(int C, int k) {
    unsigned s = 0;
    for (int b = 0; b < 4; ++b) s |= static_cast<unsigned>((4 * k + b) % C) << (4 * b);
    return s;
}

// Whether all 16 pixels of a full chunk equal its first (4C compares).
template <int C>
__device__ __forceinline__ bool chunk_uniform(const Chunk<C>& px) {
    bool same = true;
#pragma unroll
    for (int k = 0; k < 4 * C; ++k) same = same && px.w[k] == __byte_perm(px.w[0], 0u, repeat_selector(C, k));
    return same;
}

// The bytes of pixel 0 (its C samples), for comparing pixels across lanes.
template <int C>
__device__ __forceinline__ unsigned first_pixel(const Chunk<C>& px) {
    if constexpr (C == 4)
        return px.w[0];
    else
        return px.w[0] & ((1u << (8 * C)) - 1u);
}

// --- Counters ---------------------------------------------------------------
//
// count(px, n, hist): counts the first n (0..16) pixels of a chunk; called by
// all 32 lanes of the warp together. finish(hist): adds whatever is still
// held in registers; called by all lanes together after the last step.

template <int C, bool kChannels, bool kLuma, HistogramMerge M>
struct Counter;

// A run of equal values seen by one thread in one plane, not yet counted.
struct Run {
    unsigned value = 0;
    unsigned length = 0;
};

template <int C, bool kChannels, bool kLuma>
struct Counter<C, kChannels, kLuma, HistogramMerge::Runs> {
    static constexpr int P = sweep_planes<C, kChannels, kLuma>();
    Run runs[P];

    // Extends the run, or adds the finished run and starts a new one.
    __device__ __forceinline__ static void push(Run& r, unsigned v, unsigned* plane) {
        if (v == r.value) {
            ++r.length;
        } else {
            if (r.length) atomicAdd(plane + r.value, r.length);
            r.value = v;
            r.length = 1;
        }
    }

    template <bool kFull>
    __device__ __forceinline__ void count_n(const Chunk<C>& px, int n, unsigned* hist) {
#pragma unroll
        for (int i = 0; i < kChunkPixels; ++i)
            if (kFull || i < n)
                for_each_sample<C, kChannels, kLuma>(
                    px, i, [&](int p, int v) { push(runs[p], static_cast<unsigned>(v), hist + p * 256); });
    }

    __device__ __forceinline__ void count(const Chunk<C>& px, int n, unsigned* hist) {
        if (n == kChunkPixels)
            count_n<true>(px, n, hist);
        else
            count_n<false>(px, n, hist);
    }

    // When all lanes' runs have the same value (a constant region), one lane
    // adds their sum: 1 atomic instead of 32 on one address.
    __device__ __forceinline__ void finish(unsigned* hist) {
#pragma unroll
        for (int p = 0; p < P; ++p) {
            Run& r = runs[p];
            unsigned* plane = hist + p * 256;
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
    }
};

template <int C, bool kChannels, bool kLuma>
struct Counter<C, kChannels, kLuma, HistogramMerge::Plain> {
    __device__ __forceinline__ void count(const Chunk<C>& px, int n, unsigned* hist) {
        add_samples<C, kChannels, kLuma>(px, n, hist);
    }
    __device__ __forceinline__ void finish(unsigned*) {}
};

template <int C, bool kChannels, bool kLuma>
struct Counter<C, kChannels, kLuma, HistogramMerge::Uniform> {
    __device__ __forceinline__ void count(const Chunk<C>& px, int n, unsigned* hist) {
        const bool uniform = n == kChunkPixels && chunk_uniform<C>(px);
        const unsigned pixel = first_pixel<C>(px);
        const unsigned lane0 = __shfl_sync(kFullWarp, pixel, 0);
        if (__all_sync(kFullWarp, uniform && pixel == lane0)) {
            // 32 full chunks of one pixel value (luma follows from it).
            if ((threadIdx.x & 31) == 0) add_pixel<C, kChannels, kLuma>(px, 0, 32u * kChunkPixels, hist);
        } else if (uniform) {
            add_pixel<C, kChannels, kLuma>(px, 0, kChunkPixels, hist);
        } else {
            add_samples<C, kChannels, kLuma>(px, n, hist);
        }
    }
    __device__ __forceinline__ void finish(unsigned*) {}
};

template <int C, bool kChannels, bool kLuma>
struct Counter<C, kChannels, kLuma, HistogramMerge::Match> {
    __device__ __forceinline__ void count(const Chunk<C>& px, int n, unsigned* hist) {
        const unsigned lane = threadIdx.x & 31u;
#pragma unroll
        for (int i = 0; i < kChunkPixels; ++i) {
            const bool valid = i < n;
            for_each_sample<C, kChannels, kLuma>(px, i, [&](int p, int v) {
                // A lane with no sample here matches nobody (keys above 255).
                const unsigned key = valid ? static_cast<unsigned>(v) : 256u + lane;
                const unsigned peers = __match_any_sync(kFullWarp, key);
                if (valid && lane == static_cast<unsigned>(__ffs(peers) - 1))
                    atomicAdd(hist + p * 256 + v, static_cast<unsigned>(__popc(peers)));
            });
        }
    }
    __device__ __forceinline__ void finish(unsigned*) {}
};

// --- The walk ---------------------------------------------------------------

// The thread's share of the grid-stride walk over all chunks, counted into
// `hist` (its P x 256 sub-histogram copy). Each step loads U chunks, T
// threads apart (T = all threads of the grid; a warp's loads stay
// coalesced), before counting any, so U loads are in flight per thread. The
// loop condition depends on the warp's first thread only: all lanes run the
// same steps.
template <int C, bool kChannels, bool kLuma, HistogramMerge M, int U>
__device__ __forceinline__ void sweep_chunks(const SweepArgs& a, unsigned* hist) {
    Counter<C, kChannels, kLuma, M> counter;
    const unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    const unsigned long long me = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const unsigned long long warp_first = me - (threadIdx.x & 31u);
    const unsigned long long total = a.grid.total;
    for (unsigned long long base = 0; warp_first + base < total; base += U * threads) {
        Chunk<C> px[U];
        int n[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const unsigned long long k = base + u * threads + me;
            if (k < total) {
                int y, x0;
                locate_chunk(a.grid, static_cast<unsigned>(k), y, x0, n[u]);
                load_chunk<C, true>(a.data + static_cast<std::size_t>(y) * a.pitch + static_cast<std::size_t>(x0) * C,
                                    n[u], a.vec, px[u]);
            } else {
                n[u] = 0;
                px[u].clear();
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u) counter.count(px[u], n[u], hist);
    }
    counter.finish(hist);
}

}  // namespace imgpar::cuda::hist
