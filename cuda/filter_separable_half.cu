// Gaussian blur and unsharp mask on the tensor cores, with both passes
// chained in registers: FP16 MMAs up to radius 16 (and where a tap does not
// fit a byte), u8 MMAs past it (see "The u8 passes" below).
//
// Each 1-D pass is a product with a banded (Toeplitz) matrix of the taps, done
// with mma.m16n8k16 (f16 x f16 -> f32). The contract (src/ops/filter.hpp)
// makes that exact: samples, taps (at most 2048 here) and the intermediate H
// (3 fractional bits, 0..2040; the kernel holds H + 4, see h_round_pair) are
// exact f16 integers, and every partial sum is an integer below 2^23, exact in
// f32.
//
// A warp owns 16 output columns of one channel plane (32 where it takes two
// column tiles, GaussianTuning::tiles_per_warp) and walks down a segment of
// rows in steps of 16. With r <= 16M, 2M + 1 blocks of 16 inputs cover the
// window of 16 outputs, and block p of the Toeplitz matrix is
//   T_p[i][k] = tap(16p + k - 16M - i + r)      (0 outside 0..2r).
// (M = 0, for r <= 8: 2 blocks starting 8 before the outputs, 16M -> 8.)
// Per step:
//   - horizontal: D_h[16 columns x 8 rows] += T_p * B_p for the 2M + 1 column
//     blocks p, for the 16 new rows (two 8-row tiles); B_p comes from the
//     staged plane with one ldmatrix.x4 per block.
//   - A lane of D_h holds columns g and g+8 of rows 2t and 2t+1: exactly the
//     lane layout of the B operand of an MMA whose K runs over rows. So, once
//     rounded to H, the values stay in registers, in a window of the last
//     2M + 1 row blocks.
//   - vertical: D_v[16 rows x 8 columns] += T_p * H_p over the window gives 16
//     output rows; T_p is the same set of registers as in the horizontal pass
//     (same taps, same geometry).
// H never leaves the registers, and each step costs 4(2M + 1) MMAs per warp
// for 256 outputs.
//
// Input rows are copied into a ring of raw slots several steps ahead: rows
// inside the image (all but the first and last blocks) as TMA bulk copies
// that one thread starts, elsewhere with cp.async, 16 bytes at a time, and
// the border rule. Edge strips fill their staged columns outside the image
// from in-image columns of the same slot (fill_halo). Each step converts one
// whole slot into f16 planes: channels split, colour premultiplied, and each
// byte v turned into the f16 value 1024 + v by one byte permute. The offset
// adds exactly 1024 * 4096 = 2^22 to every horizontal sum (the taps under
// each output sum to 4096), which the rounding takes out again.
//
// What is not MMA bounds the kernel, so it is kept lean (bench/TUNING.md,
// "What bounds the kernel"):
//   - the copy, convert and store work of a step is split into equal shares
//     per warp, and each thread's share (offsets, image-edge flags) is worked
//     out once per block and read back from shared memory each step; inside
//     the image, a copy or a store is one add to a 32-bit offset;
//   - the roundings run on the FMA pipe: an FMA rounding toward zero into
//     [2^23, 2^24), where consecutive floats are 1 apart, is floor() of its
//     exact result, and the low bits of the float are the integer;
//   - the Toeplitz fragments come from a host-made table of f16 tap pairs.
//
// The u8 passes (uses_u8_passes, M >= 2): the same products with
// mma.m16n8k32 (u8 x u8 -> s32) over M + 1 blocks of 32 inputs,
//   T8_p[i][k] = tap(32p + k - 16M - i + r),
// on byte planes, exact in s32 (block M as mma.m16n8k16: its inputs 16..
// meet zero taps, as 16M + 16 - i + r > 2r). The rows of a staged block are permuted
// (HalfGeometry::stage_row) so that a lane of D_h holds rows 4t..4t+3 of
// columns g and g+8; rounded, their H go into four registers, the low and
// the high bytes of H per column (h_planes): the B operands of vertical MMAs
// whose K runs over 32 rows (window blocks 2p and 2p + 1, whose T8_p is the
// horizontal one), into sums of each plane (u8_v_round joins them).
//
// Output rows pass through a tile in shared memory, so the epilogue (unsharp,
// unpremultiply) works on whole pixels and the stores are coalesced 16-byte
// vectors. The tile is interleaved, except for RGB at M >= 1, where it is
// planar and the store phase interleaves (HalfGeometry::PLANAR_TILE).

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "cuda/block/convert.cuh"
#include "cuda/block/halo.cuh"
#include "cuda/block/staging.cuh"
#include "cuda/block/toeplitz.cuh"
#include "cuda/check.hpp"
#include "cuda/occupancy.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_mma.cuh"
#include "cuda/filter_separable_half_tuning.hpp"
#include "cuda/tensor_map.hpp"
#include "cuda/tma.cuh"
#include "src/error.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

