// The privatized histogram sweep as templates (cuda/histogram_policy.hpp
// describes the strategies): the kernel, one launch per strategy, and the
// policy check. The product instantiates only its default policies
// (cuda/histogram.cu); the benchmark and the GPU tests instantiate the others
// (cuda/lab/histogram_variants.cu), so the variants the tuning compared do not
// ship.
#pragma once

#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/histogram_block.cuh"
#include "cuda/histogram_count.cuh"
#include "cuda/histogram_launch.hpp"
#include "cuda/histogram_policy.hpp"
#include "cuda/occupancy.hpp"

namespace imgpar::cuda::hist {

// One block: zero its sub-histogram copies, sweep its share of the chunks
// into its thread's copy, merge the copies.
template <int C, bool kChannels, bool kLuma, HistogramMerge M, int U>
__global__ void histogram_sweep_kernel(SweepArgs a, int copies, bool copy_by_lane) {
    extern __shared__ unsigned smem[];
    constexpr int P = sweep_planes<C, kChannels, kLuma>();
    block_zero(smem, copies * copy_stride(P));
    __syncthreads();
    const int copy = static_cast<int>(copy_by_lane ? threadIdx.x : threadIdx.x >> 5) % copies;
    sweep_chunks<C, kChannels, kLuma, M, U>(a, smem + copy * copy_stride(P));
    __syncthreads();
    block_merge(smem, copies, P, a.out);
}

inline void check_policy(const HistogramPolicy& p) {
    if (p.block_threads < 32 || p.block_threads > 1024 || p.block_threads % 32 != 0)
        throw usage_error("histogram policy", "block_threads must be a multiple of 32 from 32 to 1024");
    switch (p.copy_by) {
        case HistogramCopyBy::Warp:
            if (p.copies < 1 || p.copies > p.block_threads / 32)
                throw usage_error("histogram policy", "copies by warp must be from 1 to the number of warps per block");
            break;
        case HistogramCopyBy::Lane:
            if (p.copies < 1 || p.copies > 32)
                throw usage_error("histogram policy", "copies by lane must be from 1 to 32");
            break;
        default: throw usage_error("histogram policy", "copy_by must be Warp or Lane");
    }
    switch (p.merge) {
        case HistogramMerge::Runs:
        case HistogramMerge::Plain:
        case HistogramMerge::Uniform:
        case HistogramMerge::Match: break;
        default: throw usage_error("histogram policy", "merge must be Runs, Plain, Uniform or Match");
    }
    if (p.chunks_per_step != 1 && p.chunks_per_step != 2 && p.chunks_per_step != 4)
        throw usage_error("histogram policy", "chunks_per_step must be 1, 2 or 4");
    if (p.blocks_per_sm < 0) throw usage_error("histogram policy", "blocks_per_sm must be 0 (auto) or positive");
}

// Chunks per step after the cap of 64 bytes per thread (4 / C chunks).
constexpr int effective_steps(int chunks_per_step, int channels) {
    return std::max(1, std::min(chunks_per_step, 4 / channels));
}

template <int C, bool kChannels, bool kLuma, HistogramMerge M, int U>
void launch_sweep_variant(const SweepArgs& a, const HistogramPolicy& policy, cudaStream_t stream) {
    constexpr int P = sweep_planes<C, kChannels, kLuma>();
    auto kernel = histogram_sweep_kernel<C, kChannels, kLuma, M, U>;
    const std::size_t smem = static_cast<std::size_t>(policy.copies) * copy_stride(P) * sizeof(unsigned);
    if (smem > 48 * 1024)
        IMGPAR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), policy.block_threads, smem);
    if (resident < 1) {
        cudaFuncAttributes attr{};
        IMGPAR_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
        throw usage_error("histogram policy",
                          describe(policy) + " cannot run on " + std::to_string(C) + "-channel images: the kernel takes " +
                              std::to_string(attr.numRegs) + " registers per thread (at most " +
                              std::to_string(attr.maxThreadsPerBlock) + " threads per block) and " +
                              std::to_string(smem) + " bytes of shared memory for " + std::to_string(policy.copies) +
                              " copies of " + std::to_string(P) + " planes");
    }
    if (policy.blocks_per_sm > 0) {
        int sms = 0, device = 0;
        IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
        IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        resident = std::min(resident, policy.blocks_per_sm * sms);
    }
    const unsigned long long threads = static_cast<unsigned long long>(policy.block_threads);
    const unsigned long long needed = (a.grid.total + threads - 1) / threads;
    unsigned long long blocks = std::min<unsigned long long>(needed, static_cast<unsigned long long>(resident));
    // Shared counters are 32-bit: keep each block's share under 2^31 pixels.
    // A block's share is at most total / blocks + U * threads chunks, so with
    // this many blocks it is at most 2^30 + 16 * 4 * 1024 pixels.
    const unsigned long long min_blocks =
        (static_cast<unsigned long long>(a.grid.total) * kChunkPixels + (1ull << 30) - 1) >> 30;
    blocks = std::max({blocks, min_blocks, 1ull});
    kernel<<<static_cast<unsigned>(blocks), policy.block_threads, smem, stream>>>(
        a, policy.copies, policy.copy_by == HistogramCopyBy::Lane);
    IMGPAR_CUDA_CHECK_LAUNCH("histogram_sweep_kernel");
}

// The chunks per step the default policy of a C-channel image runs.
constexpr int default_steps(int channels) {
    return effective_steps(default_histogram_policy(channels).chunks_per_step, channels);
}

}  // namespace imgpar::cuda::hist
