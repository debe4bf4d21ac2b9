// Toeplitz MMA: a 1-D correlation as products with banded (Toeplitz) blocks
// of its taps on the tensor cores (the instructions are in
// cuda/filter_mma.cuh). Block p of the matrix of a filter whose taps are
// tap(0..2r) is
//   T_p[i][k] = tap(K p + k - W - i + r)      (0 outside 0..2r)
// for 16 outputs i and K inputs k (K = 16: f16 mma.m16n8k16, K = 32: u8
// mma.m16n8k32), the window starting W inputs before the outputs. A lane's
// share of an A fragment is a run of consecutive taps: for lane (g, t), a0 =
// T_p[g][2t..2t+1] is the f16 pair at j = 16p + 2t - g - W + r, and the u8
// a0 = T_p[g][4t..4t+3] the byte quad at j = 32p + 4t - g - W + r. So the host
// fills small tables of tap pairs and quads once per call, and every lane
// reads its fragments from them at its own index: one table serves all lanes.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/filter_mma.cuh"

namespace imgpar::cuda::filter_detail {

// The tables for windows of up to MAX_M blocks of 16 outputs (radius <= 16
// MAX_M).
template <int MAX_M>
struct ToeplitzTables {
    // The f16 pair (tap(i), tap(i + 1)) is entry i + PAIR_OFFSET of the pair
    // table; fragments read i from -16M - 14 to 32M + 14.
    static constexpr int PAIR_OFFSET = 16 * MAX_M + 16;
    static constexpr int PAIRS = PAIR_OFFSET + 32 * MAX_M + 16;
    // The u8 quad (tap(j), .., tap(j + 3)), lowest byte first, is word j +
    // QUAD_OFFSET of the quad table. Entry J + QUAD_ENTRY_OFFSET of the u8
    // fragment table holds quads J, J - 8, J + 16 and J + 8: a0..a3 of a
    // fragment whose a0 is quad J. Fragments read J from -22 to 32M + 12, so
    // words -30 to 32M + 31.
    static constexpr int QUAD_OFFSET = 32;
    static constexpr int QUADS = QUAD_OFFSET + 32 * MAX_M + 32;
    static constexpr int QUAD_ENTRY_OFFSET = 24;
    static constexpr int QUAD_ENTRIES = QUAD_ENTRY_OFFSET + 32 * MAX_M + 16;
    static_assert(QUAD_ENTRIES % 8 == 0, "quad_slot permutes within groups of 8 entries");
    static_assert(QUAD_ENTRIES - QUAD_ENTRY_OFFSET + 16 + QUAD_OFFSET <= QUADS && QUAD_OFFSET - 8 >= QUAD_ENTRY_OFFSET,
                  "fragment entries read inside the quad table");
};

// The position of u8 fragment entry e in shared memory. A quarter warp (8
// lanes, one 16-byte load phase) reads the entries c + 4t - g for t = 0..3
// and two consecutive g, so entries e and e + 8 (the same banks) meet in
// every phase: 2 wavefronts each, 8 a load. Swapping pairs of entries where
// bit 3 of e is set puts the 8 entries of every such set in 8 different
// 16-byte bank groups, whatever c (checked for all c by enumeration).
__host__ __device__ constexpr int quad_slot(int e) { return e ^ ((e >> 2) & 2); }

// --- host: the tables ----------------------------------------------------------

// The f16 bits of x, rounded to nearest (exact for the values the tables hold).
inline std::uint32_t half_bits(float x) {
    const __half_raw h = __float2half_rn(x);
    return h.x;
}

// Entry e of a pair table: the f16 values of v(e - lead) and v(e - lead + 1),
// the first in the low half. v gives integers exact in f16. (The tables are
// filled before every launch, inside its timed host work: __floats2half2_rn
// took 8x as long on the host.)
template <class V>
void fill_half_pairs(std::uint32_t* pairs, int entries, int lead, const V& v) {
    for (int e = 0; e < entries; ++e)
        pairs[e] = half_bits(static_cast<float>(v(e - lead))) | (half_bits(static_cast<float>(v(e - lead + 1))) << 16);
}

// Word e of a quad table: the bytes v(e - lead) .. v(e - lead + 3), lowest
// first. v gives values 0..255.
template <class V>
void fill_byte_quads(std::uint32_t* quads, int entries, int lead, const V& v) {
    for (int e = 0; e < entries; ++e) {
        const int j = e - lead;
        quads[e] = static_cast<std::uint32_t>(v(j)) | (static_cast<std::uint32_t>(v(j + 1)) << 8) |
                   (static_cast<std::uint32_t>(v(j + 2)) << 16) | (static_cast<std::uint32_t>(v(j + 3)) << 24);
    }
}

// --- device: the fragments ------------------------------------------------------

// Copies a pair table into shared memory twice (the second copy at PAIRS):
// fragments read from shared memory stay in registers, where read from the
// kernel parameters with a per-lane index they were reloaded inside the
// loops that use them. Every thread of a block of THREADS takes a share.
template <class Tables, int THREADS>
__device__ __forceinline__ void stage_pair_table(std::uint32_t* table, const std::uint32_t* pairs) {
    for (int i = static_cast<int>(threadIdx.x); i < Tables::PAIRS; i += THREADS)
        table[i] = table[Tables::PAIRS + i] = pairs[i];
}

// The FP16 fragments T_p, p < NB, of a lane from a staged pair table, where
// pair_index(p) is the entry of its a0 (for lane (g, t): T[g][2t..]): a1 =
// T[g+8][2t..] is the pair 8 before, a2 = T[g][2t+8..] the pair 8 after, a3 =
// T[g+8][2t+8..] = a0. OWN: a1 and a3 read the second copy, so that the
// compiler cannot merge them with a2 of block p - 1 and a0, and each gets a
// register of its own.
template <class Tables, int NB, bool OWN, class PairIndex>
__device__ __forceinline__ void load_pair_fragments(std::uint32_t (&tp)[NB][4], const std::uint32_t* table,
                                                    const PairIndex& pair_index) {
#pragma unroll
    for (int p = 0; p < NB; ++p) {
        const int idx = pair_index(p);
        tp[p][0] = table[idx];
        constexpr int kSecond = OWN ? Tables::PAIRS : 0;
        tp[p][1] = table[kSecond + idx - 8];
        tp[p][2] = table[idx + 8];
        tp[p][3] = OWN ? table[Tables::PAIRS + idx] : tp[p][0];
    }
}

// The u8 fragment table in shared memory (Tables::QUAD_ENTRIES entries of 16
// bytes, entry e at quad_slot(e)), from a quad table, so that a lane loads
// T8_p with one 16-byte load. Every thread of a block of THREADS takes a share.
template <class Tables, int THREADS>
__device__ __forceinline__ void stage_quad_fragments(std::uint8_t* frags, const std::uint32_t* quads) {
    for (int e = static_cast<int>(threadIdx.x); e < Tables::QUAD_ENTRIES; e += THREADS) {
        const int w = e - Tables::QUAD_ENTRY_OFFSET + Tables::QUAD_OFFSET;  // quad table word of entry e's a0
        *reinterpret_cast<uint4*>(frags + 16 * quad_slot(e)) =
            make_uint4(quads[w], quads[w - 8], quads[w + 16], quads[w + 8]);
    }
}

// The u8 fragments T8_p, p < N, of a lane from the staged fragment table.
template <int N>
__device__ __forceinline__ void load_quad_fragments(std::uint32_t (&tq)[N][4], const std::uint8_t* frags, int slot0) {
#pragma unroll
    for (int p = 0; p < N; ++p) load_shared_v4(tq[p], frags + 16 * (slot0 + 32 * p));
}

}  // namespace imgpar::cuda::filter_detail
