// The tensor-core Gaussian's shared definitions (the kernels in
// cuda/filter_separable_half_kernel.cuh, the dispatch in
// cuda/filter_separable_half_dispatch.cu): the kernel arguments, the row
// segment plan, and the geometry of a variant, which the kernel reads as
// compile-time constants.
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cstdint>

#include "cuda/block/staging.cuh"
#include "cuda/block/toeplitz.cuh"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_separable_half_tuning.hpp"

namespace imgpar::cuda::filter_detail {

// The Toeplitz tables (cuda/block/toeplitz.cuh) for windows of up to kMaxM blocks.
using HalfTables = ToeplitzTables<kMaxM>;
constexpr int kPairs = HalfTables::PAIRS;
constexpr int kQuads = HalfTables::QUADS;

// Bytes per output tile row: an odd multiple of 16, so the 8 rows one
// vertical MMA stores start in 8 different groups of 4 banks: the 16-bit
// stores of one gray MMA hit 16 distinct banks, one wavefront each.
constexpr int out_row_bytes(int bytes) {
    int b = (bytes + 15) / 16 * 16;
    if (b / 16 % 2 == 0) b += 16;
    return b;
}

// The geometry of a variant: its knobs (from its row of kGaussianTuning), the
// layout of its strip, windows and warps, and of its shared memory. I8: both
// passes as u8 MMAs (uses_u8_passes), on staged byte planes.
template <int kC, int kM, int kU, bool kI8>
struct HalfGeometry {
    static constexpr int C = kC;
    static constexpr int M = kM;
    static constexpr int U = kU;
    static constexpr bool I8 = kI8;
    static constexpr int ROW = gaussian_row(C, M, I8, U);
    static_assert(ROW >= 0, "every variant has a row in kGaussianTuning");
    static_assert(!I8 || M >= 2, "u8 passes only past radius 16 (see uses_u8_passes)");
    static constexpr int W = kGaussianTuning[ROW].strip_px;                 // output columns per block
    static constexpr int TPW = kGaussianTuning[ROW].tiles_per_warp;         // 16-column tiles per warp
    static constexpr int BLOCKS_PER_SM = kGaussianTuning[ROW].blocks_per_sm;
    static constexpr int UNIT_PX = kGaussianTuning[ROW].convert_unit_px;
    static constexpr int RAW_SLOTS = kGaussianTuning[ROW].raw_slots;
    static constexpr bool PERSISTENT = kGaussianTuning[ROW].has(kPersistent);
    static constexpr bool EARLY_VERTICAL = kGaussianTuning[ROW].has(kEarlyVertical);
    static constexpr bool STEADY_LOOP = kGaussianTuning[ROW].has(kSteadyLoop);
    static constexpr bool ROTATE_WINDOW = kGaussianTuning[ROW].has(kRotateWindow);
    static constexpr bool OWN_REGISTERS = kGaussianTuning[ROW].has(kOwnRegisters);
    static constexpr bool PLANAR_TILE = kGaussianTuning[ROW].has(kPlanarTile);
    static_assert((RAW_SLOTS & (RAW_SLOTS - 1)) == 0 && RAW_SLOTS >= 2, "slot indices are masks");
    static_assert(!ROTATE_WINDOW || (STEADY_LOOP && U == 1), "the window rotates in the rolled steady loop");
    static_assert(!OWN_REGISTERS || !I8, "own registers for a1 and a3 of FP16 fragments");
    // M = 0 is the variant for radius <= 8: its window of 32 inputs starts 8
    // before the 16 outputs, so 2 blocks cover it instead of 3 (rows alike:
    // one warm-up block instead of two). It stages the columns of M = 1, so
    // the copies stay 16-byte aligned, and skips the first 8 in the MMAs.
    static constexpr int NB = M == 0 ? 2 : 2 * M + 1;    // 16-wide blocks per window
    static constexpr int HALO = M == 0 ? 16 : 16 * M;    // staged columns left (and right) of the strip
    static constexpr int WIN = M == 0 ? 8 : 16 * M;      // window start, columns (and rows) before the outputs
    static constexpr int WARM = NB - 1;                  // steps before the first output block
    static constexpr int SW = W + 2 * HALO;              // staged columns
    static constexpr int GROUPS = W / (16 * TPW);        // warps per plane
    static constexpr int THREADS = 32 * C * GROUPS;
    static constexpr int WARPS = THREADS / 32;
    using Raw = RawSlot<SW * C, C>;                      // a raw slot: 16 staged rows
    static constexpr int RAW_SLOT = Raw::BYTES;
    // Convert work: UNIT_PX pixels a unit (16 for gray, 4 for RGB, 16 for RGB
    // where a slot has one per thread).
    static constexpr int UNITS_PER_ROW = SW / UNIT_PX;
    static constexpr int UNITS = 16 * UNITS_PER_ROW;
    // Staged planes: f16 samples 1024 + v, or (I8) bytes v. Rows are an
    // odd number of 16 bytes apart (ldmatrix banks); a u8 window of the last
    // column group reads 16 bytes past SW, which meet zero taps.
    static constexpr int ELEM = I8 ? 1 : 2;  // bytes per staged sample
    static constexpr int STAGE_ROW = I8 ? SW + 16 : 2 * (SW + 8);
    static constexpr int PLANE_BYTES = 16 * STAGE_ROW;
    static constexpr int STAGE_BYTES = C * PLANE_BYTES;
    static constexpr int OUT_ROW = out_row_bytes(W * C);
    // PLANAR_TILE: plane c of tile row r at c * TPLANE + r * TROW, so a
    // vertical MMA's results go out as 16-bit stores as for gray, and one warp
    // pair a step interleaves the tile, 16 pixels a lane.
    static constexpr int TROW = PLANAR_TILE ? out_row_bytes(W) : OUT_ROW;  // bytes per tile row (of one plane)
    static constexpr int TCOL = PLANAR_TILE ? 1 : C;                       // bytes per tile column
    static constexpr int TPLANE = PLANAR_TILE ? 16 * TROW : 1;             // bytes from one plane to the next
    static constexpr int TILE_BYTES = PLANAR_TILE ? C * 16 * TROW : 16 * OUT_ROW;
    static constexpr int OUT_GROUPS = 16 * (W / 16);                       // (planar) 16-pixel groups per tile
    static constexpr int OUT_CHUNKS_PER_ROW = W * C / 16;
    static constexpr int OUT_CHUNKS = 16 * OUT_CHUNKS_PER_ROW;  // store work: 16-byte chunks of a tile
    static constexpr int OFF_STAGE = RAW_SLOTS * RAW_SLOT;
    static constexpr int OFF_OUT = OFF_STAGE + 2 * STAGE_BYTES;
    static constexpr int OFF_COLMAP = OFF_OUT + 2 * TILE_BYTES;
    static constexpr int COPY_ITERS = WarpShare<Raw::CHUNKS, WARPS>::ITERS;  // per thread and step
    static constexpr int CONVERT_ITERS = WarpShare<UNITS, WARPS>::ITERS;
    static constexpr int STORE_ITERS = PLANAR_TILE ? 1 : WarpShare<OUT_CHUNKS, WARPS>::ITERS;
    static constexpr int SHARE_ITERS = std::max(COPY_ITERS, std::max(CONVERT_ITERS, STORE_ITERS));
    static constexpr int OFF_SHARES = OFF_COLMAP + (2 * SW + 15) / 16 * 16;
    // Halo tasks (fill_halo): a warp's convert units meet at most HALO_ROWS
    // staged rows, and the table holds HALO_COLS columns outside the image per
    // row (launch_separable_half checks each edge strip: a narrow image, or a
    // last strip with few columns inside it, may have more; room for every
    // pixel would not fit the shared memory: bench/TUNING.md).
    static constexpr int HALO_ROWS = (WarpShare<UNITS, WARPS>::PER_WARP + UNITS_PER_ROW - 2) / UNITS_PER_ROW + 1;
    static constexpr int HALO_COLS = HALO + 16;
    static constexpr int HALO_ITERS = (HALO_ROWS * HALO_COLS + 31) / 32;
    // u8 fragments (I8) after the share records (16 bytes: four fields a record).
    static constexpr int OFF_QUADS = OFF_SHARES + SHARE_ITERS * THREADS * 16;
    static constexpr int QUAD_BYTES = I8 ? HalfTables::QUAD_ENTRIES * 16 : 0;
    static constexpr int OFF_HALO = OFF_QUADS + QUAD_BYTES;
    static constexpr int OFF_BARS = OFF_HALO + HALO_ITERS * THREADS * 4;  // one mbarrier per raw slot
    static constexpr int OFF_TICKET = OFF_BARS + 8 * RAW_SLOTS;  // the block's current segment (separable_half_kernel)
    static constexpr int SMEM = OFF_TICKET + 16;
    static_assert(STAGE_ROW % 16 == 0 && (STAGE_ROW / 16) % 2 == 1,
                  "staged rows must be an odd number of 16-byte units apart (ldmatrix banks)");
    static_assert(STAGE_BYTES % 16 == 0, "shared regions stay 16-byte aligned");
    static_assert(2 * TILE_BYTES >= 2 * kPairs * 4, "the pair table fits in the output tiles");
    static_assert(!PLANAR_TILE || OUT_GROUPS == 64, "a planar tile is one warp pair's groups");
    static_assert(SW % UNIT_PX == 0 && (W * C) % 16 == 0, "whole units and chunks per row");
    static_assert(RAW_SLOT < 0xFFFF && PLANE_BYTES < 0xFFFF && TILE_BYTES < 0xFFFF, "share offsets fit in 16 bits");

