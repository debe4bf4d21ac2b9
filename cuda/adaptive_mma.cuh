// The adaptive threshold's mean kernel for windows up to 17 (cuda/adaptive_threshold.cu
// dispatches to it): the window sums as two integer matrix products on the
// tensor cores, exact, no running sums. Included by cuda/adaptive_threshold.cu
// only.
//
// A warp owns 32 output columns, two groups of 16, and walks down its
// block's band 16 rows at a time. For 16 output rows and columns it needs
// the intensities of 32 rows (8 above, 8 below) and 32 columns (8 each
// side), staged in shared memory:
//   1. along rows: H^T = Band_h (16 x 32, ones within the window) x the
//      32 x 32 intensities, as four m16n8k32 u8 products (one per 8 rows);
//      H <= 17 * 255 fits two bytes;
//   2. down columns: V = Band_v (16 x 32) x H, as u8 products on H's low
//      and high bytes (V = 256 V_hi + V_lo). The products' accumulators
//      already hold, in each lane, the bytes the second product's B operand
//      wants in that lane, up to the order of the 32 rows: Band_v's columns
//      are permuted to match (slot_row), so H never leaves registers.
// Every product of 0/1 taps and bytes is exact in s32, so V is the window's
// sum of the intensities, as the tables give it (replicate borders: the
// staged rows and columns outside the image are the edge's), and the test is
// adaptive_mean_decision_linear, adaptive_mean_decision as one comparison:
// the CPU's bytes. (A block's table of the 256 bounds in shared memory,
// looked up at random intensities, measured 6% slower on an H200: 0.089 ms
// against 0.084 for 8192^2 gray.) The kernel is bound by its integer
// instructions (the ALU pipe was the busiest, 68%): the band bytes come from
// bit masks, the column product's operands from four byte permutes per
// register pair instead of six, and the staging loop steps without dividing
// (1,547 instructions a warp before these, 0.084 -> 0.076 ms).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/adaptive_threshold.hpp"
#include "cuda/filter_mma.cuh"
#include "src/image.hpp"
#include "src/ops/adaptive_math.hpp"
#include "src/ops/histogram_math.hpp"

namespace imgpar::cuda::adaptive_detail {

using Mma = AdaptiveMmaPolicy;
constexpr int kMmaThreads = Mma::warps * 32;
constexpr int kMmaWarpColumns = 32;                    // output columns a warp decides: two groups of 16
constexpr int kMmaTileColumns = Mma::warps * kMmaWarpColumns;  // output columns a block decides
// The warp's 16 x 32 square of decisions: rows 48 bytes apart, so the 16-bit
// writes of a row's lanes fall in different banks from the other rows'.
constexpr int kMmaSquarePitch = 48;
constexpr int kMmaHalo = 8;                            // staged rows and columns each side
constexpr int kMmaPitch = kMmaTileColumns + 2 * kMmaHalo;  // bytes of a staged row
constexpr int kMmaStagedRows = Mma::band_rows + 2 * kMmaHalo;
static_assert(Mma::max_radius <= kMmaHalo, "16 outputs and their window fit 32 staged columns and rows");
static_assert(Mma::band_rows % 16 == 0, "a warp decides 16 rows at a time");
// ldmatrix reads 16-byte rows at 16-byte boundaries; a pitch of an odd
// number of 16-byte units keeps the eight rows of a matrix in different banks.
static_assert(kMmaPitch % 16 == 0 && (kMmaPitch / 16) % 2 == 1, "staged rows: 16-byte aligned, conflict-free");
// A window sum along a row, at most 17 * 255, has two bytes; one down a
// column of those, at most 17^2 * 255, fits adaptive_mean_decision_linear's
// 31 bits.
static_assert((2 * Mma::max_radius + 1) * 255 < (1 << 16), "H has two bytes");

// Which of the 32 staged rows (relative to the warp's first) sits at
// k-position k of the column product's B operand: lane (g, t) holds, in its
// accumulators of the row products for rows 8j..8j+7, rows 8j + 2t and
// 8j + 2t + 1 of column g; b0 = k 4t..4t+3 takes those of j = 0, 1, b1 =
// k 16+4t..16+4t+3 those of j = 2, 3.
__device__ __forceinline__ int slot_row(int k) {
    const int half = k >> 4, t = (k & 15) >> 2, q = k & 3;
    return 16 * half + 8 * (q >> 1) + 2 * t + (q & 1);
}

// The band matrices' 0/1 bytes, from the window's bits: bit k of
// window_mask(m) is 1 where staged row or column k lies within the radius of
// output m (at staged position m + 8; m + 8 + radius <= 31).
__device__ __forceinline__ std::uint32_t window_mask(int m, int radius) {
    return ((1u << (2 * radius + 1)) - 1u) << (m + kMmaHalo - radius);
}
// Four bits, one to the low bit of each byte (the shifted copies do not overlap).
__device__ __forceinline__ std::uint32_t bits_to_bytes(std::uint32_t nibble) { return (nibble * 0x00204081u) & 0x01010101u; }
// Row m's bytes at k-positions k0..k0+3 of the row product's band.
__device__ __forceinline__ std::uint32_t along_word(std::uint32_t mask, int k0) { return bits_to_bytes((mask >> k0) & 0xfu); }
// The column product's, whose k-positions k0..k0+3 (k0 = 16 h + 4 t) hold
// staged rows p, p + 1, p + 8, p + 9 with p = 16 h + 2 t (slot_row).
__device__ __forceinline__ std::uint32_t down_word(std::uint32_t mask, int k0) {
    const int p = (k0 & 16) + ((k0 & 15) >> 1);
    return bits_to_bytes(((mask >> p) & 3u) | (((mask >> (p + 8)) & 3u) << 2));
}

// Byte 0 (kHigh: 1) of each of four accumulators, in order, as one B
// register: [a0 a1 b0 b1] and [c0 c1 d0 d1], then every other byte of those.
template <bool kHigh>
__device__ __forceinline__ std::uint32_t pick_bytes(std::uint32_t ab, std::uint32_t cd) {
    return __byte_perm(ab, cd, kHigh ? 0x7531 : 0x6420);
}
__device__ __forceinline__ std::uint32_t low_halves(int a, int b) {
    return __byte_perm(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), 0x5410);
}

