// The difference sums' last step, shared by the 8- and 16-bit kernels
// (cuda/compare.cu, cuda/compare16.cu): a thread's totals through the warp,
// then the block, then one atomic per total. Integer sums and maxima, so
// the order in which blocks arrive changes nothing.
#pragma once

#include <cuda_runtime.h>

#include "cuda/compare.hpp"

namespace imgpar::cuda::compare_detail {

// v: per channel c, 4c = the largest |a - b|, 4c + 1 = the samples that
// differ, 4c + 2 = the sum of |a - b|, 4c + 3 = the sum of squares; 4C =
// the pixels that differ. Called by every thread of a kThreads block.
template <int C, int kThreads>
__device__ __forceinline__ void add_block_totals(unsigned long long (&v)[4 * C + 1], unsigned long long* totals) {
    constexpr int kWarps = kThreads / 32;
#pragma unroll
    for (int k = 0; k < 4 * C + 1; ++k)
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            const unsigned long long o = __shfl_down_sync(0xFFFFFFFFu, v[k], off);
            v[k] = k < 4 * C && k % 4 == 0 ? (o > v[k] ? o : v[k]) : v[k] + o;
        }
    __shared__ unsigned long long part[kWarps][4 * C + 1];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
#pragma unroll
        for (int k = 0; k < 4 * C + 1; ++k) part[warp][k] = v[k];
    __syncthreads();
    if (threadIdx.x < 4 * C + 1) {
        const int k = threadIdx.x;
        const bool is_max = k < 4 * C && k % 4 == 0;
        unsigned long long s = part[0][k];
        for (int w = 1; w < kWarps; ++w) s = is_max ? (part[w][k] > s ? part[w][k] : s) : s + part[w][k];
        const int slot = k < 4 * C ? k : kDifferenceTotals - 1;
        if (is_max)
            atomicMax(totals + slot, s);
        else if (s != 0)
            atomicAdd(totals + slot, s);
    }
}

}  // namespace imgpar::cuda::compare_detail
