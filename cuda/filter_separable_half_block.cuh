// The per-block algorithm of the tensor-core Gaussian (see
// cuda/filter_separable_half_kernel.cuh for the method): one segment's prologue
// (half_segment: where the segment lies, the tables and shares, the first
// blocks in flight, the fragments in registers), its step loop, and one step:
// the MMA passes (cuda/filter_separable_half_passes.cuh), the staging of the
// next block and the stores (cuda/filter_separable_half_phases.cuh).
//
// The step and its pieces keep the form the kernel was measured in: the
// pieces are __forceinline__ functions over the segment's state by reference
// (HalfStep), and what stays inline here (the FP16 horizontal pass, the
// rounding of H into the window) changed the generated code when moved out.
// Check the sm_90 PTX of every variant before and after any change here.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuda/block/halo.cuh"
#include "cuda/block/staging.cuh"
#include "cuda/block/toeplitz.cuh"
#include "cuda/filter_separable_half.cuh"
#include "cuda/filter_separable_half_passes.cuh"
#include "cuda/filter_separable_half_phases.cuh"
#include "cuda/tma.cuh"

namespace imgpar::cuda::filter_detail {

// The block's dynamic shared memory, laid out by HalfGeometry (the OFF_
// offsets): raw slots first, as bulk copies need 128-byte alignment.
extern __shared__ __align__(128) std::uint8_t half_smem[];

// One step s: the MMA passes over the staged block s into the output tile,
// the staging of block s + 1, and (past the warm-up) the tile's stores. FAST:
// a step of the steady state (see run_half_steps), which skips the tests of
// the image's edges and of the kind of copy, and keeps only the two of the
// segment's end. ROT: the H window's rotation (WindowAt).
template <bool FAST, int ROT, class G>
__device__ __forceinline__ void half_step(HalfStep<G>& st, int s) {
    constexpr int NB = G::NB;
    constexpr int R = G::RAW_SLOTS;
    std::uint8_t* const stage = st.stage;
    std::uint8_t* const tiles = st.tiles;
    const int lm_off = st.lm_off, tile_off = st.tile_off;
    const auto& tp = st.tp;
    const auto& tq = st.tq;
    auto& win = st.win;
    // (& rather than %: in the unrolled loops s is a multiple of U plus a
    // constant, and the masks fold to constants)
    const int convert_slot = (s + 1) & (R - 1);  // raw slot of block s + 1
    const int fill_slot = s & (R - 1);           // raw slot of block s, refilled with block s + R
    // ldmatrix and mma are .aligned: the whole warp must execute them
    // together. Lanes that took the border path while staging can leave the
    // warp diverged even past __syncthreads(), so reconverge first.
    __syncwarp();
    const std::uint8_t* sb = stage + (s & 1) * G::STAGE_BYTES + lm_off;  // this lane's ldmatrix row
    std::uint8_t* tile = tiles + (s & 1) * G::TILE_BYTES;
    if constexpr (G::I8) {
        // Both passes as u8 MMAs over blocks of 32 (see uses_u8_passes), T8_p
        // from registers. The vertical sums of the low and high byte planes
        // of H, per column tile and 8-column half; the low ones start at the
        // rounding's half (u8_v_round).
        constexpr int T = G::TPW;
        int vl[T][2][4], vh[T][2][4];
#pragma unroll
        for (int j = 0; j < T; ++j)
#pragma unroll
            for (int ct = 0; ct < 2; ++ct)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    vl[j][ct][e] = kVRoundInit;
                    vh[j][ct][e] = 0;
                }
        int h0[T][4], h1[T][4];
#pragma unroll
        for (int j = 0; j < T; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) h0[j][e] = h1[j][e] = kHRoundInit8;
        horizontal_pass_u8<ROT, G>(tq, win, sb, h0, h1, vl, vh);
        // The staged rows are in stage_row order, so h0 holds image rows
        // 4t, 4t + 1 and h1 rows 4t + 2, 4t + 3 of columns g and g + 8:
        // one B register per 8-column half and plane.
#pragma unroll
        for (int j = 0; j < T; ++j) {
            std::uint32_t hp[4];
            h_planes(h0[j][0], h0[j][1], h1[j][0], h1[j][1], hp[0], hp[1]);  // column g: low, high
            h_planes(h0[j][2], h0[j][3], h1[j][2], h1[j][3], hp[2], hp[3]);  // column g + 8
            push_block<NB, ROT>(win, j, hp);
        }
        if (FAST || s >= G::WARM) vertical_pass_u8<ROT, G>(vl, vh, tq, win, tile, tile_off);
    } else {
        // The early vertical MMAs (kEarlyVertical), over the NB - 1 window
        // blocks already held, do not wait for the horizontal pass, so they
        // are issued in its basic block, where ptxas interleaves the four MMA
        // chains. In the warm-up steps their sums are dropped.
        constexpr bool kEarly = G::EARLY_VERTICAL;
        constexpr int T = G::TPW;
        float v[T][2][4] = {};
        if constexpr (kEarly) {
#pragma unroll
            for (int j = 0; j < T; ++j)
#pragma unroll
                for (int p = 0; p + 1 < NB; ++p) vertical_mma_f16(v[j], tp[p], held_block<NB, ROT>(win, j, p));
        }
        // Horizontal: two 8-row tiles of the staged block. Tile j's window is
        // the warp's staged blocks j..j + NB - 1, so each block is loaded once
        // for all the warp's tiles (NB + T - 1 ldmatrix).
        float h0[T][4] = {}, h1[T][4] = {};
#pragma unroll
        for (int q = 0; q < NB + T - 1; ++q) {
            std::uint32_t b[4];
            ldmatrix_x4(b, sb + 32 * q);
#pragma unroll
            for (int j = 0; j < T; ++j) {
                const int p = q - j;
                if (p >= 0 && p < NB) {
                    mma_f16_m16n8k16(h0[j], tp[p], b[0], b[1]);
                    mma_f16_m16n8k16(h1[j], tp[p], b[2], b[3]);
                }
            }
        }
#pragma unroll
        for (int j = 0; j < T; ++j) {
            const std::uint32_t hp[4] = {h_round_pair(h0[j][0], h0[j][1]),   // columns 0..7: rows 2t, 2t+1
                                         h_round_pair(h1[j][0], h1[j][1]),   //               rows 8+2t, 9+2t
                                         h_round_pair(h0[j][2], h0[j][3]),   // columns 8..15
                                         h_round_pair(h1[j][2], h1[j][3])};
            push_block<NB, ROT>(win, j, hp);
            if constexpr (kEarly) vertical_mma_f16(v[j], tp[NB - 1], win[j][WindowAt<NB, ROT>::NEW]);
        }
        if (FAST || s >= G::WARM) vertical_pass_f16<ROT, G>(v, tp, win, tile, tile_off);
    }
    stage_next_block<FAST>(st, s, convert_slot, fill_slot);
    store_output_tile<FAST>(st, s, tile);
}

