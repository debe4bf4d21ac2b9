// The non-MMA phases of the tensor-core Gaussian's step (see
// cuda/filter_separable_half_kernel.cuh for the method): each thread's shares of the
// copy, convert and store work, the staging of the next input block, and
// the stores of the output tile through the epilogue. G is a HalfGeometry.
//
// The steps see the segment's state through HalfStep, references to the
// prologue's values (half_segment, cuda/filter_separable_half_block.cuh);
// parameters are references where a step's own values are meant. So the
// phases compile to the code of one step written as one function, the form
// the kernel was measured in (bench/TUNING.md).
#pragma once

#include <cstdint>

#include "cuda/block/convert.cuh"
#include "cuda/block/halo.cuh"
#include "cuda/block/staging.cuh"
#include "cuda/filter_separable_half.cuh"

namespace imgpar::cuda::filter_detail {

// Bytes of an output tile row inside the image.
template <class G>
__device__ __forceinline__ int tile_row_bytes(const HalfArgs& a, int x0) {
    return min(G::W, a.src.width - x0) * G::C;
}

// Item i of this thread's share of each of a step's kinds of work (copy,
// convert, store), for the strip at image column x0 (staged column 0 at xs).
// Offsets held as 32 bits (a.block_offsets: below 2^31 within 16 rows) take
// the short paths; kNoItem marks the end of a share. gather: staged columns
// outside the image are filled from the slot before conversion (fill_halo),
// so copies skip chunks wholly outside the image.
template <class G>
__device__ ShareRecord share_record(const HalfArgs& a, int i, int warp, int lane, int xs, int x0, bool gather) {
    constexpr int C = G::C;
    ShareRecord r{kNoOffset, kNoOffset, 0u, static_cast<std::uint32_t>(kNoItem)};
    int copy_dst = kNoItem;  // copy: a 16-byte chunk of a raw slot
    const int cn = WarpShare<G::Raw::CHUNKS, G::WARPS>::item(warp, lane, i);
    if (cn >= 0) {
        const int row = cn / G::Raw::CHUNKS_PER_ROW;
        const int col = (cn - row * G::Raw::CHUNKS_PER_ROW) * 16;  // byte in the staged row
        const int gcol = xs * C + col;                             // byte column in the image
        copy_dst = G::Raw::offset(row, col);
        if (gather && (gcol + 16 <= 0 || gcol >= a.src.width * C)) copy_dst = kNoItem;
        if (a.block_offsets != 0 && a.src_vec != 0 && gcol >= 0 && gcol + 16 <= a.src.width * C)
            r.copy_src = static_cast<std::uint32_t>(static_cast<std::size_t>(row) * a.src.pitch + gcol);
    }
    int tile = kNoItem;  // store: a 16-byte chunk of an output tile
    if (G::PLANAR_TILE && i == 0) {  // 16 pixels of a planar tile: group lane of the warp pair's 64
        const int grp = (warp & 1) * 32 + lane;
        const int row = grp / (G::W / 16);
        const int q = grp - row * (G::W / 16);
        tile = row * G::TROW + 16 * q;
        if (a.block_offsets != 0 && a.dst_vec != 0 && a.mode == SepMode::Blur &&
            (16 * q + 16) * C <= tile_row_bytes<G>(a, x0))
            r.out_dst = static_cast<std::uint32_t>(static_cast<std::size_t>(row) * a.dst.pitch + (x0 + 16 * q) * C);
    }
    const int on = G::PLANAR_TILE ? -1 : WarpShare<G::OUT_CHUNKS, G::WARPS>::item(warp, lane, i);
    if (on >= 0) {
        const int row = on / G::OUT_CHUNKS_PER_ROW;
        const int off = (on - row * G::OUT_CHUNKS_PER_ROW) * 16;
        tile = row * G::OUT_ROW + off;
        if (a.block_offsets != 0 && a.dst_vec != 0 && a.mode == SepMode::Blur &&
            off + 16 <= tile_row_bytes<G>(a, x0))
            r.out_dst = static_cast<std::uint32_t>(static_cast<std::size_t>(row) * a.dst.pitch + (x0 * C + off));
    }
    r.chunks = static_cast<std::uint32_t>(copy_dst) | (static_cast<std::uint32_t>(tile) << 16);
    const int un = WarpShare<G::UNITS, G::WARPS>::item(warp, lane, i);  // convert: UNIT_PX pixels of a row
    if (un >= 0) {
        const int row = un / G::UNITS_PER_ROW;
        const int q = un - row * G::UNITS_PER_ROW;
        r.unit = static_cast<std::uint32_t>(G::Raw::offset(row, q * G::UNIT_PX * C)) |
                 (static_cast<std::uint32_t>(G::stage_row(row) * G::STAGE_ROW + q * G::UNIT_PX * G::ELEM) << 16);
    }
    return r;
}

// Stages a raw slot: fills its halo (halo: the strip has halo tasks, an edge
// strip with gather_edges), then converts this thread's units into the stage
// buffer.
template <class G, class Shares>
__device__ __forceinline__ void convert_block(std::uint8_t* slot, std::uint8_t* stage, const Shares& share, bool halo,
                                              const std::uint32_t* halo_tasks, int border_value) {
    if (halo) fill_halo<G>(slot, halo_tasks, border_value);
#pragma unroll
    for (int i = 0; i < G::CONVERT_ITERS; ++i) {
        const std::uint32_t unit = share.get(kUnit, i);
        if (low16(unit) == kNoItem) break;
        convert_unit<G>(slot, stage, ConvertUnit{low16(unit), high16(unit)});
    }
}

// Writes one tile chunk (n bytes inside the image) to image row y at byte
// col, through the epilogue.
__device__ __forceinline__ void store_chunk(const HalfArgs& a, const uint4 b, int col, int n, int y) {
    std::uint32_t w[4] = {b.x, b.y, b.z, b.w};
    const bool full = n == 16;
    if (a.mode != SepMode::Blur) {  // unsharp reads the source
        std::uint32_t sw[4] = {0u, 0u, 0u, 0u};
        const std::uint8_t* sp = row_ptr(a.src, y) + col;
        if (full && a.src_vec) {
            const uint4 v = __ldg(reinterpret_cast<const uint4*>(sp));
            sw[0] = v.x;
            sw[1] = v.y;
            sw[2] = v.z;
            sw[3] = v.w;
        } else {
#pragma unroll
            for (int e = 0; e < 16; ++e)
                if (e < n) sw[e >> 2] |= static_cast<std::uint32_t>(__ldg(sp + e)) << (8 * (e & 3));
        }
#pragma unroll
        for (int q = 0; q < 4; ++q) w[q] = separable_output_word(a.mode, a.unsharp, w[q], sw[q]);
    }
    std::uint8_t* dp = row_ptr(a.dst, y) + col;
    if (full && a.dst_vec) {
        *reinterpret_cast<uint4*>(dp) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
#pragma unroll
        for (int e = 0; e < 16; ++e)
            if (e < n) dp[e] = static_cast<std::uint8_t>(w[e >> 2] >> (8 * (e & 3)));
    }
}

// What the steps of a segment read and advance: the prologue's values and
// registers, by reference.
template <class G>
struct HalfStep {
    const HalfArgs& a;
    unsigned& tma_phase;  // bit k: the parity of raw slot k's next bulk copy completion
    std::uint8_t* const& raw;    // the raw slots
    std::uint8_t* const& stage;  // two stage buffers (f16 or byte planes)
    std::uint8_t* const& tiles;  // two output tiles
    short* const& colmap;        // image column (border rule applied) of each staged column
    const ShareTable<G::THREADS, G::SHARE_ITERS>& share;
    std::uint64_t* const& bars;        // one mbarrier per raw slot
    std::uint32_t* const& halo_tasks;  // (halo_strip)
    const int& x0;      // image column of the strip
    const int& xs;      // image column of staged column 0
    const int& ob0;     // first output row block
    const int& yb0;     // image row of input block 0
    const int& nsteps;  // output row blocks and WARM warm-up steps
    const int& warp;
    const int& lane;
    const bool& halo_strip;  // an edge strip that gathers its halo from the slot
    const bool& tma_strip;   // its blocks inside the image arrive as bulk copies
    const int& lm_off;       // this lane's ldmatrix row in a stage buffer
    const int& tile_off;     // this lane's first result in an output tile
    const std::uint32_t (&tp)[G::I8 ? 1 : G::NB][4];    // FP16 Toeplitz fragments T_p
    const std::uint32_t (&tq)[G::I8 ? G::M + 1 : 1][4];  // u8 fragments T8_p
    std::uint32_t (&win)[G::TPW][G::NB][4];             // the H windows (WindowAt)
    std::int64_t& fill_offset;  // byte offset of the next input block to copy
    std::int64_t& out_offset;   // byte offset of the next output tile's first row
};

// Whether input block b arrives as a bulk copy (the prologue has its own
// copy of this and of wait_block, as lambdas: it runs before the HalfStep).
template <class G>
__device__ __forceinline__ bool tma_block(const HalfStep<G>& st, int b) {
    const int yb = st.yb0 + 16 * b;
    return st.tma_strip && yb >= 0 && yb + 16 <= st.a.src.height;
}

// Waits for block b's bulk copy, if it is one (KNOWN_TMA: it is).
template <bool KNOWN_TMA, class G>
__device__ __forceinline__ void wait_block(HalfStep<G>& st, int b) {
    if (!KNOWN_TMA && !tma_block(st, b)) return;
    const int k = b & (G::RAW_SLOTS - 1);
    mbarrier_wait(st.bars + k, (st.tma_phase >> k) & 1u);
    st.tma_phase ^= 1u << k;
}

// Starts the bulk copy of block b into raw slot k (known to be one): one lane
// of warp 0; the other warps branch past it.
template <class G>
__device__ __forceinline__ void issue_tma(const HalfStep<G>& st, int b, int k) {
    if (st.warp == 0) {
        if (st.lane == 0)
            bulk_copy_block<typename G::Raw>(st.a, st.raw + k * G::RAW_SLOT, st.bars + k, st.yb0 + 16 * b, st.xs);
    }
}

// Stages block s + 1 (complete and published by the last barrier) into the
// stage buffer from its raw slot (convert_slot), refills the slot block s
// left (fill_slot) with block s + R, and waits for this thread's copies of
// block s + 2, which the next step stages. The steady state (FAST) tests the
// segment's end here too (two uniform compares), so that it can run to the
// segment's last step.
template <bool FAST, class G>
__device__ __forceinline__ void stage_next_block(HalfStep<G>& st, int s, const int& convert_slot,
                                                 const int& fill_slot) {
    constexpr int R = G::RAW_SLOTS;
    const HalfArgs& a = st.a;
    std::uint8_t* const raw = st.raw;
    std::uint8_t* const stage = st.stage;
    short* const colmap = st.colmap;
    const auto& share = st.share;
    std::uint64_t* const bars = st.bars;
    std::uint32_t* const halo_tasks = st.halo_tasks;
    const int xs = st.xs, yb0 = st.yb0, nsteps = st.nsteps;
    const bool halo_strip = st.halo_strip;
    std::int64_t& fill_offset = st.fill_offset;
    if (s + 1 < nsteps) {
        wait_block<FAST>(st, s + 1);
        convert_block<G>(raw + convert_slot * G::RAW_SLOT, stage + ((s + 1) & 1) * G::STAGE_BYTES, share, halo_strip,
                         halo_tasks, a.border_value);
    }
    if (s + R < nsteps) {
        if (FAST)
            issue_tma(st, s + R, fill_slot);
        else
            copy_block<typename G::Raw, G::COPY_ITERS>(a, colmap, share, raw + fill_slot * G::RAW_SLOT,
                                                       bars + fill_slot, tma_block(st, s + R), yb0 + 16 * (s + R),
                                                       fill_offset, xs);
    }
    fill_offset += 16 * static_cast<std::int64_t>(a.src.pitch);
    cp_async_commit();
    cp_async_wait<R - 2>();
    __syncthreads();
}

// Writes the output tile of step s (output row block ob0 + s - WARM), once
// past the warm-up, to the image through the epilogue. The steady state
// (FAST) writes whole rows of a plain blur: every chunk is one vector store.
template <bool FAST, class G>
__device__ __forceinline__ void store_output_tile(HalfStep<G>& st, int s, std::uint8_t* const& tile) {
    constexpr int C = G::C;
    const HalfArgs& a = st.a;
    const auto& share = st.share;
    const int x0 = st.x0, ob0 = st.ob0, warp = st.warp;
    std::int64_t& out_offset = st.out_offset;
    if (FAST || s >= G::WARM) {
        const int y0 = 16 * (ob0 + s - G::WARM);
        const int rows = FAST ? 16 : min(16, a.src.height - y0);
        if constexpr (G::PLANAR_TILE) {
            // One warp pair a step (in turn) interleaves the tile, 16 pixels a lane.
            if ((warp >> 1) == s % (G::WARPS / 2)) {
                const int t = high16(share.get(kChunks, 0));  // the group's offset in plane 0
                const uint4 vr = *reinterpret_cast<const uint4*>(tile + t);
                const uint4 vg = *reinterpret_cast<const uint4*>(tile + t + G::TPLANE);
                const uint4 vb = *reinterpret_cast<const uint4*>(tile + t + 2 * G::TPLANE);
                const std::uint32_t pr[4] = {vr.x, vr.y, vr.z, vr.w}, pg[4] = {vg.x, vg.y, vg.z, vg.w},
                                    pb[4] = {vb.x, vb.y, vb.z, vb.w};
                const std::uint32_t out_dst = share.get(kOutDst, 0);
                const bool vec = FAST || (rows == 16 && out_dst != kNoOffset);
                const int row = t / G::TROW;
                const int off = (t - row * G::TROW) * C;  // from the strip's first byte
#pragma unroll
                for (int k = 0; k < 3; ++k) {  // 16 interleaved bytes at a time
                    const uint4 o =
                        make_uint4(interleaved_word(pr, pg, pb, 4 * k), interleaved_word(pr, pg, pb, 4 * k + 1),
                                   interleaved_word(pr, pg, pb, 4 * k + 2), interleaved_word(pr, pg, pb, 4 * k + 3));
                    if (vec) {
                        reinterpret_cast<uint4*>(a.dst.data + out_offset + out_dst)[k] = o;
                    } else {
                        const int n = min(16, tile_row_bytes<G>(a, x0) - (off + 16 * k));
                        if (row < rows && n > 0) store_chunk(a, o, x0 * C + off + 16 * k, n, y0 + row);
                    }
                }
            }
        } else {
#pragma unroll
            for (int i = 0; i < G::STORE_ITERS; ++i) {
                const int t = high16(share.get(kChunks, i));  // offset in the tile
                if (t == kNoItem) break;
                const std::uint32_t out_dst = share.get(kOutDst, i);
                if (FAST || (rows == 16 && out_dst != kNoOffset)) {
                    *reinterpret_cast<uint4*>(a.dst.data + out_offset + out_dst) =
                        *reinterpret_cast<const uint4*>(tile + t);
                } else {
                    const int row = t / G::OUT_ROW;
                    const int off = t - row * G::OUT_ROW;  // also from the strip's first byte
                    const int n = min(16, tile_row_bytes<G>(a, x0) - off);
                    if (row < rows && n > 0)
                        store_chunk(a, *reinterpret_cast<const uint4*>(tile + t), x0 * C + off, n, y0 + row);
                }
            }
        }
        out_offset += 16 * static_cast<std::int64_t>(a.dst.pitch);
    }
}

}  // namespace imgpar::cuda::filter_detail