    // Staged row of image row r of a block. The u8 passes order them 0, 1,
    // 4, 5, .., 13, then 2, 3, 6, 7, .., 15: the B fragments of the two
    // 8-row tiles (n = 0..7 each, lane (g, t) holding n = 2t, 2t + 1) then
    // give each lane rows 4t..4t + 3, the rows of one vertical B register.
    __device__ static int stage_row(int r) { return I8 ? ((r & 2) << 2) | ((r >> 1) & 6) | (r & 1) : r; }
};

// Row segments of equal length (to one block): count segments of len output
// row blocks, one more for the first extra, from output row block first.
struct SegmentTier {
    int count;
    int len;
    int extra;
    int first;
};

// The segments of every strip (plan_segments): the long ones, then the short
// ones. The two edge strips split the same rows into more long segments.
struct SegmentPlan {
    int strips;
    SegmentTier inner_long;
    SegmentTier edge_long;
    SegmentTier short_tier;
    __host__ __device__ int count(bool edge) const { return (edge ? edge_long : inner_long).count + short_tier.count; }
    __host__ __device__ int edge_strips() const { return strips < 2 ? strips : 2; }
    // Segments in all strips: edge strips' first (see half_segment), then the others'.
    __host__ __device__ int total() const {
        return edge_strips() * count(true) + (strips - edge_strips()) * count(false);
    }
};

struct HalfArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int border_value;  // V of a constant border, as a raw sample
    SepMode mode;
    UnsharpArg unsharp;
    int radius;     // r after trimming zero taps, <= 16M
    SegmentPlan segments;
    unsigned long long* tickets;      // segment n is ticket ticket_base + n
    unsigned long long ticket_base;
    int src_vec;    // source rows start 16-byte aligned
    int dst_vec;    // destination rows start 16-byte aligned
    int block_offsets;  // a byte offset within 16 rows of either image fits in 31 bits
    int tma;            // src_map describes the source: bulk copies for blocks inside the image
    // Bit 0 (1): the strips with staged columns left (right) of the image
    // fill those from the slot (fill_halo) instead of fetching them a byte at
    // a time: the border rule maps each to a column the strip stages, or to
    // the constant, and the halo task table holds them (halo_strip_ok).
    // Fetched, an edge strip's steps took 2-3x as long (bench/TUNING.md).
    int gather_edges;
    CUtensorMap src_map;
    std::uint32_t pairs[kPairs];  // f16 tap pairs (ToeplitzTables::PAIR_OFFSET)
    std::uint32_t quads[kQuads];  // u8 tap quads (u8 passes; ToeplitzTables::QUAD_OFFSET)
};

using HalfKernel = void (*)(HalfArgs);

// A compiled variant: its kernel, its tuning row and the launch shape.
struct HalfVariant {
    HalfKernel fn = nullptr;
    const GaussianTuning* tuning = nullptr;  // its row of kGaussianTuning
    int threads = 0;
    int smem = 0;
    int box_bytes = 0;  // width of the bulk copy boxes
    int halo = 0;       // staged columns left (and right) of a strip
    int halo_cols = 0;  // staged columns outside the image per row the halo task table holds
};

// The kernel of row `row` (0..kGaussianRows - 1) of the tuning table, whose
// channel count is C (cuda/filter_separable_half_c<C>.cu instantiates them:
// gray and RGB).
template <int C>
HalfVariant half_variant_of_channels(int row);
template <>
HalfVariant half_variant_of_channels<1>(int row);
template <>
HalfVariant half_variant_of_channels<3>(int row);

}  // namespace imgpar::cuda::filter_detail
