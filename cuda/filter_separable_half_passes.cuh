// The MMA passes of the tensor-core Gaussian's step (see
// cuda/filter_separable_half_kernel.cuh for the method): the roundings between and
// after the passes, the window of H in registers, and the pass pieces the
// step (cuda/filter_separable_half_block.cuh) calls. G is a HalfGeometry.
//
// These are __forceinline__ pieces of one step, and their parameters are
// references where the step's own values are meant: the generated code is
// that of the step written as one function (bench/TUNING.md).
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/block/words.cuh"
#include "cuda/filter_mma.cuh"

namespace imgpar::cuda::filter_detail {

// --- roundings on the FMA pipe ------------------------------------------------

constexpr float kTwo23 = 8388608.0f;

__device__ __forceinline__ std::uint32_t half2_bits(float lo, float hi) {
    const __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const std::uint32_t*>(&h);
}

// gaussian_h_round of two horizontal sums s = S + 2^22 (S the exact sum, the
// 2^22 from the +1024 offset), plus 4, packed as f16: H + 4 with
// H = floor(S/512 + 0.5) = floor(s/512 + 0.5 - 8192), 0 <= H <= 2040. The FMA
// adds exactly (2^23 - 8187.5 is a float), then rounds toward zero into
// [2^23, 2^24). The 4 is the vertical rounding's half: the vertical taps sum
// to 4096, so the vertical sum gains 4 * 4096 = 32768 / 2.
__device__ __forceinline__ std::uint32_t h_round_pair(float s0, float s1) {
    constexpr float k = kTwo23 - 8192.0f + 4.5f;
    return half2_bits(__fmaf_rz(s0, 1.0f / 512.0f, k) - kTwo23, __fmaf_rz(s1, 1.0f / 512.0f, k) - kTwo23);
}

// The u8 passes (uses_u8_passes) keep exact integer sums. The horizontal
// MMAs start at kHRoundInit8, so a sum d = S + 256 and gaussian_h_round is
// H = d >> 9 (S >= 0). h_planes packs the H of four rows (d0..d3, rows
// 4t..4t+3) of one column as the B registers of the vertical MMAs: the low
// bytes of H, lowest row first, and the high bytes (H <= 2040, so 0..7).
// With d << 7, H's low byte is byte 2 and its high byte byte 3.
constexpr int kHRoundInit8 = 256;
__device__ __forceinline__ void h_planes(int d0, int d1, int d2, int d3, std::uint32_t& lo, std::uint32_t& hi) {
    const std::uint32_t x =
        __byte_perm(static_cast<std::uint32_t>(d0) << 7, static_cast<std::uint32_t>(d1) << 7, 0x7362);
    const std::uint32_t y =
        __byte_perm(static_cast<std::uint32_t>(d2) << 7, static_cast<std::uint32_t>(d3) << 7, 0x7362);
    lo = __byte_perm(x, y, 0x5410);
    hi = __byte_perm(x, y, 0x7632);
}

// gaussian_v_round of the vertical sums of the low (l) and high (h) planes
// of H: S = l + 256 h - kVRoundInit (the low sums start at the half), so the
// result is floor(S/32768 + 0.5) = (l + 256 h) >> 15, and S < 2^23.
constexpr int kVRoundInit = 16384;
__device__ __forceinline__ std::uint32_t u8_v_round(int l, int h) {
    return static_cast<std::uint32_t>(l + (h << 8)) >> 15;
}

// gaussian_v_round of a vertical sum s' = S + 16384 (S the exact sum, < 2^23;
// see h_round_pair): floor(S/32768 + 0.5) = floor(s'/32768), in the low byte
// of the returned bits (the float is 2^23 + result). The half cannot go into
// the FMA's addend: 2^23 + 0.5 is not a float.
__device__ __forceinline__ std::uint32_t v_round_bits(float s) {
    return __float_as_uint(__fmaf_rz(s, 1.0f / 32768.0f, kTwo23));
}

// --- the H window ---------------------------------------------------------------

// Where a step finds the H window of a column tile: the H of the last NB row
// blocks, as vertical B fragments [8-column half][b0, b1]. ROT = -1: win[q]
// holds logical block q (0 the oldest), and the step shifts the window down
// by one block (4(NB - 1) register moves). ROT >= 0 (steady steps unrolled NB
// times, kRotateWindow): logical block q sits in win[(ROT + q) % NB] and the
// new H overwrites the oldest, so NB steps with ROT = 0..NB-1 move nothing
// and leave the window as they found it.
template <int NB, int ROT>
struct WindowAt {
    static constexpr int AFTER = ROT < 0 ? 0 : ROT + 1;  // win index of logical block 0 once this step's H is in
    static constexpr int NEW = (AFTER + NB - 1) % NB;    // win index of the new H
};

// Logical block q (0..NB-2) of a step's window of tile j, before its H
// arrives: the block after the oldest held, which is dropped.
template <int NB, int ROT, int T>
__device__ __forceinline__ const std::uint32_t (&held_block(const std::uint32_t (&win)[T][NB][4], int j, int q))[4] {
    constexpr int BASE = ROT < 0 ? 0 : ROT;  // win index of logical block 0 before this step's H
    return win[j][(BASE + q + 1) % NB];
}

// Shifts the window of tile j down one block (ROT < 0) and puts the new H in.
template <int NB, int ROT, int T>
__device__ __forceinline__ void push_block(std::uint32_t (&win)[T][NB][4], int j, const std::uint32_t (&hp)[4]) {
    if constexpr (ROT < 0) {
#pragma unroll
        for (int p = 0; p + 1 < NB; ++p) {
#pragma unroll
            for (int e = 0; e < 4; ++e) win[j][p][e] = win[j][p + 1][e];
        }
    }
#pragma unroll
    for (int e = 0; e < 4; ++e) win[j][WindowAt<NB, ROT>::NEW][e] = hp[e];
}

// Writes a lane's 4 results of the warp's 8-column half ct (0..2 TPW - 1;
// each result in the low byte of its word) to the output tile; tile_off is
// the lane's place in it (row g, column 2t of the warp's first 8 columns).
template <class G>
__device__ __forceinline__ void put_results(std::uint8_t* const& tile, const int& tile_off, int ct, std::uint32_t v0,
                                            std::uint32_t v1, std::uint32_t v2, std::uint32_t v3) {
    constexpr int C = G::C;
    std::uint8_t* o = tile + tile_off + 8 * ct * G::TCOL;
    if constexpr (C == 1 || G::PLANAR_TILE) {
        store_u16_shared(o, __byte_perm(v0, v1, 0x0040));
        store_u16_shared(o + 8 * G::TROW, __byte_perm(v2, v3, 0x0040));
    } else {
        o[0] = static_cast<std::uint8_t>(v0);
        o[C] = static_cast<std::uint8_t>(v1);
        o[8 * G::OUT_ROW] = static_cast<std::uint8_t>(v2);
        o[8 * G::OUT_ROW + C] = static_cast<std::uint8_t>(v3);
    }
}

// --- the FP16 passes -----------------------------------------------------------------

// v[ct] += f * H of one window block, for both 8-column halves of a tile.
__device__ __forceinline__ void vertical_mma_f16(float (&v)[2][4], const std::uint32_t (&f)[4],
                                                 const std::uint32_t (&w)[4]) {
#pragma unroll
    for (int ct = 0; ct < 2; ++ct) mma_f16_m16n8k16(v[ct], f, w[2 * ct], w[2 * ct + 1]);
}

// Vertical: 16 output rows of each column tile once its window is full (the
// MMAs over the whole window where kEarlyVertical has not issued them),
// rounded into the output tile.
template <int ROT, class G>
__device__ __forceinline__ void vertical_pass_f16(float (&v)[G::TPW][2][4],
                                                  const std::uint32_t (&tp)[G::I8 ? 1 : G::NB][4],
                                                  std::uint32_t (&win)[G::TPW][G::NB][4], std::uint8_t* const& tile,
                                                  const int& tile_off) {
    constexpr int NB = G::NB;
    constexpr int T = G::TPW;
    constexpr bool kEarly = G::EARLY_VERTICAL;
    constexpr int AFTER = WindowAt<NB, ROT>::AFTER;
#pragma unroll
    for (int j = 0; j < T; ++j) {
#pragma unroll
        for (int ct = 0; ct < 2; ++ct) {
            if constexpr (!kEarly) {
#pragma unroll
                for (int p = 0; p < NB; ++p)
                    mma_f16_m16n8k16(v[j][ct], tp[p], win[j][(AFTER + p) % NB][2 * ct],
                                     win[j][(AFTER + p) % NB][2 * ct + 1]);
            }
            put_results<G>(tile, tile_off, 2 * j + ct, v_round_bits(v[j][ct][0]), v_round_bits(v[j][ct][1]),
                           v_round_bits(v[j][ct][2]), v_round_bits(v[j][ct][3]));
        }
    }
}

// --- the u8 passes -------------------------------------------------------------------

// Block p of a tile's vertical window: rows 32p.. of logical blocks 2p (b0)
// and 2p + 1 (b1), into the sums of the low (vl) and high (vh) byte planes of
// H, for both 8-column halves.
__device__ __forceinline__ void vertical_mma_u8(int (&vl)[2][4], int (&vh)[2][4], const std::uint32_t (&f)[4],
                                                const std::uint32_t (&b0)[4], const std::uint32_t (&b1)[4]) {
#pragma unroll
    for (int ct = 0; ct < 2; ++ct) {
        mma_u8_m16n8k32(vl[ct], f, b0[2 * ct], b1[2 * ct]);
        mma_u8_m16n8k32(vh[ct], f, b0[2 * ct + 1], b1[2 * ct + 1]);
    }
}

// The last block, p = M: logical block 2M (the new H) only; rows 32M + 16..
// meet zero taps, so K = 16 MMAs cover it.
__device__ __forceinline__ void vertical_mma_u8_last(int (&vl)[2][4], int (&vh)[2][4], const std::uint32_t (&f)[4],
                                                     const std::uint32_t (&b0)[4]) {
#pragma unroll
    for (int ct = 0; ct < 2; ++ct) {
        mma_u8_m16n8k16(vl[ct], f[0], f[1], b0[2 * ct]);
        mma_u8_m16n8k16(vh[ct], f[0], f[1], b0[2 * ct + 1]);
    }
}

// Horizontal: the two 8-row tiles of the staged block (sb: this lane's
// ldmatrix row), each T8_p also serving (kEarlyVertical) the vertical MMAs of
// window blocks 2p and 2p + 1 (all held for p < M; the last, p = M, is the
// new H). Tile 1 (T = 2) starts 16 columns after tile 0, so its block p is the
// high half (b1, b3) of tile 0's load p and the low half (b0, b2) of load
// p + 1: the M + 1 loads serve both tiles. Columns 16.. of T8_M meet zero
// taps (tap index 16M + 16 - i + r > 2r), so block M of either tile is a
// K = 16 MMA, and tile 1 needs no load M + 1.
template <int ROT, class G>
__device__ __forceinline__ void horizontal_pass_u8(const std::uint32_t (&tq)[G::I8 ? G::M + 1 : 1][4],
                                                   std::uint32_t (&win)[G::TPW][G::NB][4],
                                                   const std::uint8_t* const& sb, int (&h0)[G::TPW][4],
                                                   int (&h1)[G::TPW][4], int (&vl)[G::TPW][2][4],
                                                   int (&vh)[G::TPW][2][4]) {
    constexpr int M = G::M;
    constexpr int NB = G::NB;
    constexpr int T = G::TPW;
    constexpr bool kEarly8 = G::EARLY_VERTICAL;
    [[maybe_unused]] std::uint32_t prev[4] = {};  // load p - 1, for tile 1
#pragma unroll
    for (int p = 0; p <= M; ++p) {
        std::uint32_t b[4];
        ldmatrix_x4(b, sb + 32 * p);
        if (p < M) {
            mma_u8_m16n8k32(h0[0], tq[p], b[0], b[1]);
            mma_u8_m16n8k32(h1[0], tq[p], b[2], b[3]);
        } else {
            mma_u8_m16n8k16(h0[0], tq[p][0], tq[p][1], b[0]);
            mma_u8_m16n8k16(h1[0], tq[p][0], tq[p][1], b[2]);
        }
        if constexpr (T == 2) {
            if (p > 0) {
                mma_u8_m16n8k32(h0[1], tq[p - 1], prev[1], b[0]);
                mma_u8_m16n8k32(h1[1], tq[p - 1], prev[3], b[2]);
            }
#pragma unroll
            for (int e = 0; e < 4; ++e) prev[e] = b[e];
        }
        if constexpr (kEarly8) {
            if (p < M) {
#pragma unroll
                for (int j = 0; j < T; ++j)
                    vertical_mma_u8(vl[j], vh[j], tq[p], held_block<NB, ROT>(win, j, 2 * p),
                                    held_block<NB, ROT>(win, j, 2 * p + 1));
            }
        }
    }
    if constexpr (T == 2) {
        mma_u8_m16n8k16(h0[1], tq[M][0], tq[M][1], prev[1]);
        mma_u8_m16n8k16(h1[1], tq[M][0], tq[M][1], prev[3]);
    }
}

// Vertical: 16 output rows of each column tile once its window is full (the
// MMAs the horizontal pass has not issued), rounded into the output tile.
template <int ROT, class G>
__device__ __forceinline__ void vertical_pass_u8(int (&vl)[G::TPW][2][4], int (&vh)[G::TPW][2][4],
                                                 const std::uint32_t (&tq)[G::I8 ? G::M + 1 : 1][4],
                                                 std::uint32_t (&win)[G::TPW][G::NB][4], std::uint8_t* const& tile,
                                                 const int& tile_off) {
    constexpr int M = G::M;
    constexpr int NB = G::NB;
    constexpr int T = G::TPW;
    constexpr bool kEarly8 = G::EARLY_VERTICAL;
    constexpr int AFTER = WindowAt<NB, ROT>::AFTER;
    constexpr int NEW = WindowAt<NB, ROT>::NEW;
#pragma unroll
    for (int j = 0; j < T; ++j) {
        if constexpr (!kEarly8) {
#pragma unroll
            for (int p = 0; p < M; ++p)
                vertical_mma_u8(vl[j], vh[j], tq[p], win[j][(AFTER + 2 * p) % NB], win[j][(AFTER + 2 * p + 1) % NB]);
        }
        vertical_mma_u8_last(vl[j], vh[j], tq[M], win[j][NEW]);
#pragma unroll
        for (int ct = 0; ct < 2; ++ct)
            put_results<G>(tile, tile_off, 2 * j + ct, u8_v_round(vl[j][ct][0], vh[j][ct][0]),
                           u8_v_round(vl[j][ct][1], vh[j][ct][1]), u8_v_round(vl[j][ct][2], vh[j][ct][2]),
                           u8_v_round(vl[j][ct][3], vh[j][ct][3]));
    }
}

}  // namespace imgpar::cuda::filter_detail
