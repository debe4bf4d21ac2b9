// Tile staging: input rows copied into a ring of raw slots in shared memory,
// and the per-thread work shares that drive the copies (and the conversion
// and stores after them). Rows inside the image arrive as bulk tensor copies
// (TMA) that one thread starts, elsewhere as 16-byte cp.async chunks, and
// chunks the border rule touches a byte per lane. Each thread's share of a
// step's work is worked out once per block and kept in shared memory as
// share records.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_mma.cuh"
#include "cuda/tma.cuh"

namespace imgpar::cuda::filter_detail {

// Boxes per staged row for the bulk copies: the fewest equal boxes of at
// most 256 bytes (the TMA limit), each a multiple of 16 bytes (and of 48 for
// three channels, so no 12- or 48-byte convert unit straddles two boxes).
constexpr int raw_boxes(int row_bytes, int channels) {
    const int unit = channels == 3 ? 48 : 16;
    for (int k = 1; k <= 8; ++k)
        if (row_bytes % k == 0 && row_bytes / k <= 256 && (row_bytes / k) % unit == 0) return k;
    return 0;
}

// A raw slot: 16 staged rows of ROW_BYTES bytes of C-channel pixels, held box
// by box as the bulk copies write them: BOXES boxes of 16 rows x BOX_BYTES,
// each box's rows packed.
template <int ROW_BYTES, int kC>
struct RawSlot {
    static constexpr int C = kC;
    static constexpr int ROW = ROW_BYTES;
    static constexpr int BYTES = 16 * ROW_BYTES;
    static constexpr int BOXES = raw_boxes(ROW_BYTES, C);
    static constexpr int BOX_BYTES = BOXES > 0 ? ROW_BYTES / BOXES : 16;
    static constexpr int BOX_SLOT = 16 * BOX_BYTES;
    static constexpr int CHUNKS = BYTES / 16;  // copy work: 16-byte chunks
    static constexpr int CHUNKS_PER_ROW = ROW_BYTES / 16;
    static_assert(ROW_BYTES % 16 == 0, "rows of whole 16-byte chunks");
    static_assert(BOXES > 0 && BYTES % 128 == 0, "rows split into whole boxes; slots stay 128-byte aligned");

    // Offset of byte col of staged row row, and back.
    __device__ static int offset(int row, int col) {
        return (col / BOX_BYTES) * BOX_SLOT + row * BOX_BYTES + col % BOX_BYTES;
    }
    __device__ static int row(int off) { return off % BOX_SLOT / BOX_BYTES; }
    __device__ static int col(int off) { return off / BOX_SLOT * BOX_BYTES + off % BOX_BYTES; }
};

// An equal share per warp of N work items: item i (0, 1, ...) of a lane is
// lane + 32i of its warp's PER_WARP consecutive items, or -1 past the end.
template <int N, int WARPS>
struct WarpShare {
    static constexpr int PER_WARP = (N + WARPS - 1) / WARPS;
    static constexpr int ITERS = (PER_WARP + 31) / 32;
    __device__ static int item(int warp, int lane, int i) {
        const int k = lane + 32 * i;
        const int n = warp * PER_WARP + k;
        return (k < PER_WARP && n < N) ? n : -1;
    }
};

// Item i of each of a thread's three shares of a step's work (copy, convert,
// store), worked out once per block and kept in shared memory (held in
// registers, they were worked out again inside the step loop). kNoItem marks
// the end of a share.
constexpr std::uint32_t kNoOffset = 0xFFFFFFFFu;
constexpr int kNoItem = 0xFFFF;

// kNoOffset: the copy chunk is not one cp.async, the store chunk not one vector store.
struct ShareRecord {
    std::uint32_t copy_src;  // copy chunk: byte offset from its block's first source row
    std::uint32_t out_dst;   // store chunk: byte offset from its tile's first image row
    std::uint32_t chunks;    // copy chunk's raw slot offset (low 16 bits), store chunk's tile offset (high 16 bits)
    std::uint32_t unit;      // convert unit's raw slot offset (low 16 bits), its stage offset (high 16 bits)
};

// The records in shared memory, field by field: word (f * ITERS + i) *
// THREADS + thread holds field f of item i, so a warp's load of one field
// reads 32 consecutive words, one wavefront.
enum ShareField { kCopySrc, kOutDst, kChunks, kUnit };

template <int THREADS, int ITERS>
struct ShareTable {
    std::uint32_t* words;  // this thread's word of field 0, item 0