constexpr int kMaxHalfTap = 2048;  // larger integers are not all exact in f16

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

// I8: both passes as u8 MMAs (uses_u8_passes), on staged byte planes. The
// knobs come from the variant's tuning row.
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
    // Convert work: UNIT_PX pixels a unit (16 for gray, 8 for two channels,
    // 4 for RGB and RGBA, 16 for RGB where a slot has one per thread).
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
    static constexpr int OFF_QUADS = OFF_SHARES + SHARE_ITERS * THREADS * 16;  // u8 fragments (I8; 16: four share fields)
    static constexpr int QUAD_BYTES = I8 ? HalfTables::QUAD_ENTRIES * 16 : 0;
    static constexpr int OFF_HALO = OFF_QUADS + QUAD_BYTES;
    static constexpr int OFF_BARS = OFF_HALO + HALO_ITERS * THREADS * 4;  // one mbarrier per raw slot
    static constexpr int OFF_TICKET = OFF_BARS + 8 * RAW_SLOTS;  // the block's current segment (separable_half_kernel)
    static constexpr int SMEM = OFF_TICKET + 16;
    static_assert(STAGE_ROW % 16 == 0 && (STAGE_ROW / 16) % 2 == 1, "staged rows must be an odd number of 16-byte units apart (ldmatrix banks)");
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
    __host__ __device__ int total() const { return edge_strips() * count(true) + (strips - edge_strips()) * count(false); }
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

