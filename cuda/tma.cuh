// Bulk tensor copies (TMA, compute 9.0+) into shared memory, completed on an
// mbarrier. One thread starts a 2-D box copy with a single instruction, where
// 16-byte cp.async needs one per 16 bytes spread over the block, each with its
// own address arithmetic.
//
// Protocol: thread 0 initializes each barrier once (count 1), then for each
// copy arms it with the bytes to expect and starts the boxes; every thread
// that reads the data waits for the barrier's phase to flip. A barrier's
// k-th completion (k = 0, 1, ...) is waited for with parity k & 1.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "cuda/filter_mma.cuh"  // shared_address

namespace imgpar::cuda::filter_detail {

__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, unsigned count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(count) : "memory");
#else
    (void)bar;
    (void)count;
    __trap();
#endif
}

// Makes initialized barriers visible to the bulk copy unit (then a block
// barrier makes them visible to the other threads).
__device__ __forceinline__ void mbarrier_init_fence() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// Arrives (the one expected arrival) and expects `bytes` of copies to complete on bar.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* bar, unsigned bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)), "r"(bytes)
                 : "memory");
#else
    (void)bar;
    (void)bytes;
    __trap();
#endif
}

// Waits until the barrier's phase with the given parity has completed.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, unsigned parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "wait_%=:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra wait_%=;\n"
        "}\n" ::"r"(shared_address(bar)),
        "r"(parity)
        : "memory");
#else
    (void)bar;
    (void)parity;
    __trap();
#endif
}

// Copies the box at element coordinates (x, y) of a 2-D tensor map into
// shared memory (dst 128-byte aligned, box rows packed), completing on bar.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, int x, int y, std::uint64_t* bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::
            "r"(shared_address(dst)),
        "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(shared_address(bar))
        : "memory");
#else
    (void)dst;
    (void)map;
    (void)x;
    (void)y;
    (void)bar;
    __trap();
#endif
}

}  // namespace imgpar::cuda::filter_detail