// Calls f(std::integral_constant<int, J>) for J = 0..N-1, in order.
template <class F, int... J>
__device__ __forceinline__ void for_each_index(F&& f, std::integer_sequence<int, J...>) {
    (f(std::integral_constant<int, J>{}), ...);
}
template <int N, class F>
__device__ __forceinline__ void for_each_index(F&& f) {
    for_each_index(f, std::make_integer_sequence<int, N>{});
}

// The step loop of a segment. With kSteadyLoop, the steady state (the steps
// past the warm-up that write 16 whole rows of a plain blur and whose blocks
// s + 1 and s + R, where the segment needs them, are bulk copies) runs the
// FAST steps: with kRotateWindow in groups of NB steps that rotate the H
// window, in the loop unrolled U times in groups of U steps.
template <class G>
__device__ __forceinline__ void run_half_steps(HalfStep<G>& st) {
    constexpr int NB = G::NB;
    constexpr int R = G::RAW_SLOTS;
    constexpr int U = G::U;
    const HalfArgs& a = st.a;
    const int x0 = st.x0, ob0 = st.ob0, yb0 = st.yb0, nsteps = st.nsteps;
    const bool tma_strip = st.tma_strip;
    if constexpr (G::STEADY_LOOP) {
        int fast_lo = 0, fast_hi = 0;
        if (tma_strip && x0 + G::W <= a.src.width && a.dst_vec != 0 && a.block_offsets != 0 &&
            a.mode == SepMode::Blur) {
            const int first_inside = yb0 >= 0 ? 0 : (15 - yb0) / 16;    // first block with yb >= 0
            const int last_inside = (a.src.height - yb0) / 16 - 1;        // last block with yb + 16 <= height
            const int last_full = a.src.height / 16 - 1 - ob0 + G::WARM;  // last step writing 16 image rows
            const int copies_end = last_inside >= nsteps - 1 ? nsteps : last_inside - R + 1;
            fast_lo = max(G::WARM, first_inside - 1);
            fast_hi = max(fast_lo, min(copies_end, last_full + 1));
        }
        if constexpr (U == 1) {
#pragma unroll 1
            for (int s = 0; s < fast_lo; ++s) half_step<false, -1>(st, s);
            int s = fast_lo;
            if constexpr (G::ROTATE_WINDOW) {
#pragma unroll 1
                for (; s + NB <= fast_hi; s += NB)
                    for_each_index<NB>(
                        [&](auto j) { half_step<true, decltype(j)::value>(st, s + decltype(j)::value); });
            }
#pragma unroll 1
            for (; s < fast_hi; ++s) half_step<true, -1>(st, s);
#pragma unroll 1
            for (int s = fast_hi; s < nsteps; ++s) half_step<false, -1>(st, s);
        } else {
            // Unrolled: after the warm-up, groups of U steps, each group
            // steady or not as a whole, so the raw slots and buffers stay at
            // fixed places.
#pragma unroll 1
            for (int s = 0; s < min(G::WARM, nsteps); ++s) half_step<false, -1>(st, s);
            const int groups = max(0, nsteps - G::WARM) / U;
#pragma unroll 1
            for (int q = 0; q < groups; ++q) {
                const int s0 = G::WARM + U * q;
                if (s0 >= fast_lo && s0 + U <= fast_hi) {
#pragma unroll
                    for (int j = 0; j < U; ++j) half_step<true, -1>(st, s0 + j);
                } else {
#pragma unroll
                    for (int j = 0; j < U; ++j) half_step<false, -1>(st, s0 + j);
                }
            }
#pragma unroll 1
            for (int s = G::WARM + groups * U; s < nsteps; ++s) half_step<false, -1>(st, s);
        }
    } else {
#pragma unroll(U)
        for (int s = 0; s < nsteps; ++s) half_step<false, -1>(st, s);
    }
}