// The u8 passes (uses_u8_passes) keep exact integer sums. The
// horizontal MMAs start at kHRoundInit8, so a sum d = S + 256 and
// gaussian_h_round is H = d >> 9 (S >= 0). h_planes packs the H of four rows
// (d0..d3, rows 4t..4t+3) of one column as the B registers of the vertical
// MMAs: the low bytes of H, lowest row first, and the high bytes (H <= 2040,
// so 0..7). With d << 7, H's low byte is byte 2 and its high byte byte 3.
constexpr int kHRoundInit8 = 256;
__device__ __forceinline__ void h_planes(int d0, int d1, int d2, int d3, std::uint32_t& lo, std::uint32_t& hi) {
    const std::uint32_t x = __byte_perm(static_cast<std::uint32_t>(d0) << 7, static_cast<std::uint32_t>(d1) << 7, 0x7362);
    const std::uint32_t y = __byte_perm(static_cast<std::uint32_t>(d2) << 7, static_cast<std::uint32_t>(d3) << 7, 0x7362);
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

// Bytes of an output tile row inside the image.
template <class G>
__device__ __forceinline__ int tile_row_bytes(const HalfArgs& a, int x0) {
    return min(G::W, a.src.width - x0) * G::C;
}

// Offsets held as 32 bits (a.block_offsets: below 2^31 within 16 rows) take
// the short paths; kNoItem marks the end of a share.
// gather: staged columns outside the image are filled from the slot before
// conversion (fill_halo), so copies skip chunks wholly outside the image.
template <class G>
__device__ ShareRecord share_record(const HalfArgs& a, int i, int warp, int lane, int xs, int x0, bool gather) {
    constexpr int C = G::C;
    ShareRecord r{kNoOffset, kNoOffset, 0u, static_cast<std::uint32_t>(kNoItem)};
    int copy_dst = kNoItem;  // copy: a 16-byte chunk of a raw slot
    const int cn = WarpShare<G::Raw::CHUNKS, G::WARPS>::item(warp, lane, i);
    if (cn >= 0) {
        const int row = cn / G::Raw::CHUNKS_PER_ROW;
        const int col = (cn - row * G::Raw::CHUNKS_PER_ROW) * 16;  // byte in the staged row
        const int gcol = xs * C + col;                        // byte column in the image
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
        if (a.block_offsets != 0 && a.dst_vec != 0 && a.mode == SepMode::Blur && off + 16 <= tile_row_bytes<G>(a, x0))
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

// halo: the strip has halo tasks (an edge strip with gather_edges).
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

// --- output: tile -> image rows, with the epilogue ---------------------------

// Writes one tile chunk (n bytes inside the image) to image row y at byte
// col, through the epilogue.
template <int C>
__device__ __forceinline__ void store_chunk(const HalfArgs& a, const uint4 b, int col, int n, int y) {
    std::uint32_t w[4] = {b.x, b.y, b.z, b.w};
    const bool full = n == 16;
    if (a.mode != SepMode::Blur) {
        std::uint32_t sw[4] = {0u, 0u, 0u, 0u};
        if (a.mode != SepMode::BlurAlpha) {  // the unsharp modes read the source
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
        }
#pragma unroll
        for (int q = 0; q < 4; ++q) w[q] = separable_output_word(a.mode, a.unsharp, C, w[q], sw[q]);
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

// Calls f(std::integral_constant<int, J>) for J = 0..N-1, in order.
template <class F, int... J>
__device__ __forceinline__ void for_each_index(F&& f, std::integer_sequence<int, J...>) {
    (f(std::integral_constant<int, J>{}), ...);
}
template <int N, class F>
__device__ __forceinline__ void for_each_index(F&& f) {
    for_each_index(f, std::make_integer_sequence<int, N>{});
}

// --- the kernel ---------------------------------------------------------------

// One segment n (in the order of SegmentPlan; see separable_half_kernel) of
// the launch. tma_phase: bit k, the parity of raw slot k's next bulk copy
// completion (every copy a segment starts, it also waits for).
// U: the step loop's unroll factor (4 for plain blur at M = 0, see GaussianTuning::unroll).
template <int C, int M, int U, bool I8>
__device__ __forceinline__ void half_segment(const HalfArgs& a, const int n, unsigned& tma_phase) {
    using G = HalfGeometry<C, M, U, I8>;
    constexpr int NB = G::NB;
    constexpr int R = G::RAW_SLOTS;
    extern __shared__ __align__(128) std::uint8_t smem[];  // raw slots first: bulk copies need 128-byte alignment
    std::uint8_t* const raw = smem;
    std::uint8_t* const stage = smem + G::OFF_STAGE;
    std::uint8_t* const tiles = smem + G::OFF_OUT;
    short* const colmap = reinterpret_cast<short*>(smem + G::OFF_COLMAP);
    const ShareTable<G::THREADS, G::SHARE_ITERS> share{reinterpret_cast<std::uint32_t*>(smem + G::OFF_SHARES) +
                                                       threadIdx.x};
    std::uint64_t* const bars = reinterpret_cast<std::uint64_t*>(smem + G::OFF_BARS);
    std::uint32_t* const halo_tasks = reinterpret_cast<std::uint32_t*>(smem + G::OFF_HALO);

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
    const auto wait_block = [&](int b, auto known_tma) {  // before staging block b
        if (!decltype(known_tma)::value && !tma_block(b)) return;
        const int k = b & (R - 1);
        mbarrier_wait(bars + k, (tma_phase >> k) & 1u);
        tma_phase ^= 1u << k;
    };
    // Starts the bulk copy of block b into raw slot k (known to be one):
    // one lane of warp 0; the other warps branch past it.
    const auto issue_tma = [&](int b, int k) {
        if (warp == 0) {
            if (lane == 0) bulk_copy_block<typename G::Raw>(a, raw + k * G::RAW_SLOT, bars + k, yb0 + 16 * b, xs);
        }
    };
    // The first blocks' bulk copies start at once, so that their trip to
    // memory overlaps the rest of the prologue (bench/TUNING.md, "Row segments").
    if (tma_strip && threadIdx.x == 0) {
        for (int b = 0; b < R; ++b)
            if (b < nsteps && tma_block(b)) bulk_copy_block<typename G::Raw>(a, raw + b * G::RAW_SLOT, bars + b, yb0 + 16 * b, xs);
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
    std::uint8_t* const quad_frags = smem + G::OFF_QUADS;
    if constexpr (G::I8) stage_quad_fragments<HalfTables, G::THREADS>(quad_frags, a.quads);

    // Prologue: blocks 0..R-1 in flight (the bulk copies since the start),
    // 0 and 1 complete, block 0 staged.
#pragma unroll 1
    for (int b = 0; b < R; ++b) {
        if (b < nsteps && !tma_block(b))
            copy_block<typename G::Raw, G::COPY_ITERS>(a, colmap, share, raw + b * G::RAW_SLOT, bars + b, false, yb0 + 16 * b,
                          row_offset(a.src, yb0 + 16 * b), xs);
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

    // Toeplitz fragments T_p (see the top comment), or (I8) T8_p.
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
    // One step; FAST: a step of the steady state (the range worked out
    // below), which skips the tests of the image's edges and of the kind of
    // copy, and keeps only the two of the segment's end.
    // ROT: the H window's rotation. -1: win[q] holds logical block q (0 the
    // oldest), and the step shifts the window down by one block (4(NB - 1)
    // register moves). ROT >= 0 (steady steps unrolled NB times): logical
    // block q sits in win[(ROT + q) % NB] and the new H overwrites the
    // oldest, so NB steps with ROT = 0..NB-1 move nothing and leave the
    // window as they found it.
    const auto step = [&](int s, auto fast, auto rot) {
        constexpr bool FAST = decltype(fast)::value;
        constexpr int ROT = decltype(rot)::value;
        constexpr int AFTER = ROT < 0 ? 0 : ROT + 1;  // win index of logical block 0 once this step's H is in
        // (& rather than %: in the unrolled loops s is a multiple of U plus a
        // constant, and the masks fold to constants)
        const int convert_slot = (s + 1) & (R - 1);  // raw slot of block s + 1
        const int fill_slot = s & (R - 1);           // raw slot of block s, refilled with block s + R
        // ldmatrix and mma are .aligned: the whole warp must execute them
        // together. Lanes that took the border path while staging can leave
        // the warp diverged even past __syncthreads(), so reconverge first.
        __syncwarp();
        [[maybe_unused]] constexpr int BASE = ROT < 0 ? 0 : ROT;  // win index of logical block 0 before this step's H
        constexpr int NEW = (AFTER + NB - 1) % NB;                   // win index of the new H
        // Logical block q (0..NB-2) of this step's window, before its H
        // arrives: the block after the oldest held, which is dropped.
        [[maybe_unused]] const auto held = [&](int j, int q) -> const std::uint32_t(&)[4] { return win[j][(BASE + q + 1) % NB]; };
        const std::uint8_t* sb = stage + (s & 1) * G::STAGE_BYTES + lm_off;
        std::uint8_t* tile = tiles + (s & 1) * G::TILE_BYTES;
        // Writes this lane's 4 results of the warp's 8-column half ct (0..2
        // TPW - 1; each result in the low byte of its word) to the output tile.
        const auto store_results = [&](int ct, std::uint32_t v0, std::uint32_t v1, std::uint32_t v2, std::uint32_t v3) {
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
        };
        // Shifts the window down one block (ROT < 0) and puts the new H in.
        const auto push_block = [&](int j, const std::uint32_t (&hp)[4]) {
            if constexpr (ROT < 0) {
#pragma unroll
                for (int p = 0; p + 1 < NB; ++p) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) win[j][p][e] = win[j][p + 1][e];
                }
            }
#pragma unroll
            for (int e = 0; e < 4; ++e) win[j][NEW][e] = hp[e];
        };
        if constexpr (G::I8) {
            // Both passes as u8 MMAs over blocks of 32 (see uses_u8_passes), T8_p
            // from registers.
            constexpr int T = G::TPW;
            // Vertical sums of the low and high byte planes of H, per column
            // tile and 8-column half; the low ones start at the rounding's
            // half (u8_v_round).
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
            // Block p of tile j's vertical window: rows 32p.. of logical
            // blocks 2p (b0) and 2p + 1 (b1), for both halves and planes.
            const auto vertical_mma = [&](int j, const std::uint32_t (&f)[4], const std::uint32_t (&b0)[4],
                                          const std::uint32_t (&b1)[4]) {
#pragma unroll
                for (int ct = 0; ct < 2; ++ct) {
                    mma_u8_m16n8k32(vl[j][ct], f, b0[2 * ct], b1[2 * ct]);
                    mma_u8_m16n8k32(vh[j][ct], f, b0[2 * ct + 1], b1[2 * ct + 1]);
                }
            };
            // The last block, p = M: logical block 2M (the new H) only; rows
            // 32M + 16.. meet zero taps, so K = 16 MMAs cover it.
            const auto vertical_mma_last = [&](int j, const std::uint32_t (&f)[4], const std::uint32_t (&b0)[4]) {
#pragma unroll
                for (int ct = 0; ct < 2; ++ct) {
                    mma_u8_m16n8k16(vl[j][ct], f[0], f[1], b0[2 * ct]);
                    mma_u8_m16n8k16(vh[j][ct], f[0], f[1], b0[2 * ct + 1]);
                }
            };
            // Horizontal: the two 8-row tiles of the staged block, each T8_p
            // also serving (kEarly8) the vertical MMAs of window blocks 2p
            // and 2p + 1 (all held for p < M; the last, p = M, is the new H).
            // Tile 1 (T = 2) starts 16 columns after tile 0, so its block p
            // is the high half (b1, b3) of tile 0's load p and the low half
            // (b0, b2) of load p + 1: the M + 1 loads serve both tiles.
            // Columns 16.. of T8_M meet zero taps (tap index 16M + 16 - i + r
            // > 2r), so block M of either tile is a K = 16 MMA, and tile 1
            // needs no load M + 1.
            constexpr bool kEarly8 = G::EARLY_VERTICAL;
            int h0[T][4], h1[T][4];
#pragma unroll
            for (int j = 0; j < T; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) h0[j][e] = h1[j][e] = kHRoundInit8;
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
                        for (int j = 0; j < T; ++j) vertical_mma(j, tq[p], held(j, 2 * p), held(j, 2 * p + 1));
                    }
                }
            }
            if constexpr (T == 2) {
                mma_u8_m16n8k16(h0[1], tq[M][0], tq[M][1], prev[1]);
                mma_u8_m16n8k16(h1[1], tq[M][0], tq[M][1], prev[3]);
            }
            // The staged rows are in stage_row order, so h0 holds image rows
            // 4t, 4t + 1 and h1 rows 4t + 2, 4t + 3 of columns g and g + 8:
            // one B register per 8-column half and plane.
#pragma unroll
            for (int j = 0; j < T; ++j) {
                std::uint32_t hp[4];
                h_planes(h0[j][0], h0[j][1], h1[j][0], h1[j][1], hp[0], hp[1]);  // column g: low, high
                h_planes(h0[j][2], h0[j][3], h1[j][2], h1[j][3], hp[2], hp[3]);  // column g + 8
                push_block(j, hp);
            }
            if (FAST || s >= G::WARM) {
#pragma unroll
                for (int j = 0; j < T; ++j) {
                    if constexpr (!kEarly8) {
#pragma unroll
                        for (int p = 0; p < M; ++p)
                            vertical_mma(j, tq[p], win[j][(AFTER + 2 * p) % NB], win[j][(AFTER + 2 * p + 1) % NB]);
                    }
                    vertical_mma_last(j, tq[M], win[j][NEW]);
#pragma unroll
                    for (int ct = 0; ct < 2; ++ct)
                        store_results(2 * j + ct, u8_v_round(vl[j][ct][0], vh[j][ct][0]),
                                      u8_v_round(vl[j][ct][1], vh[j][ct][1]), u8_v_round(vl[j][ct][2], vh[j][ct][2]),
                                      u8_v_round(vl[j][ct][3], vh[j][ct][3]));
                }
            }
        } else {
            // Vertical, first part (early_vertical): the MMAs over the NB - 1
            // window blocks already held do not wait for the horizontal pass,
            // so they are issued in its basic block, where ptxas interleaves
            // the four MMA chains. In the warm-up steps their sums are dropped.
            constexpr bool kEarly = G::EARLY_VERTICAL;
            constexpr int T = G::TPW;
            float v[T][2][4] = {};
            // v[j][ct] += f * H of window block w of tile j, for both 8-column halves.
            const auto vertical_mma = [&](int j, const std::uint32_t (&f)[4], const std::uint32_t (&w)[4]) {
#pragma unroll
                for (int ct = 0; ct < 2; ++ct) mma_f16_m16n8k16(v[j][ct], f, w[2 * ct], w[2 * ct + 1]);
            };
            if constexpr (kEarly) {
#pragma unroll
                for (int j = 0; j < T; ++j)
#pragma unroll
                    for (int p = 0; p + 1 < NB; ++p) vertical_mma(j, tp[p], held(j, p));
            }
            // Horizontal: two 8-row tiles of the staged block. Tile j's
            // window is the warp's staged blocks j..j + NB - 1, so each block
            // is loaded once for all the warp's tiles (NB + T - 1 ldmatrix).
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
                push_block(j, hp);
                if constexpr (kEarly) vertical_mma(j, tp[NB - 1], win[j][NEW]);
            }
            // Vertical: 16 output rows once the window is full.
            if (FAST || s >= G::WARM) {
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
                        store_results(2 * j + ct, v_round_bits(v[j][ct][0]), v_round_bits(v[j][ct][1]),
                                      v_round_bits(v[j][ct][2]), v_round_bits(v[j][ct][3]));
                    }
                }
            }
        }

        // Stage block s + 1 (complete and published by the last barrier),
        // refill the slot block s left with block s + R, and wait for this
        // thread's copies of block s + 2, which the next step stages.
        // The steady state tests the segment's end here too (two uniform
        // compares), so that it can run to the segment's last step.
        if (s + 1 < nsteps) {
            wait_block(s + 1, fast);
            convert_block<G>(raw + convert_slot * G::RAW_SLOT, stage + ((s + 1) & 1) * G::STAGE_BYTES, share,
                                halo_strip, halo_tasks, a.border_value);
        }
        if (s + R < nsteps) {
            if (FAST)
                issue_tma(s + R, fill_slot);
            else
                copy_block<typename G::Raw, G::COPY_ITERS>(a, colmap, share, raw + fill_slot * G::RAW_SLOT, bars + fill_slot, tma_block(s + R),
                                 yb0 + 16 * (s + R), fill_offset, xs);
        }
        fill_offset += 16 * static_cast<std::int64_t>(a.src.pitch);
        cp_async_commit();
        cp_async_wait<R - 2>();
        __syncthreads();
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
                            if (row < rows && n > 0) store_chunk<C>(a, o, x0 * C + off + 16 * k, n, y0 + row);
                        }
                    }
                }
            } else {
#pragma unroll
                for (int i = 0; i < G::STORE_ITERS; ++i) {
                    const int t = high16(share.get(kChunks, i));  // offset in the tile
                    if (t == kNoItem) break;
                    const std::uint32_t out_dst = share.get(kOutDst, i);
                    // The steady state writes whole rows of a plain blur: every chunk is one vector store.
                    if (FAST || (rows == 16 && out_dst != kNoOffset)) {
                        *reinterpret_cast<uint4*>(a.dst.data + out_offset + out_dst) = *reinterpret_cast<const uint4*>(tile + t);
                    } else {
                        const int row = t / G::OUT_ROW;
                        const int off = t - row * G::OUT_ROW;  // also from the strip's first byte
                        const int n = min(16, tile_row_bytes<G>(a, x0) - off);
                        if (row < rows && n > 0)
                            store_chunk<C>(a, *reinterpret_cast<const uint4*>(tile + t), x0 * C + off, n, y0 + row);
                    }
                }
            }
            out_offset += 16 * static_cast<std::int64_t>(a.dst.pitch);
        }
    };

    constexpr std::integral_constant<int, -1> kShift{};
    if constexpr (G::STEADY_LOOP) {
        // The steady state: steps past the warm-up that write 16 whole rows
        // of a plain blur and whose blocks s + 1 and s + R, where the
        // segment needs them, are bulk copies (inside the image).
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
            for (int s = 0; s < fast_lo; ++s) step(s, std::false_type{}, kShift);
            int s = fast_lo;
            if constexpr (G::ROTATE_WINDOW) {
#pragma unroll 1
                for (; s + NB <= fast_hi; s += NB)
                    for_each_index<NB>([&](auto j) { step(s + decltype(j)::value, std::true_type{}, j); });
            }
#pragma unroll 1
            for (; s < fast_hi; ++s) step(s, std::true_type{}, kShift);
#pragma unroll 1
            for (int s = fast_hi; s < nsteps; ++s) step(s, std::false_type{}, kShift);
        } else {
            // Unrolled: after the warm-up, groups of U steps, each group
            // steady or not as a whole, so the raw slots and buffers stay at
            // fixed places.
#pragma unroll 1
            for (int s = 0; s < min(G::WARM, nsteps); ++s) step(s, std::false_type{}, kShift);
            const int groups = max(0, nsteps - G::WARM) / U;
#pragma unroll 1
            for (int q = 0; q < groups; ++q) {
                const int s0 = G::WARM + U * q;
                if (s0 >= fast_lo && s0 + U <= fast_hi) {
#pragma unroll
                    for (int j = 0; j < U; ++j) step(s0 + j, std::true_type{}, kShift);
                } else {
#pragma unroll
                    for (int j = 0; j < U; ++j) step(s0 + j, std::false_type{}, kShift);
                }
            }
#pragma unroll 1
            for (int s = G::WARM + groups * U; s < nsteps; ++s) step(s, std::false_type{}, kShift);
        }
    } else {
#pragma unroll(U)
        for (int s = 0; s < nsteps; ++s) step(s, std::false_type{}, kShift);
    }
}

