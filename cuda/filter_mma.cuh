// The tensor-core and asynchronous-copy instructions the separable filters
// use, wrapped so the kernels read as ordinary C++.
//
// Integer MMA is exact: u8 x u8 products summed in s32.
//
// mma.sync.m16n8k32 (u8, s32 accumulate), per warp D[16x8] += A[16x32] B[32x8].
// Lane l holds (g = l / 4, t = l % 4):
//   A (row-major, 4 regs of 4 bytes): a0 = A[g][4t..4t+3],    a1 = A[g+8][4t..4t+3],
//                                     a2 = A[g][16+4t..+3],   a3 = A[g+8][16+4t..+3]
//   B (column-major, 2 regs):         b0 = B[4t..4t+3][g],    b1 = B[16+4t..16+4t+3][g]
//   D (4 regs):                       d0 = D[g][2t], d1 = D[g][2t+1], d2 = D[g+8][2t], d3 = D[g+8][2t+1]
// Within a register the lowest byte holds the lowest index.
#pragma once

#include <cstdint>

namespace imgpar::cuda::filter_detail {

// The 32-bit shared-state-space address of a pointer into shared memory, as
// the instructions below take it.
__device__ __forceinline__ unsigned shared_address(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// A's and B's bytes unsigned (u8) or signed (s8).
template <bool kSignedA, bool kSignedB = false>
__device__ __forceinline__ void mma_x8_m16n8k32(int (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                                std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define IMGPAR_MMA_X8(AT, BT)                                                                                      \
    asm("mma.sync.aligned.m16n8k32.row.col.s32." AT "." BT ".s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n" \
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                                            \
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1))
    if constexpr (kSignedA && kSignedB)
        IMGPAR_MMA_X8("s8", "s8");
    else if constexpr (kSignedA)
        IMGPAR_MMA_X8("s8", "u8");
    else if constexpr (kSignedB)
        IMGPAR_MMA_X8("u8", "s8");
    else
        IMGPAR_MMA_X8("u8", "u8");
#undef IMGPAR_MMA_X8
#else
    // The dispatchers never select a tensor-core kernel below compute 8.0.
    (void)d;
    (void)a;
    (void)b0;
    (void)b1;
    __trap();
#endif
}

__device__ __forceinline__ void mma_u8_m16n8k32(int (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                                std::uint32_t b1) {
    mma_x8_m16n8k32<false>(d, a, b0, b1);
}

// The same over K = 16: A is a0, a1 (or a2, a3) of the m16n8k32 layout, B
// one register.
__device__ __forceinline__ void mma_u8_m16n8k16(int (&d)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t b0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a0), "r"(a1), "r"(b0));
#else
    (void)d;
    (void)a0;
    (void)a1;
    (void)b0;
    __trap();
#endif
}

// mma.sync.m16n8k16 (f16 inputs, f32 accumulate), per warp D[16x8] += A[16x16] B[16x8].
// Lane l holds (g = l / 4, t = l % 4), two f16 per register, lower index in
// the low half:
//   A (row-major, 4 regs): a0 = A[g][2t..2t+1],   a1 = A[g+8][2t..2t+1],
//                          a2 = A[g][2t+8..2t+9], a3 = A[g+8][2t+8..2t+9]
//   B (column-major, 2):   b0 = B[2t..2t+1][g],   b1 = B[2t+8..2t+9][g]
//   D (4 floats):          d0 = D[g][2t], d1 = D[g][2t+1], d2 = D[g+8][2t], d3 = D[g+8][2t+1]
// Products of f16 values are exact in f32; the filters only feed it integers
// whose every partial sum stays below 2^23, so the accumulation is exact too.
__device__ __forceinline__ void mma_f16_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                                 std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    (void)d;
    (void)a;
    (void)b0;
    (void)b1;
    __trap();
#endif
}

// ldmatrix.x4: four 8x8 matrices of 16-bit elements from shared memory. Lanes
// 8q..8q+7 give the addresses of the 8 rows (16 bytes each, 16-byte aligned)
// of matrix q; lane l receives, from each matrix q, row l / 4, elements
// 2(l % 4) and 2(l % 4) + 1, in r[q].
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* row_address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned addr = shared_address(row_address);
    // "memory": the compiler must not move this read of shared memory across
    // the barriers that publish the staged rows.
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
#else
    (void)r;
    (void)row_address;
    __trap();
#endif
}

// Four words from shared memory (16-byte aligned). Volatile, with the
// "memory" clobber, so that the compiler keeps the load where it is written
// instead of hoisting a loop-invariant one into registers for the whole loop.
__device__ __forceinline__ void load_shared_v4(std::uint32_t (&r)[4], const void* p) {
    asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(shared_address(p))
                 : "memory");
}

// ldmatrix.x2: matrices 0 and 1 only; lanes 0..15 give the row addresses.
__device__ __forceinline__ void ldmatrix_x2(std::uint32_t (&r)[2], const void* row_address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned addr = shared_address(row_address);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr)
                 : "memory");
#else
    (void)r;
    (void)row_address;
    __trap();
#endif
}

// Asynchronous global -> shared copies (cp.async, compute 8.0+). BYTES is 8
// or 16; both addresses must be aligned to it. A thread's copies become
// visible to that thread after cp_async_wait<N>() has retired their group;
// other threads need a barrier as well.
template <int BYTES>
__device__ __forceinline__ void cp_async(void* smem, const void* gmem) {
    static_assert(BYTES == 8 || BYTES == 16, "cp.async copies 4, 8 or 16 bytes; the filters use 8 or 16");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned addr = shared_address(smem);
    if constexpr (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(addr), "l"(gmem) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(addr), "l"(gmem) : "memory");
#else
    (void)smem;
    (void)gmem;
    __trap();
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

}  // namespace imgpar::cuda::filter_detail
