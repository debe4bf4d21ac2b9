// Gaussian blur and unsharp mask on the tensor cores, with both passes
// chained in registers: FP16 MMAs up to radius 16 (and where a tap does not
// fit a byte), u8 MMAs past it (see "The u8 passes" below).
//
// Each 1-D pass is a product with a banded (Toeplitz) matrix of the taps, done
// with mma.m16n8k16 (f16 x f16 -> f32). The contract (src/ops/filter.hpp)
// makes that exact: samples, taps (integers exact in f16) and the intermediate H
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
// whole slot into f16 planes: channels split, and each byte v turned into the
// f16 value 1024 + v by one byte permute. The offset
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
// Output rows pass through a tile in shared memory, so the epilogue
// (unsharp) reads the source and the stores are coalesced 16-byte vectors. The tile is interleaved, except for RGB at M >= 1, where it is
// planar and the store phase interleaves (HalfGeometry::PLANAR_TILE).

// The code, in layers (as CUB layers its algorithms):
//   - the tuning table: cuda/filter_separable_half_tuning.hpp (a row per
//     variant; the measurements in bench/TUNING.md);
//   - the dispatch: cuda/filter_separable_half_dispatch.cu (variant, segment
//     plan, tables, launch);
//   - the kernels: this file (one per row of the tuning table), instantiated
//     by cuda/filter_separable_half_c1.cu and _c3.cu, one file per channel
//     count (gray and RGB; images with alpha run cuda/filter_wide.cu), so
//     that a parallel build compiles them side by side;
//   - the per-block algorithm: cuda/filter_separable_half_block.cuh (the
//     segment's prologue, the step loop, a step), with the MMA passes in
//     cuda/filter_separable_half_passes.cuh and the staging and store phases
//     in cuda/filter_separable_half_phases.cuh;
//   - the block helpers: cuda/block/ (staging, conversion, halo gathers,
//     Toeplitz tables), shared with the 2-D and edge kernels.

#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuda/filter_separable_half.cuh"
#include "cuda/filter_separable_half_block.cuh"
#include "cuda/tma.cuh"

namespace imgpar::cuda::filter_detail {
// (Internal linkage: each file that includes this one holds its own kernels.)
namespace {

// Persistent blocks (kPersistent: as many as fit at once) take segment after
// segment, in the plan's order, from a ticket counter; the others run one
// block per segment.
template <int C, int M, int U, bool I8>
__global__ void __launch_bounds__(HalfGeometry<C, M, U, I8>::THREADS, HalfGeometry<C, M, U, I8>::BLOCKS_PER_SM)
separable_half_kernel(const __grid_constant__ HalfArgs a) {
    using G = HalfGeometry<C, M, U, I8>;
    if (a.tma != 0 && threadIdx.x == 0) {
        std::uint64_t* const bars = reinterpret_cast<std::uint64_t*>(half_smem + G::OFF_BARS);
        for (int k = 0; k < G::RAW_SLOTS; ++k) mbarrier_init(bars + k, 1);
        mbarrier_init_fence();
    }
    unsigned tma_phase = 0u;
    if constexpr (!G::PERSISTENT) {
        half_segment<C, M, U, I8>(a, static_cast<int>(blockIdx.x), tma_phase);
    } else {
        int& ticket = *reinterpret_cast<int*>(half_smem + G::OFF_TICKET);
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

template <int ROW>
HalfVariant variant_of() {
    constexpr GaussianTuning t = kGaussianTuning[ROW];
    using G = HalfGeometry<t.channels, t.m, t.unroll, t.u8_passes>;
    return {&separable_half_kernel<t.channels, t.m, t.unroll, t.u8_passes>, &kGaussianTuning[ROW], G::THREADS, G::SMEM,
            G::Raw::BOX_BYTES, G::HALO, G::HALO_COLS};
}

// The variant of a row of C channels; other rows are left empty (and their
// kernels are not instantiated here).
template <int C, int ROW>
HalfVariant variant_if_channels() {
    if constexpr (kGaussianTuning[ROW].channels == C) {
        return variant_of<ROW>();
    } else {
        return {};
    }
}

template <int C, std::size_t... ROW>
HalfVariant variant_at(int row, std::index_sequence<ROW...>) {
    static const HalfVariant variants[] = {variant_if_channels<C, static_cast<int>(ROW)>()...};
    return variants[row];
}

template <int C>
HalfVariant variant_of_channels(int row) {
    return variant_at<C>(row, std::make_index_sequence<kGaussianRows>{});
}

}  // namespace
}  // namespace imgpar::cuda::filter_detail