// One segment n (in the order of SegmentPlan; see separable_half_kernel) of
// the launch: the prologue, then the steps. tma_phase: bit k, the parity of
// raw slot k's next bulk copy completion (every copy a segment starts, it
// also waits for).
template <int C, int M, int U, bool I8>
__device__ __forceinline__ void half_segment(const HalfArgs& a, const int n, unsigned& tma_phase) {
    using G = HalfGeometry<C, M, U, I8>;
    constexpr int NB = G::NB;
    constexpr int R = G::RAW_SLOTS;
    std::uint8_t* const raw = half_smem;
    std::uint8_t* const stage = half_smem + G::OFF_STAGE;
    std::uint8_t* const tiles = half_smem + G::OFF_OUT;
    short* const colmap = reinterpret_cast<short*>(half_smem + G::OFF_COLMAP);
    const ShareTable<G::THREADS, G::SHARE_ITERS> share{reinterpret_cast<std::uint32_t*>(half_smem + G::OFF_SHARES) +
                                                       threadIdx.x};
    std::uint64_t* const bars = reinterpret_cast<std::uint64_t*>(half_smem + G::OFF_BARS);
    std::uint32_t* const halo_tasks = reinterpret_cast<std::uint32_t*>(half_smem + G::OFF_HALO);

    // Segments are handed out in order of n: the first and last strips (their
    // steps cost more) take the first numbers, so that they run in the first
    // wave, and the launch ends with the others' short segments.
    int strip, seg;
    bool edge;
    {
        const int strips = a.segments.strips;
        const int edges = a.segments.edge_strips();
        const int edge_blocks = edges * a.segments.count(true);
        edge = n < edge_blocks;
        if (edge) {
            seg = n / edges;
            strip = n % edges == 0 ? 0 : strips - 1;
        } else {
            const int inner = n - edge_blocks;
            seg = inner / (strips - 2);
            strip = 1 + inner % (strips - 2);
        }
    }
    const int x0 = strip * G::W;
    const SegmentTier& long_tier = edge ? a.segments.edge_long : a.segments.inner_long;
    const bool short_seg = seg >= long_tier.count;
    const SegmentTier& tier = short_seg ? a.segments.short_tier : long_tier;
    const int k = seg - (short_seg ? long_tier.count : 0);  // segment within its tier
    const int ob0 = tier.first + k * tier.len + min(k, tier.extra);  // first output row block of this segment
    const int nsteps = tier.len + (k < tier.extra ? 1 : 0) + G::WARM;
    const int xs = x0 - G::HALO;         // image column of staged column 0
    const int yb0 = 16 * ob0 - G::WIN;  // image row of input block 0
    const int warp = static_cast<int>(threadIdx.x) >> 5;
    const int lane = static_cast<int>(threadIdx.x) & 31;
    // Input blocks whose staged rows lie inside the image are bulk copies
    // where the strip's staged columns lie inside the image too, or where
    // those outside can be gathered from the slot (a.gather_edges; the TMA
    // zero-fills them first); tma_phase bit k is the parity of slot k's
    // next completion.
    const bool out_left = xs < 0, out_right = xs + G::SW > a.src.width;
    const bool gather = (!out_left || (a.gather_edges & 1) != 0) && (!out_right || (a.gather_edges & 2) != 0);
    const bool inner_strip = !out_left && !out_right;
    const bool halo_strip = gather && !inner_strip;
    // (gather holds for inner strips too, so "inner_strip ||" adds nothing;
    // written without it, ptxas took more registers and spilled 16 bytes in
    // four kernels.)
    const bool tma_strip = a.tma != 0 && (inner_strip || gather);
    const auto tma_block = [&](int b) {
        const int yb = yb0 + 16 * b;
        return tma_strip && yb >= 0 && yb + 16 <= a.src.height;
    };
    const auto wait_block = [&](int b, auto known_tma) {  // before staging block b (see the steps' wait_block)
        if (!decltype(known_tma)::value && !tma_block(b)) return;
        const int k = b & (R - 1);
        mbarrier_wait(bars + k, (tma_phase >> k) & 1u);
        tma_phase ^= 1u << k;
    };
    // The first blocks' bulk copies start at once, so that their trip to
    // memory overlaps the rest of the prologue (bench/TUNING.md, "Row segments").
    if (tma_strip && threadIdx.x == 0) {
        for (int b = 0; b < R; ++b)
            if (b < nsteps && tma_block(b))
                bulk_copy_block<typename G::Raw>(a, raw + b * G::RAW_SLOT, bars + b, yb0 + 16 * b, xs);
    }

    // Image column (border rule applied) of each staged column, for the slow
    // copies and the halo gathers.
    for (int i = static_cast<int>(threadIdx.x); i < G::SW; i += G::THREADS)
        colmap[i] = static_cast<short>(border_index(xs + i, a.src.width, a.border.mode));
    // The pair table, twice, in the output tiles' space (unused until the
    // first output step); the u8 passes use the quad table below.
    std::uint32_t* const pair_table = reinterpret_cast<std::uint32_t*>(tiles);
    if constexpr (!G::I8) stage_pair_table<HalfTables, G::THREADS>(pair_table, a.pairs);
    // Pair table entry of a0 of T_p for this lane (row g = l / 4, column pair
    // t = l % 4), and the u8 fragment table's slot of T8_0 (a0 = T8[g][4t..]
    // is quad 4t - WIN - g + r; T8_p is at slot + 32p).
    const auto pair_index = [&](int p) {
        return HalfTables::PAIR_OFFSET + 16 * p + 2 * (lane & 3) - G::WIN - (lane >> 2) + a.radius;
    };
    [[maybe_unused]] const int quad_slot0 =
        quad_slot(HalfTables::QUAD_ENTRY_OFFSET + 4 * (lane & 3) - G::WIN - (lane >> 2) + a.radius);
    // This thread's shares of the per-step work (only this thread reads them).
#pragma unroll
    for (int i = 0; i < G::SHARE_ITERS; ++i) share.put(i, share_record<G>(a, i, warp, lane, xs, x0, gather));
    __syncthreads();  // the column map, the pair table and the barriers
    if (halo_strip) build_halo_tasks<G>(halo_tasks, share, colmap, xs, a.src.width);

    // u8 Toeplitz fragments (I8).
    std::uint8_t* const quad_frags = half_smem + G::OFF_QUADS;
    if constexpr (G::I8) stage_quad_fragments<HalfTables, G::THREADS>(quad_frags, a.quads);

    // Prologue: blocks 0..R-1 in flight (the bulk copies since the start),
    // 0 and 1 complete, block 0 staged.
#pragma unroll 1
    for (int b = 0; b < R; ++b) {
        if (b < nsteps && !tma_block(b))
            copy_block<typename G::Raw, G::COPY_ITERS>(a, colmap, share, raw + b * G::RAW_SLOT, bars + b, false,
                                                       yb0 + 16 * b, row_offset(a.src, yb0 + 16 * b), xs);
        cp_async_commit();
    }
    cp_async_wait<R - 2>();
    __syncthreads();
    wait_block(0, std::false_type{});
    convert_block<G>(raw, stage, share, halo_strip, halo_tasks, a.border_value);

    const int plane = warp / G::GROUPS;
    const int group = warp - plane * G::GROUPS;
    const int g = lane >> 2;
    const int t = lane & 3;

    // Toeplitz fragments T_p (cuda/filter_separable_half_kernel.cuh), or (I8) T8_p.
    std::uint32_t tp[G::I8 ? 1 : NB][4];
    if constexpr (!G::I8) load_pair_fragments<HalfTables, NB, G::OWN_REGISTERS>(tp, pair_table, pair_index);
    std::uint32_t tq[G::I8 ? M + 1 : 1][4];
    if constexpr (G::I8) load_quad_fragments(tq, quad_frags, quad_slot0);
    // ldmatrix row address of this lane in a stage buffer: matrix q = lane / 8
    // is (rows 8(q/2).., the 16 bytes from byte 16(q%2)) of the warp's first
    // input block: f16 columns 8(q%2).., or u8 columns 16(q%2).., which are
    // b0 and b1 of an m16n8k32 B fragment.
    const int lq = lane >> 3;
    const int lm_off = plane * G::PLANE_BYTES + (8 * (lq >> 1) + (lane & 7)) * G::STAGE_ROW +
                       G::ELEM * (16 * G::TPW * group + G::HALO - G::WIN) + 16 * (lq & 1);
    // Output tile position of this lane's D_v element (row g, column 2t) of the warp's first 8 columns.
    const int tile_off = g * G::TROW + (16 * G::TPW * group + 2 * t) * G::TCOL + plane * G::TPLANE;

    // H of the last NB row blocks of each of the warp's column tiles, as
    // vertical B fragments [8-column half][b0, b1].
    std::uint32_t win[G::TPW][NB][4] = {};
    __syncthreads();

    // Byte offsets of the next block to copy and of the next output tile's
    // first row, advanced by 16 rows a step (a 64-bit multiply each step cost
    // about 12 instructions).
    std::int64_t fill_offset = row_offset(a.src, yb0 + 16 * R);
    std::int64_t out_offset = row_offset(a.dst, 16 * ob0);
    HalfStep<G> st{a,    tma_phase, raw,  stage,      tiles,     colmap, share,    bars, halo_tasks,
                   x0,   xs,        ob0,  yb0,        nsteps,    warp,   lane,     halo_strip, tma_strip,
                   lm_off, tile_off, tp, tq, win, fill_offset, out_offset};
    run_half_steps(st);
}

}  // namespace imgpar::cuda::filter_detail