// Persistent blocks (kPersistent: as many as fit at once) take segment after
// segment, in the plan's order, from a ticket counter; the others run one
// block per segment.
template <int C, int M, int U, bool I8>
__global__ void __launch_bounds__(HalfGeometry<C, M, U, I8>::THREADS, HalfGeometry<C, M, U, I8>::BLOCKS_PER_SM)
separable_half_kernel(const __grid_constant__ HalfArgs a) {
    using G = HalfGeometry<C, M, U, I8>;
    extern __shared__ __align__(128) std::uint8_t smem[];
    if (a.tma != 0 && threadIdx.x == 0) {
        std::uint64_t* const bars = reinterpret_cast<std::uint64_t*>(smem + G::OFF_BARS);
        for (int k = 0; k < G::RAW_SLOTS; ++k) mbarrier_init(bars + k, 1);
        mbarrier_init_fence();
    }
    unsigned tma_phase = 0u;
    if constexpr (!G::PERSISTENT) {
        half_segment<C, M, U, I8>(a, static_cast<int>(blockIdx.x), tma_phase);
    } else {
        int& ticket = *reinterpret_cast<int*>(smem + G::OFF_TICKET);
#pragma unroll 1
        for (;;) {
            // (Every warp reads the ticket before the segment's first barrier,
            // which thread 0 passes before it writes the next one.)
            if (threadIdx.x == 0) {
                const unsigned long long t = atomicAdd(a.tickets, 1ull) - a.ticket_base;
                ticket = t < static_cast<unsigned long long>(a.segments.total()) ? static_cast<int>(t) : -1;
            }
            __syncthreads();  // also: the previous segment is done with shared memory, the barriers are set up
            const int n = ticket;
            if (n < 0) break;
            half_segment<C, M, U, I8>(a, n, tma_phase);
        }
    }
}

