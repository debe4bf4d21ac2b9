// The tiled resize's second pass (along the rows) on the tensor cores, after
// the tensor cores' first pass left the intermediate as byte planes
// (cuda/resize_first_pass_mma.cuh). For each channel, 16 rows x 8 output
// pixels are the product M[16 rows][K intermediate columns] x W[K][8 outputs]:
// M from the tile's intermediate (a 16-bit signed value as 256 high + low
// bytes), W dense (each output's taps at their offsets from the group's first
// column, rounded down to 4, zeros elsewhere) and split the same way, laid
// out by the host once a plan in the lanes' fragment order
// (cuda/resize_mma_tables.hpp: a lane's one 16-byte load a step). Four
// int8 MMAs (high x high, high x low, low x high, low x low) give the sums
// exactly in wrapping 32-bit arithmetic: the true sum is within 2^30 (the
// intermediate within 2^15, the weights' magnitudes summing to at most 2^15).
// Then resize_output's rounding, as the CUDA cores' pass.
//
// Why: along the rows the CUDA cores spend a load, a sign extension and a
// multiply-add a tap and sample (two loads a tap for the pixel and its
// weight); here a warp's MMAs cover 16 rows x 8 pixels x 32 taps a channel,
// and what is left is the rounding and the stores. A lane's outputs are 2
// pixels of 2 rows 8 apart, so they go to shared memory (the first pass's
// stage, free by now) and the block writes the tile's rows out in 16-byte
// stores: byte stores straight to the image touched 8 rows a warp
// instruction, and their partial sectors took most of the L2's requests.
#pragma once

#include <cstdint>

#include "cuda/filter_mma.cuh"
#include "cuda/resize_first_pass_mma.cuh"
#include "cuda/resize_tile_store.cuh"
#include "src/ops/resize_math.hpp"

namespace imgpar::cuda::resize_detail {

// The output pixels j0 .. j1 - 1 (j0 a multiple of 8) of rows k0 .. k1 - 1
// from the byte planes at the start of smem (a row from input pixel c0 & ~3
// on). K = 32 KX intermediate columns a group of 8 outputs. The tile's
// output bytes pass through smem + l.stage_at ([tile_h][tile_w * C]).
template <int C, int KX, typename Args>
__device__ __forceinline__ void second_pass_mma(const Args& a, const MmaFirstPassLayout& l, unsigned char* smem, int k0,
                                                int k1, int j0, int j1, int c0) {
    const int threads = static_cast<int>(blockDim.x), tid = static_cast<int>(threadIdx.x);
    const int groups = (j1 - j0 + 7) / 8;
    const int ps = l.plane_stride / 4;  // words
    const std::uint32_t* m_hi = reinterpret_cast<const std::uint32_t*>(smem);
    const std::uint32_t* m_lo = m_hi + C * a.tile_h * ps;
    const int warp = tid / 32, lane = tid % 32, g = lane >> 2, q4 = lane & 3, warps = threads / 32;
    const int row_groups = (k1 - k0 + 15) / 16;
    const int out_row = a.tile_w * C;
    unsigned char* out = smem + l.stage_at;
    for (int u = warp; u < row_groups * groups; u += warps) {
        const int rg = u / groups, grp = u - rg * groups;
        // The group's first column (rounded down to 4), from the planes' first.
        const int xw = (a.t.x_start[j0 + 8 * grp] & ~3) - (c0 & ~3);
        std::uint32_t b_hi[KX][2], b_lo[KX][2];
        const uint4* frag = a.t.x_frag + static_cast<std::size_t>((j0 / 8 + grp) * KX) * 32 + lane;
        IMGPAR_UNROLL
        for (int ks = 0; ks < KX; ++ks) {
            const uint4 f = __ldg(frag + ks * 32);
            b_hi[ks][0] = f.x, b_hi[ks][1] = f.y, b_lo[ks][0] = f.z, b_lo[ks][1] = f.w;
        }
        int sum[C][4];
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) {
            int hh[4] = {0, 0, 0, 0}, hl[4] = {0, 0, 0, 0}, lh[4] = {0, 0, 0, 0}, ll[4] = {0, 0, 0, 0};
            const int at = (c * a.tile_h + 16 * rg + g) * ps + xw / 4 + q4;
            IMGPAR_UNROLL
            for (int ks = 0; ks < KX; ++ks) {
                const int o[4] = {at + 8 * ks, at + 8 * ps + 8 * ks, at + 8 * ks + 4, at + 8 * ps + 8 * ks + 4};
                std::uint32_t a_hi[4], a_lo[4];
                IMGPAR_UNROLL
                for (int r = 0; r < 4; ++r) {
                    a_hi[r] = m_hi[o[r]];
                    a_lo[r] = m_lo[o[r]];
                }
                filter_detail::mma_x8_m16n8k32<true, true>(hh, a_hi, b_hi[ks][0], b_hi[ks][1]);
                filter_detail::mma_x8_m16n8k32<true, false>(hl, a_hi, b_lo[ks][0], b_lo[ks][1]);
                filter_detail::mma_x8_m16n8k32<false, true>(lh, a_lo, b_hi[ks][0], b_hi[ks][1]);
                filter_detail::mma_x8_m16n8k32<false, false>(ll, a_lo, b_lo[ks][0], b_lo[ks][1]);
            }
            IMGPAR_UNROLL
            for (int e = 0; e < 4; ++e)
                sum[c][e] = static_cast<int>((static_cast<std::uint32_t>(hh[e]) << 16) +
                                             (static_cast<std::uint32_t>(hl[e] + lh[e]) << 8) +
                                             static_cast<std::uint32_t>(ll[e]));
        }
        IMGPAR_UNROLL
        for (int e = 0; e < 4; ++e) {
            const int kk = 16 * rg + g + (e >= 2 ? 8 : 0), j = j0 + 8 * grp + 2 * q4 + (e & 1);
            if (k0 + kk < k1 && j < j1) {
                unsigned char* o = out + kk * out_row + (j - j0) * C;
                IMGPAR_UNROLL
                for (int c = 0; c < C; ++c) o[c] = static_cast<unsigned char>(resize_output(sum[c][e], a.divider));
            }
        }
    }
    __syncthreads();
    store_staged_rows(a, out, out_row, k0, k1, static_cast<std::size_t>(j0) * C, (j1 - j0) * C);
}

}  // namespace imgpar::cuda::resize_detail
