// The adaptive threshold's gray mean kernel (cuda/adaptive_threshold.cu
// dispatches to it): warp strips with the window sums in registers and one
// warp's prefix row, no tables, no block barrier. Included by
// cuda/adaptive_threshold.cu only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/adaptive_threshold.hpp"
#include "src/image.hpp"
#include "src/ops/adaptive_math.hpp"

namespace imgpar::cuda::adaptive_detail {

// Where position i of an axis of `size` samples reads from: the edge sample
// (replicate) or the mirror about it (reflect-101); i within radius < size of
// the axis, as axis_ranges counts it.
__device__ __forceinline__ int edge_index(int i, int size, bool replicate) {
    if (replicate) return min(max(i, 0), size - 1);
    if (i < 0) return -i;
    if (i >= size) return 2 * (size - 1) - i;
    return i;
}

using Strips = AdaptiveStripPolicy;
constexpr int kStripLanes = 32;
constexpr int kLanePixels = Strips::lane_pixels;
constexpr int kStripColumns = kStripLanes * kLanePixels;  // columns a warp reads
constexpr int kStripThreads = Strips::warps * kStripLanes;
// A warp's prefix row, transposed: column 8 l + i at [i][l], so the 32 lanes
// writing one i, or reading one i' (the window's ends lie the same number of
// columns from every lane's pixel), touch 32 consecutive words, conflict-free.
// Lane slot 32 holds the strip's total.
constexpr int kPrefixSlots = kStripLanes + 1;
static_assert(kLanePixels == 8, "a lane's pixels are two words of four bytes");
// A window column's sum (at most 2 max_radius + 1 samples of 255) fits the
// 16-bit half of a word, so a word carries two columns' sums; window sums
// (at most 63^2 * 255) and the strip's prefix sums fit 32 bits.
static_assert((2 * AdaptiveFusedPolicy::max_radius + 1) * 255 < (1 << 16), "column sums must fit 16 bits");

__device__ __forceinline__ std::uint32_t byte_of(const std::uint32_t* words, int k) {
    return (words[k >> 2] >> (8 * (k & 3))) & 0xffu;
}

// A lane's eight samples of image row y, four per word: one 8-byte load for
// a lane inside an 8-byte-aligned image (kVector), else sample by sample,
// columns outside the image at their border positions (a lane past the
// image's side by more than the radius feeds no output: clamped to it).
// Rows past the top or bottom by more than the radius (loads run ahead of
// a band's end) are clamped the same way.
template <bool kVector>
__device__ __forceinline__ uint2 fetch_row(const ConstDeviceViewU8& src, int x, int y, int radius, bool vector_lane) {
    y = edge_index(min(max(y, -radius), src.height - 1 + radius), src.height, true);
    const std::uint8_t* row = src.data + static_cast<std::size_t>(y) * src.pitch;
    if (kVector && vector_lane) return __ldg(reinterpret_cast<const uint2*>(row + x));
    std::uint32_t w[2] = {0, 0};
#pragma unroll
    for (int q = 0; q < kLanePixels; ++q) {
        const int cx = edge_index(min(max(x + q, -radius), src.width - 1 + radius), src.width, true);
        w[q / 4] |= static_cast<std::uint32_t>(row[cx]) << (8 * (q % 4));
    }
    return make_uint2(w[0], w[1]);
}

// A lane's eight window columns' sums, two 16-bit halves per word (columns
// 2j and 2j+1 in word j). The halves never carry or borrow: each column's
// sum includes the sample leaving it.
struct ColumnSums {
    std::uint32_t v[4] = {0, 0, 0, 0};

    __device__ __forceinline__ void add(uint2 in) {
        const std::uint32_t w[2] = {in.x, in.y};
#pragma unroll
        for (int j = 0; j < 4; ++j) v[j] += __byte_perm(w[j / 2], 0, j % 2 ? 0x4342 : 0x4140);
    }
    __device__ __forceinline__ void slide(uint2 in, uint2 out) {
        const std::uint32_t a[2] = {in.x, in.y}, b[2] = {out.x, out.y};
#pragma unroll
        for (int j = 0; j < 4; ++j)
            v[j] = v[j] + __byte_perm(a[j / 2], 0, j % 2 ? 0x4342 : 0x4140) - __byte_perm(b[j / 2], 0, j % 2 ? 0x4342 : 0x4140);
    }
};

// Writes the strip's exclusive prefix sums of eight column values per lane
// (column 8 lane + i at prefix[i][lane], the strip's total at prefix[0][32]).
__device__ __forceinline__ void write_prefix(const std::uint32_t (&c)[kLanePixels], int lane,
                                             std::uint32_t (*prefix)[kPrefixSlots]) {
    std::uint32_t local[kLanePixels];
    std::uint32_t total = 0;
#pragma unroll
    for (int i = 0; i < kLanePixels; ++i) local[i] = total, total += c[i];
    std::uint32_t inclusive = total;
#pragma unroll
    for (int offset = 1; offset < kStripLanes; offset *= 2) {
        const std::uint32_t t = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset) inclusive += t;
    }
    const std::uint32_t before = inclusive - total;
#pragma unroll
    for (int i = 0; i < kLanePixels; ++i) prefix[i][lane] = before + local[i];
    if (lane == kStripLanes - 1) prefix[0][kStripLanes] = inclusive;
}

