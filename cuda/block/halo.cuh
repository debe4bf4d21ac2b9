// Halo gathers: an edge strip's staged pixels outside the image, filled
// from the raw slot by the border rule instead of fetched from the image.
// Every border rule but wrap maps a column outside the image to one the same
// strip stages (for images wider than a strip), so the strip copies it out of
// its own slot after each block arrives.
#pragma once

#include <cstdint>

#include "cuda/block/staging.cuh"

namespace imgpar::cuda::filter_detail {

// The staged pixels outside the image of an edge strip (gather_edges) are
// filled from the raw slot by the border rule: copied from the in-image
// column colmap names, which the slot holds, or set to the constant. A halo
// task is one such pixel: its raw slot offset (low 16 bits) and that of its
// source (high 16 bits; kConstantSource: the constant). They are the same
// for every block of a segment, so each warp works out the tasks of its own
// convert units once, dealt out over its lanes (task k to lane k % 32, in
// the lane's slot k / 32, kNoTask after its last), and each step runs them
// just before its conversion: only in-image bytes are read and only halo
// bytes written, and only this warp converts them, so __syncwarp() orders
// it all. (Worked out per step instead, the gather made gray edge strips 4x
// slower per step.)
constexpr std::uint32_t kNoTask = 0xFFFFFFFFu;
constexpr int kConstantSource = 0xFFFF;

// Builds the warp's halo tasks for the convert units of its lanes' shares
// (once per segment, after the share records and the column map; xs: the
// image column of staged column 0). G: C, THREADS, UNIT_PX, CONVERT_ITERS
// (convert items per share), HALO_ITERS (task slots per lane) and Raw (the
// RawSlot).
template <class G, class Shares>
__device__ __forceinline__ void build_halo_tasks(std::uint32_t* tasks, const Shares& share, const short* colmap, int xs,
                                                 int width) {
    constexpr int C = G::C;
    const int lane = static_cast<int>(threadIdx.x) & 31;
    std::uint32_t* const warp_tasks = tasks + (threadIdx.x - lane);  // slot t of lane l: warp_tasks[t * THREADS + l]
#pragma unroll 1
    for (int t = 0; t < G::HALO_ITERS; ++t) warp_tasks[t * G::THREADS + lane] = kNoTask;
    __syncwarp();
    int next = 0;  // the warp's tasks so far
#pragma unroll 1
    for (int i = 0; i < G::CONVERT_ITERS; ++i) {
        const int raw = low16(share.get(kUnit, i));
        const int c0 = G::Raw::col(raw) / C;  // staged column of the unit's first pixel
        int n = 0;
        if (raw != kNoItem) {
            for (int j = 0; j < G::UNIT_PX; ++j) n += (xs + c0 + j < 0 || xs + c0 + j >= width) ? 1 : 0;
        }
        int before = n;  // inclusive prefix over the lanes
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            const int v = __shfl_up_sync(0xFFFFFFFFu, before, d);
            if (lane >= d) before += v;
        }
        int k = next + before - n;
        next += __shfl_sync(0xFFFFFFFFu, before, 31);
        for (int j = 0; j < (n > 0 ? G::UNIT_PX : 0); ++j) {
            const int x = xs + c0 + j;
            if (x >= 0 && x < width) continue;
            const int img = colmap[c0 + j];
            const int src = img < 0 ? kConstantSource : G::Raw::offset(G::Raw::row(raw), (img - xs) * C);
            if ((k >> 5) < G::HALO_ITERS)  // (always: see HALO_COLS)
                warp_tasks[(k >> 5) * G::THREADS + (k & 31)] =
                    static_cast<std::uint32_t>(raw + j * C) | (static_cast<std::uint32_t>(src) << 16);
            ++k;
        }
    }
    __syncwarp();
}

// Runs this lane's halo tasks on a raw slot, before the warp converts it.
template <class G>
__device__ __forceinline__ void fill_halo(std::uint8_t* slot, const std::uint32_t* tasks, int border_value) {
    constexpr int C = G::C;
#pragma unroll 1
    for (int t = 0; t < G::HALO_ITERS; ++t) {
        const std::uint32_t task = tasks[t * G::THREADS + threadIdx.x];
        if (task == kNoTask) break;
        std::uint8_t* d = slot + low16(task);
        const int src = high16(task);
#pragma unroll
        for (int c = 0; c < C; ++c)
            d[c] = src == kConstantSource ? static_cast<std::uint8_t>(border_value) : slot[src + c];
    }
    __syncwarp();
}

}  // namespace imgpar::cuda::filter_detail