// The values computed once stay computed: an empty asm the compiler cannot
// see through, so it keeps the register instead of recomputing the value
// inside the loop.
__device__ __forceinline__ std::uint32_t pinned(std::uint32_t v) {
    asm volatile("" : "+r"(v));
    return v;
}

// Stages a block's intensities with their halo (staged row r is image row
// y0 - 8 + r, from column x0 - 8): 8-byte asynchronous copies where a gray
// row's bytes are the intensities and lie inside the image (the caller
// commits them), else the pixel's intensity at its replicated position,
// stored at once.
template <int C, bool kVector>
__device__ __forceinline__ void stage_tile(const ConstDeviceViewU8& src, int x0, int y0,
                                           std::uint8_t (*staged)[kMmaPitch]) {
    constexpr int kChunks = kMmaPitch / 8;
    // Thread i stages chunks i, i + kMmaThreads, ...: row r, chunk j, stepped
    // without dividing.
    constexpr int kStepRows = kMmaThreads / kChunks, kStepChunks = kMmaThreads % kChunks;
    int r = static_cast<int>(threadIdx.x) / kChunks, j = static_cast<int>(threadIdx.x) % kChunks;
    while (r < kMmaStagedRows) {
        const int x = x0 - kMmaHalo + 8 * j;
        const int y = min(max(y0 - kMmaHalo + r, 0), src.height - 1);
        const std::uint8_t* row = src.data + static_cast<std::size_t>(y) * src.pitch;
        std::uint8_t* s = &staged[r][x - x0 + kMmaHalo];
        if (C == 1 && kVector && x >= 0 && x + 8 <= src.width) {
            filter_detail::cp_async<8>(s, row + x);
        } else {
#pragma unroll
            for (int q = 0; q < 8; ++q) {
                const int cx = min(max(x + q, 0), src.width - 1);
                s[q] = static_cast<std::uint8_t>(intensity_of(row + static_cast<std::size_t>(cx) * C, C));
            }
        }
        r += kStepRows, j += kStepChunks;
        if (j >= kChunks) j -= kChunks, ++r;
    }
}