// --- host side -----------------------------------------------------------------

using HalfKernel = void (*)(HalfArgs);

struct HalfVariant {
    HalfKernel fn = nullptr;
    const GaussianTuning* tuning = nullptr;  // its row of kGaussianTuning
    int threads = 0;
    int smem = 0;
    int box_bytes = 0;  // width of the bulk copy boxes
    int halo = 0;       // staged columns left (and right) of a strip
    int halo_cols = 0;  // staged columns outside the image per row the halo task table holds
};

template <int ROW>
HalfVariant variant_of() {
    constexpr GaussianTuning t = kGaussianTuning[ROW];
    using G = HalfGeometry<t.channels, t.m, t.unroll, t.u8_passes>;
    return {&separable_half_kernel<t.channels, t.m, t.unroll, t.u8_passes>, &kGaussianTuning[ROW], G::THREADS, G::SMEM,
            G::Raw::BOX_BYTES, G::HALO, G::HALO_COLS};
}

// The kernel of every row of the tuning table.
template <std::size_t... ROW>
HalfVariant variant_at(int row, std::index_sequence<ROW...>) {
    static const HalfVariant variants[] = {variant_of<static_cast<int>(ROW)>()...};
    return variants[row];
}

// The variant a plan needs, or none (fn == nullptr).
HalfVariant variant_for_plan(const TrimmedTaps& tt, int channels, bool plain, const DeviceLimits& dev) {
    if (dev.compute_major < 8 || tt.radius < 1 || tt.radius > 16 * kMaxM || tt.max_tap > kMaxHalfTap) return {};
    const int m = tt.radius <= 8 ? 0 : ceil_div(tt.radius, 16);
    const int row = gaussian_row_for(channels, m, uses_u8_passes(m, tt.max_tap), plain);
    if (row < 0) return {};
    const HalfVariant v = variant_at(row, std::make_index_sequence<kGaussianRows>{});
    if (v.smem > dev.max_smem_optin) return {};
    return v;
}