    __device__ __forceinline__ std::uint32_t get(ShareField f, int i) const { return words[(f * ITERS + i) * THREADS]; }
    __device__ __forceinline__ void put(int i, const ShareRecord& r) const {
        words[(kCopySrc * ITERS + i) * THREADS] = r.copy_src;
        words[(kOutDst * ITERS + i) * THREADS] = r.out_dst;
        words[(kChunks * ITERS + i) * THREADS] = r.chunks;
        words[(kUnit * ITERS + i) * THREADS] = r.unit;
    }
};

__device__ __forceinline__ int low16(std::uint32_t v) { return static_cast<int>(v & 0xFFFFu); }
__device__ __forceinline__ int high16(std::uint32_t v) { return static_cast<int>(v >> 16); }

// The bulk copies of the 16-row input block at image row yb (all inside the
// image) into a raw slot, one per box, completing on bar. One thread.
template <class Raw, class Args>
__device__ __forceinline__ void bulk_copy_block(const Args& a, std::uint8_t* slot, std::uint64_t* bar, int yb, int xs) {
    constexpr int C = Raw::C;
    mbarrier_arrive_expect_tx(bar, Raw::BYTES);
#pragma unroll
    for (int k = 0; k < Raw::BOXES; ++k)
        tma_load_2d(slot + k * Raw::BOX_SLOT, &a.src_map, xs * C + k * Raw::BOX_BYTES, yb, bar);
}

// Starts this thread's copies of the 16-row input block at image row yb
// (border rule applied) into a raw slot, for a strip whose staged column 0 is
// image column xs. tma (the same for the whole block): one bulk copy per box,
// started by thread 0 and completed on bar. Otherwise a block of 16 image
// rows (all but one or two per segment) takes the short path: one add per
// chunk to the offset in its share record (yb_offset is yb * pitch). Chunks
// the border rule touches (image edges, constant border rows, unaligned rows)
// are fetched a byte per lane by the whole warp, two chunks at a time: one
// memory round trip per pair and no registers held for them (bench/TUNING.md).
// Args: src, border.mode, border_value (a constant border's raw sample) and
// src_map (the source's tensor map); colmap: the image column of each staged
// pixel column, border rule applied (< 0: the constant). Call with the warp
// converged.
template <class Raw, int ITERS, class Args, class Shares>
__device__ __forceinline__ void copy_block(const Args& a, const short* colmap, const Shares& share, std::uint8_t* slot,
                                           std::uint64_t* bar, bool tma, int yb, std::int64_t yb_offset, int xs) {
    constexpr int C = Raw::C;
    if (tma) {
        if (threadIdx.x == 0) bulk_copy_block<Raw>(a, slot, bar, yb, xs);
        return;
    }
    const int lane = static_cast<int>(threadIdx.x) & 31;
    const bool inside = yb >= 0 && yb + 16 <= a.src.height;  // the same for the whole block
#pragma unroll
    for (int i = 0; i < ITERS; ++i) {
        const int dst = low16(share.get(kChunks, i));
        const std::uint32_t src = share.get(kCopySrc, i);
        bool fast = dst != kNoItem && src != kNoOffset;
        if (inside) {
            if (fast) cp_async<16>(slot + dst, a.src.data + yb_offset + src);
        } else {
            const int yy = border_index(yb + Raw::row(dst), a.src.height, a.border.mode);
            fast = fast && yy >= 0;
            if (fast) cp_async<16>(slot + dst, row_ptr(a.src, yy) + (xs * C + Raw::col(dst)));
        }
        unsigned slow = __ballot_sync(0xFFFFFFFFu, dst != kNoItem && !fast);
        while (slow != 0u) {
            const int first = __ffs(slow) - 1;
            slow &= slow - 1u;
            const int second = slow != 0u ? __ffs(slow) - 1 : -1;
            if (second >= 0) slow &= slow - 1u;
            const int owner = lane < 16 ? first : second;
            const int o = owner < 0 ? first : owner;
            const int d = __shfl_sync(0xFFFFFFFFu, dst, o);
            if (owner >= 0) {
                const int y = border_index(yb + Raw::row(d), a.src.height, a.border.mode);
                const int pos = Raw::col(d) + (lane & 15);  // this lane's byte of the staged row
                const int px = pos / C;
                const int xx = colmap[px];
                std::uint32_t v = static_cast<std::uint32_t>(a.border_value);
                if (y >= 0 && xx >= 0) v = __ldg(row_ptr(a.src, y) + static_cast<std::size_t>(xx) * C + (pos - px * C));
                slot[d + (lane & 15)] = static_cast<std::uint8_t>(v);
            }
        }
    }
}

}  // namespace imgpar::cuda::filter_detail
