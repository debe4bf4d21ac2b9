// The tiled resize's first pass (down the columns) on the tensor cores, for
// 8-bit samples without alpha and a filter's 14-bit weights
// (cuda/resize_tiles.cu). A group of 16 intermediate rows is the product
// W[16 rows][K input rows] x P[K input rows][the tile's bytes], where W is
// dense (each row's taps at their offsets from the group's first input row,
// zeros elsewhere) and P the input's rows from there. int8 MMA m16n8k32
// makes it exact: each weight splits into a signed high byte and an unsigned
// low one (w = 256 hi + lo; |w| < 2^15, so hi fits), two products summed in
// s32, then first_pass_value's rounding as the CUDA cores' pass.
//
// Why: the CUDA cores' pass spends three instructions a tap and sample
// (extract a byte, multiply, add) on 2/3 of a lanczos3 halving's
// multiply-adds; here a warp's two MMAs cover 16 rows x 8 bytes x 32 taps.
// The price is the layout B wants (4 consecutive input rows of one byte
// column in a register): the input is staged transposed, each thread
// turning a 4-row x 16-byte block with byte permutes. A warp's lanes take 8
// neighbouring 16-byte vectors of 4 row quads, so each load reads 128
// contiguous bytes of 4 rows (one vector a lane across 32 rows used every
// sector half: the L2 served twice the bytes it had to). W depends on the rows
// alone, so the host lays it out once a plan, in the order of the lanes'
// fragments (cuda/resize_mma_tables.hpp): a lane's two 16-byte loads a step.
#pragma once

#include <cstdint>

#include "cuda/filter_mma.cuh"
#include "src/ops/resize_math.hpp"