// The row segments (SegmentTuning): the first long_percent of row_blocks
// output row blocks in segments of equal length (to one block; one per
// resident block and strip, so they fill the GPU once, and for the edge
// strips edge_long_num / edge_long_den times as many where the first wave
// has room), the rest in segments of about short_len blocks. The persistent
// blocks take segments in this order as they finish the one before.
SegmentPlan plan_segments(int row_blocks, int strips, int resident, const SegmentTuning& st) {
    const int late = (row_blocks * (100 - st.long_percent) + 50) / 100;  // < row_blocks
    const int early = row_blocks - late;
    const int segs = std::max(1, std::min(early, resident / strips));
    SegmentPlan plan{};
    plan.strips = strips;
    const int edges = plan.edge_strips();
    int edge_segs = std::min(early, ceil_div(segs * st.edge_long_num, st.edge_long_den));
    if (edges * (edge_segs - segs) > resident - segs * strips) edge_segs = segs;
    const auto tier = [](int rows, int count, int first) {
        return count > 0 ? SegmentTier{count, rows / count, rows % count, first} : SegmentTier{0, 0, 0, first};
    };
    plan.inner_long = tier(early, segs, 0);
    plan.edge_long = tier(early, edge_segs, 0);
    plan.short_tier = tier(late, late > 0 ? std::max(1, late / st.short_len) : 0, early);
    return plan;
}

