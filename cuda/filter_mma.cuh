// The one tensor-core instruction the separable filter uses, wrapped so the
// kernel reads as ordinary C++. Integer MMA is exact: u8 x u8 products summed
// in s32.
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

__device__ __forceinline__ void mma_u8_m16n8k32(int (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                                std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    // The dispatcher never selects the tensor-core kernel below compute 8.0.
    (void)d;
    (void)a;
    (void)b0;
    (void)b1;
    __trap();
#endif
}

}  // namespace imgpar::cuda::filter_detail