namespace imgpar::cuda::resize_detail {

// Shared memory of the pass, laid out by the host (tiled_mma).
struct MmaFirstPassLayout {
    int quads = 0;     // input row quads staged a group: ceil(the widest group's window / 4)
    int stride = 0;    // words between staged quads: >= the staged byte columns, 8 mod 32 (below)
    int stage_at = 0;  // byte offset of the staged input, [quad][stride] words; with the tensor cores'
                       // second pass, then the tile's output bytes [tile_h][tile_w * C]
    // > 0: the intermediate as byte planes for the tensor cores' second pass
    // (cuda/resize_second_pass_mma.cuh), from byte 0: high bytes
    // [channel][tile_h][plane_stride], then low bytes the same, a row from
    // input pixel c0 & ~3 on; the value is 256 high (signed) + low. 0:
    // 16-bit samples [tile_h][max_cols][S].
    int plane_stride = 0;
};

// The staged input's quad rows are 8 banks apart (stride = 8 mod 32): B's
// reads (lanes g, q4: column n0 + g of quad 8 ks + q4) meet 32 banks, and
// the 16-byte stores of 8 lanes (2 vectors x 4 quads, each storing its
// vector's 4 words in an order turned by the vector's parity) 8 bank groups.

// Four words of four rows (x0..x3: the same 4 byte columns) as four words of
// four byte columns (col[e] = byte e of x0, x1, x2, x3, lowest first).
__device__ __forceinline__ void transpose4x4(std::uint32_t x0, std::uint32_t x1, std::uint32_t x2, std::uint32_t x3,
                                             std::uint32_t (&col)[4]) {
    const std::uint32_t lo01 = __byte_perm(x0, x1, 0x5140), hi01 = __byte_perm(x0, x1, 0x7362);
    const std::uint32_t lo23 = __byte_perm(x2, x3, 0x5140), hi23 = __byte_perm(x2, x3, 0x7362);
    col[0] = __byte_perm(lo01, lo23, 0x5410);
    col[1] = __byte_perm(lo01, lo23, 0x7632);
    col[2] = __byte_perm(hi01, hi23, 0x5410);
    col[3] = __byte_perm(hi01, hi23, 0x7632);
}

// The intermediate rows k0 .. k1 - 1 (at most tile_h, k0 a multiple of 16)
// for input pixels c0 .. c0 + cols - 1, into mid ([row][a.max_cols][S]
// 16-bit samples, S = 4 for RGB). K = 32 KS input rows a group. The source's
// rows are 16-byte aligned with a pitch a multiple of 16 (bytes past a row's
// end within it are read, never used: their weights are 0 or they are not
// stored).
template <int C, int S, int KS, typename Args>
__device__ __forceinline__ void first_pass_mma(const Args& a, const MmaFirstPassLayout& l, unsigned char* smem,
                                               std::int16_t* mid, int k0, int k1, int c0, int cols) {
    std::uint32_t* stage = reinterpret_cast<std::uint32_t*>(smem + l.stage_at);
    const int rows = k1 - k0, groups = (rows + 15) / 16;
    const int threads = static_cast<int>(blockDim.x), tid = static_cast<int>(threadIdx.x);

    const int b0 = c0 * C, b1 = (c0 + cols) * C;  // the run's bytes in each row
    const int v0 = b0 >> 4, nv = ((b1 + 15) >> 4) - v0;
    const int sb0 = v0 * 16;  // the first staged byte column
    const int row = a.max_cols * S;
    const std::size_t step = a.src_pitch / 16;
    const int warp = tid / 32, lane = tid % 32, g = lane >> 2, q4 = lane & 3;
    const int warps = threads / 32;
    const int qb = (l.quads + 3) / 4;  // blocks of 4 quads
    const int items = qb * 32 * ((nv + 7) / 8);
    for (int grp = 0; grp < groups; ++grp) {
        const int base = a.t.y_start[k0 + 16 * grp];
        // Stage rows base .. base + 4 quads - 1 of the run, transposed:
        // stage[quad * stride + column] holds the column's 4 rows of the
        // quad. Item i: quad 4 (i / 32 % qb) + i % 4, vector 8 (i / 32 / qb)
        // + i / 4 % 8.
        for (int i = tid; i < items; i += threads) {
            const int blk = i >> 5, vl = (i >> 2) & 7;
            const int quad = 4 * (blk % qb) + (i & 3), v = 8 * (blk / qb) + vl;
            if (quad >= l.quads || v >= nv) continue;
            const int y = base + 4 * quad;
            const uint4* p = reinterpret_cast<const uint4*>(a.src + static_cast<std::size_t>(y) * a.src_pitch) + v0 + v;
            uint4 r[4];
            IMGPAR_UNROLL
            for (int j = 0; j < 4; ++j) r[j] = y + j < a.in_height ? __ldg(p + j * step) : make_uint4(0, 0, 0, 0);
            const std::uint32_t x[4][4] = {{r[0].x, r[0].y, r[0].z, r[0].w},
                                           {r[1].x, r[1].y, r[1].z, r[1].w},
                                           {r[2].x, r[2].y, r[2].z, r[2].w},
                                           {r[3].x, r[3].y, r[3].z, r[3].w}};
            uint4 cols[4];  // columns 4e .. 4e + 3 of the vector
            IMGPAR_UNROLL
            for (int e = 0; e < 4; ++e) {
                std::uint32_t col[4];
                transpose4x4(x[0][e], x[1][e], x[2][e], x[3][e], col);
                cols[e] = make_uint4(col[0], col[1], col[2], col[3]);
            }
            uint4* d = reinterpret_cast<uint4*>(stage + quad * l.stride + v * 16);
            const bool odd = (vl & 1) != 0;
            IMGPAR_UNROLL
            for (int s = 0; s < 4; ++s) d[odd ? (s + 1) & 3 : s] = odd ? cols[(s + 1) & 3] : cols[s];
        }
        __syncthreads();

        // This group's A fragments (the plan's group (k0 + 16 grp) / 16),
        // kept for every column the warp takes.
        std::uint32_t a_hi[KS][4], a_lo[KS][4];
        const uint4* frag = a.t.y_frag + (static_cast<std::size_t>((k0 / 16 + grp) * KS) * 32 + lane) * 2;
        // The quads B reads (8 ks + q4, and 4 on), those past the staged
        // ones on the last (their weights are 0).
        int q_at[KS][2];
        IMGPAR_UNROLL
        for (int ks = 0; ks < KS; ++ks) {
            const uint4 h = __ldg(frag + ks * 64), lo = __ldg(frag + ks * 64 + 1);
            a_hi[ks][0] = h.x, a_hi[ks][1] = h.y, a_hi[ks][2] = h.z, a_hi[ks][3] = h.w;
            a_lo[ks][0] = lo.x, a_lo[ks][1] = lo.y, a_lo[ks][2] = lo.z, a_lo[ks][3] = lo.w;
            q_at[ks][0] = min(8 * ks + q4, l.quads - 1) * l.stride;
            q_at[ks][1] = min(8 * ks + 4 + q4, l.quads - 1) * l.stride;
        }
        for (int n0 = warp * 8; n0 < nv * 16; n0 += warps * 8) {
            int d_hi[4] = {0, 0, 0, 0}, d_lo[4] = {0, 0, 0, 0};
            const std::uint32_t* col = stage + n0 + g;
            IMGPAR_UNROLL
            for (int ks = 0; ks < KS; ++ks) {
                const std::uint32_t bq0 = col[q_at[ks][0]], bq1 = col[q_at[ks][1]];
                filter_detail::mma_x8_m16n8k32<true>(d_hi, a_hi[ks], bq0, bq1);
                filter_detail::mma_u8_m16n8k32(d_lo, a_lo[ks], bq0, bq1);
            }
            IMGPAR_UNROLL
            for (int e = 0; e < 4; ++e) {
                const int kk = 16 * grp + g + (e >= 2 ? 8 : 0);
                const int b = sb0 + n0 + 2 * q4 + (e & 1);
                if (kk < rows && b >= b0 && b < b1) {
                    const int v = first_pass_value(AxisKind::Filter, d_hi[e] * 256 + d_lo[e]);
                    if (l.plane_stride > 0) {
                        const int at = ((b % C) * a.tile_h + kk) * l.plane_stride + b / C - (c0 & ~3);
                        smem[at] = static_cast<unsigned char>(v >> 8);
                        smem[C * a.tile_h * l.plane_stride + at] = static_cast<unsigned char>(v & 255);
                    } else {
                        mid[kk * row + (b / C - c0) * S + b % C] = static_cast<std::int16_t>(v);
                    }
                }
            }
        }
        __syncthreads();  // the next group's staging overwrites this one's
    }
}

}  // namespace imgpar::cuda::resize_detail