// Whether a strip whose staged columns start at image column xs can fill
// those outside the image from its slot: the border rule maps each to a
// column the strip stages (or to the constant; all but wrap borders of
// images wider than a strip), and at most halo_cols of them per row.
bool halo_strip_ok(int xs, int staged, int width, int halo_cols, BorderMode mode) {
    if (std::max(0, -xs) + std::max(0, xs + staged - width) > halo_cols) return false;
    for (int x = xs; x < xs + staged; ++x) {
        if (x >= 0 && x < width) continue;
        const int img = border_index(x, width, mode);
        if (img >= 0 && (img < xs || img >= xs + staged)) return false;
    }
    return true;
}

// HalfArgs::gather_edges: bit 0 if every strip with staged columns left of
// the image can fill them from its slot, bit 1 the same on the right.
int gather_edges(int width, const HalfVariant& v, BorderMode mode) {
    const int staged = v.tuning->strip_px + 2 * v.halo;
    bool left = true, right = true;
    for (int x0 = 0; x0 < width; x0 += v.tuning->strip_px) {
        const int xs = x0 - v.halo;
        if (xs >= 0 && xs + staged <= width) continue;
        const bool ok = halo_strip_ok(xs, staged, width, v.halo_cols, mode);
        if (xs < 0) left = left && ok;
        if (xs + staged > width) right = right && ok;
    }
    return (left ? 1 : 0) | (right ? 2 : 0);
}

}  // namespace

bool half_mma_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    return variant_for_plan(trim_taps(plan), channels, separable_mode(plan, channels) == SepMode::Blur, dev).fn != nullptr;
}

const char* half_mma_name(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    const HalfVariant v = variant_for_plan(trim_taps(plan), channels, separable_mode(plan, channels) == SepMode::Blur, dev);
    return v.tuning != nullptr && v.tuning->u8_passes
               ? "tensor-core separable (u8 MMA, both passes in registers)"
               : "tensor-core separable (FP16 MMA, both passes in registers)";
}