// Prefix sum at strip column k (0..256); columns before or past the strip
// (asked for by the halo lanes, which write nothing) are clamped, so every
// read stays in the warp's row.
__device__ __forceinline__ std::uint32_t prefix_at(const std::uint32_t (*prefix)[kPrefixSlots], int k) {
    k = min(max(k, 0), kStripColumns);
    return prefix[k & (kLanePixels - 1)][k / kLanePixels];
}

// Entering rows loaded ahead of their use: the only loads that go to DRAM
// (the leaving and centre rows were read 2r+1 and r+1 rows before, and are
// still in L1), so they carry the latency the warp must hide.
constexpr int kRowsAhead = 4;

// One warp per strip of 256 columns and band of rows; the strip's outputs are
// its columns but the halo lanes' (halo_lanes * 8 >= radius columns each
// side). Each lane keeps its eight columns' window sums in registers,
// sliding them down a row by adding the row entering the window and
// subtracting the one leaving it. Along the row, the warp's prefix sums of
// the column sums (a shuffle scan, then a row in shared memory) give each
// pixel's window sum as one difference. No block barrier: warps run on their
// own. The sums equal the tables' window sums (the border positions read the
// samples axis_ranges counts, replicated), and adaptive_mean_decision is
// adaptive_decision's mean test without its division: the CPU's bytes.
template <bool kVector>
__global__ void __launch_bounds__(kStripThreads, Strips::min_blocks)
    gray_mean_strip_kernel(ConstDeviceViewU8 src, AdaptiveParams p, int radius, int halo_lanes, int band_rows,
                           DeviceViewU8 dst) {
    __shared__ std::uint32_t prefix[Strips::warps][kLanePixels][kPrefixSlots];
    const int lane = static_cast<int>(threadIdx.x) % kStripLanes;
    const int warp = static_cast<int>(threadIdx.x) / kStripLanes;
    const int out_columns = kStripColumns - 2 * halo_lanes * kLanePixels;
    const int strip_x = (static_cast<int>(blockIdx.x) * Strips::warps + warp) * out_columns - halo_lanes * kLanePixels;
    if (strip_x + halo_lanes * kLanePixels >= src.width) return;  // the whole warp: past the image
    const int x = strip_x + lane * kLanePixels;
    const int y0 = static_cast<int>(blockIdx.y) * band_rows;
    const int y1 = min(y0 + band_rows, src.height);
    const bool writes = lane >= halo_lanes && lane < kStripLanes - halo_lanes && x < src.width;
    const bool vector_lane = x >= 0 && x + kLanePixels <= src.width;
    const std::int32_t n = static_cast<std::int32_t>(p.n);
    std::uint32_t(*const pv)[kPrefixSlots] = prefix[warp];
    const auto fetch = [&](int y) { return fetch_row<kVector>(src, x, y, radius, vector_lane); };

    ColumnSums sums;
    for (int y = y0 - radius; y <= y0 + radius; ++y) sums.add(fetch(y));
    uint2 ahead[kRowsAhead];  // the rows entering at y + 1 .. y + kRowsAhead
#pragma unroll
    for (int j = 0; j < kRowsAhead; ++j) ahead[j] = fetch(y0 + 1 + radius + j);
    uint2 leaving = fetch(y0 - radius), center = fetch(y0);
    for (int y = y0; y < y1; ++y) {
        if (y > y0) {
            const uint2 entering = ahead[0];
#pragma unroll
            for (int j = 0; j + 1 < kRowsAhead; ++j) ahead[j] = ahead[j + 1];
            ahead[kRowsAhead - 1] = fetch(y + kRowsAhead + radius);
            sums.slide(entering, leaving);
        }
        // The next row's leaving and centre rows go out before this row's arithmetic.
        const uint2 next_leaving = fetch(y - radius), next_center = fetch(min(y + 1, y1 - 1));
        std::uint32_t c[kLanePixels];
#pragma unroll
        for (int i = 0; i < kLanePixels; ++i) c[i] = (sums.v[i / 2] >> (16 * (i % 2))) & 0xffffu;
        write_prefix(c, lane, pv);
        __syncwarp();
        const std::uint32_t v_words[2] = {center.x, center.y};
        std::uint32_t packed[2] = {0, 0};
#pragma unroll
        for (int i = 0; i < kLanePixels; ++i) {
            const int k = lane * kLanePixels + i;
            const std::uint32_t sum = prefix_at(pv, k + radius + 1) - prefix_at(pv, k - radius);
            const int v = static_cast<int>(byte_of(v_words, i));
            packed[i / 4] |= static_cast<std::uint32_t>(adaptive_mean_decision(sum, v, n, p.offset)) << (8 * (i % 4));
        }
        __syncwarp();  // the prefix row is rewritten for the next row
        if (writes) {
            std::uint8_t* d = dst.data + static_cast<std::size_t>(y) * dst.pitch;
            if (x + kLanePixels <= src.width && (reinterpret_cast<std::uintptr_t>(d + x) & 7) == 0) {
                __stcs(reinterpret_cast<uint2*>(d + x), make_uint2(packed[0], packed[1]));
            } else {
#pragma unroll
                for (int q = 0; q < kLanePixels; ++q) {
                    if (x + q >= src.width) break;
                    d[x + q] = static_cast<std::uint8_t>(byte_of(packed, q));
                }
            }
        }
        leaving = next_leaving;
        center = next_center;
    }
}

}  // namespace imgpar::cuda::adaptive_detail