// One block per tile of kMmaTileColumns columns and band_rows rows: stage the
// intensities with their halo (stage_tile), then each warp decides its
// 32 columns, 16 rows at a time, as two groups of 16, and stores them
// through a 16 x 32 square as 16-byte pieces of rows: whole 32-byte
// sectors, so no sector of the output is written in halves at different
// times. Nine blocks a multiprocessor (52-56 registers a thread) keep many
// tiles' loads in flight; on an H200 (8192^2 gray, window 15) a block that
// looped over bands, staging the next while deciding this one, measured 1.5x
// slower, and one that started deciding after the first 48 staged rows (with
// 40 registers, for twelve blocks) 7% slower.
template <int C, bool kVector>
__global__ void __launch_bounds__(kMmaThreads, Mma::min_blocks)
    mean_mma_kernel(ConstDeviceViewU8 src, AdaptiveParams p, int radius, DeviceViewU8 dst) {
    using namespace filter_detail;
    __shared__ __align__(16) std::uint8_t staged[kMmaStagedRows][kMmaPitch];
    __shared__ __align__(16) std::uint8_t decided[Mma::warps][16][kMmaSquarePitch];
    const int x0 = static_cast<int>(blockIdx.x) * kMmaTileColumns;
    const int y0 = static_cast<int>(blockIdx.y) * Mma::band_rows;

    stage_tile<C, kVector>(src, x0, y0, staged);
    cp_async_commit();
    const std::int32_t n = static_cast<std::int32_t>(p.n);
    const std::int32_t base = adaptive_mean_bound_base(n, p.offset);

    const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
    const int g = lane >> 2, t = lane & 3;
    std::uint32_t along[4], down[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int k0 = 16 * (i >> 1) + 4 * t;
        const std::uint32_t mask = window_mask(g + 8 * (i & 1), radius);
        along[i] = pinned(along_word(mask, k0));
        down[i] = pinned(down_word(mask, k0));
    }
    cp_async_wait<0>();
    __syncthreads();

    const int wx = x0 + kMmaWarpColumns * warp;  // the warp's first output column
    if (wx >= src.width) return;
    std::uint8_t (*const out)[kMmaSquarePitch] = decided[warp];
    const int rows = min(Mma::band_rows, src.height - y0);
    // ldmatrix's row addresses: matrix q (lanes 8q..8q+7) is rows 8 (q / 2) ..
    // of a call's 16, bytes 16 (q % 2) .. of a group's 32-column window.
    const std::uint8_t* matrix_row =
        &staged[(lane & 7) + 8 * ((lane >> 3) >> 1)][kMmaWarpColumns * warp + 16 * ((lane >> 3) & 1)];

    for (int r0 = 0; r0 < rows; r0 += 16) {
#pragma unroll
        for (int group = 0; group < kMmaWarpColumns / 16; ++group) {
            // 1. Along rows: staged rows r0 .. r0+31, the group's 32 columns.
            int h[4][4] = {};
#pragma unroll
            for (int call = 0; call < 2; ++call) {
                std::uint32_t b[4];
                ldmatrix_x4(b, matrix_row + (r0 + 16 * call) * kMmaPitch + 16 * group);
                mma_u8_m16n8k32(h[2 * call], along, b[0], b[1]);
                mma_u8_m16n8k32(h[2 * call + 1], along, b[2], b[3]);
            }
            // 2. Down columns, for columns g (accumulators 0, 1) and g + 8 (2, 3).
            // 3. The decisions: sum i of a half is at output row g (+8 for
            // i >= 2), column 8 half + 2t + i % 2 of the group's 16; two
            // neighbours are stored as one 16-bit word.
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int e = 2 * half;
                int lo[4] = {}, hi[4] = {};
                const std::uint32_t h01 = low_halves(h[0][e], h[0][e + 1]), h11 = low_halves(h[1][e], h[1][e + 1]);
                const std::uint32_t h21 = low_halves(h[2][e], h[2][e + 1]), h31 = low_halves(h[3][e], h[3][e + 1]);
                mma_u8_m16n8k32(lo, down, pick_bytes<false>(h01, h11), pick_bytes<false>(h21, h31));
                mma_u8_m16n8k32(hi, down, pick_bytes<true>(h01, h11), pick_bytes<true>(h21, h31));
#pragma unroll
                for (int pair = 0; pair < 2; ++pair) {
                    const int row = g + 8 * pair, col = 16 * group + 8 * half + 2 * t;
                    // The two centres, one 16-bit load (col is even).
                    const unsigned c = *reinterpret_cast<const std::uint16_t*>(
                        &staged[r0 + kMmaHalo + row][kMmaWarpColumns * warp + kMmaHalo + col]);
                    const int d0 = adaptive_mean_decision_linear(256 * hi[2 * pair] + lo[2 * pair],
                                                                 static_cast<int>(c & 0xffu), n, base);
                    const int d1 = adaptive_mean_decision_linear(256 * hi[2 * pair + 1] + lo[2 * pair + 1],
                                                                 static_cast<int>(c >> 8), n, base);
                    *reinterpret_cast<std::uint16_t*>(&out[row][col]) = static_cast<std::uint16_t>(d0 | (d1 << 8));
                }
            }
        }
        __syncwarp();
        // 4. Lane l stores row l / 2, columns 16 (l % 2) ..: 16 bytes.
        const int row = lane >> 1, col = 16 * (lane & 1), y = y0 + r0 + row, x = wx + col;
        if (r0 + row < rows && x < src.width) {
            std::uint8_t* d = dst.data + static_cast<std::size_t>(y) * dst.pitch + x;
            const uint4 bytes = *reinterpret_cast<const uint4*>(&out[row][col]);
            if (x + 16 <= src.width && (reinterpret_cast<std::uintptr_t>(d) & 15) == 0) {
                *reinterpret_cast<uint4*>(d) = bytes;
            } else {
                for (int q = 0; q < 16 && x + q < src.width; ++q) d[q] = out[row][col + q];
            }
        }
        __syncwarp();  // the square is rewritten for the next 16 rows
    }
}

}  // namespace imgpar::cuda::adaptive_detail