void launch_separable_half(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    const TrimmedTaps tt = trim_taps(plan);
    const SepMode mode = separable_mode(plan, src.channels);
    const HalfVariant v = variant_for_plan(tt, src.channels, mode == SepMode::Blur, dev);
    if (v.fn == nullptr) throw device_error("gaussian filter", "the FP16 tensor-core kernel does not support this plan");

    HalfArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan, src.channels);
    a.border_value = plan.border.value;
    a.mode = mode;
    a.unsharp = {plan.amount_q8, plan.threshold_level};
    a.radius = tt.radius;
    a.src_vec = rows_aligned(src.data, src.pitch, 16) ? 1 : 0;
    a.dst_vec = rows_aligned(call.dst.data, call.dst.pitch, 16) ? 1 : 0;
    // Offsets within 16 rows (row < 16, column byte < pitch) held as 32 bits.
    a.block_offsets = std::max(src.pitch, call.dst.pitch) <= (std::size_t{1} << 27) ? 1 : 0;
    // Bulk copies (compute 9.0+) need 16-byte aligned rows, as cp.async does.
    a.tma = dev.compute_major >= 9 && a.src_vec != 0 ? 1 : 0;
    if (a.tma != 0)
        a.src_map = byte_tile_map(src.data, static_cast<std::size_t>(src.width) * src.channels, src.height, src.pitch,
                                  v.box_bytes, 16);
    a.gather_edges = gather_edges(src.width, v, plan.border.mode);
    // pairs[i + PAIR_OFFSET] = (tap(i), tap(i + 1)) as f16, quads[j + QUAD_OFFSET] = taps j..j + 3 as bytes
    // (all <= 255 for the u8 passes), tap(j) = 0 outside 0..2r.
    const auto tap = [&](int j) { return j >= 0 && j <= 2 * tt.radius ? tt.taps[static_cast<std::size_t>(j)] : 0; };
    fill_half_pairs(a.pairs, kPairs, HalfTables::PAIR_OFFSET, tap);
    if (v.tuning->u8_passes) fill_byte_quads(a.quads, kQuads, HalfTables::QUAD_OFFSET, tap);
    const int row_blocks = ceil_div(src.height, 16);

    allow_dynamic_smem(reinterpret_cast<const void*>(v.fn), static_cast<std::size_t>(v.smem));
    const int resident = std::max(
        dev.sm_count, co_resident_blocks(reinterpret_cast<const void*>(v.fn), v.threads, static_cast<std::size_t>(v.smem)));
    const int strips = ceil_div(src.width, v.tuning->strip_px);
    a.segments = plan_segments(row_blocks, strips, resident, v.tuning->segments);
    const int segments = a.segments.total();
    const bool persistent = v.tuning->has(kPersistent);
    if (persistent) {
        if (call.tickets == nullptr || call.ticket_base == nullptr)
            throw device_error("gaussian filter", "the tensor-core kernel needs the workspace's ticket counter");
        a.tickets = call.tickets;
        a.ticket_base = *call.ticket_base;
    }
    const int blocks = persistent ? std::min(resident, segments) : segments;
    v.fn<<<blocks, static_cast<unsigned>(v.threads), static_cast<std::size_t>(v.smem), call.stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("separable_half_kernel");
    // Each persistent block takes one ticket past the last segment before it stops.
    if (persistent)
        *call.ticket_base += static_cast<unsigned long long>(segments) + static_cast<unsigned long long>(blocks);
}

std::string describe(const GaussianTuning& t) {
    static const char* const kLayouts[] = {"gray", "gray+alpha", "rgb", "rgba"};
    std::string s = std::string(t.channels >= 1 && t.channels <= 4 ? kLayouts[t.channels - 1] : "?") +
                    " M=" + std::to_string(t.m) + (t.u8_passes ? " u8" : " fp16") + " unroll=" + std::to_string(t.unroll) +
                    " strip=" + std::to_string(t.strip_px) + " tiles=" + std::to_string(t.tiles_per_warp) +
                    " blocks/SM=" + std::to_string(t.blocks_per_sm) + " unit=" + std::to_string(t.convert_unit_px) +
                    "px slots=" + std::to_string(t.raw_slots);
    static const std::pair<GaussianKnob, const char*> kNames[] = {
        {kPersistent, "persistent"}, {kEarlyVertical, "early-vertical"}, {kSteadyLoop, "steady"},
        {kRotateWindow, "rotate"},   {kOwnRegisters, "own-registers"},   {kPlanarTile, "planar"}};
    for (const auto& [knob, name] : kNames)
        if (t.has(knob)) s += std::string(" ") + name;
    return s + " segments=" + std::to_string(t.segments.long_percent) + "%/" + std::to_string(t.segments.short_len) +
           " edge=" + std::to_string(t.segments.edge_long_num) + "/" + std::to_string(t.segments.edge_long_den);
}

}  // namespace imgpar::cuda::filter_detail
