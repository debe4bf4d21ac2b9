// resize as one kernel of output tiles (cuda/resize_tiles.cu), where a
// tile's intermediate rows fit in shared memory; the two-pass kernels of
// cuda/resize.cu take the rest (shrinks so steep that even one row of a
// narrow tile does not fit).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/resize.hpp"
#include "src/ops/resize_math.hpp"

namespace imgpar::cuda {

// Launch shape: 256 threads a block; tiles of 64 output columns (halved
// while a row of the intermediate does not fit) by as many rows as 48 KB of
// shared memory holds, at most 32, beside the tile's row weights where they
// take at most a quarter of it. Not yet tuned by a sweep.
struct ResizeTilePolicy {
    static constexpr int threads = 256;
    static constexpr int tile_w = 64;
    static constexpr int min_tile_w = 8;
    static constexpr int max_tile_h = 32;
    static constexpr int min_rows = 1;
    static constexpr std::size_t shared_bytes = 48 * 1024;
    // The tensor cores' first pass: groups of 16 rows reading at most this
    // many input rows (lanczos3 down to about 17%), tiles of at most this
    // much shared memory (the staged input and the weights beside the
    // intermediate; three blocks an SM).
    static constexpr int mma_max_k = 128;
    static constexpr int mma_max_kx = 64;  // along the rows: 8 outputs' columns (lanczos3 down to about 22%)
    static constexpr std::size_t mma_shared_bytes = 72 * 1024;
};


// Launches the tiled kernel and says how its passes ran, or returns None
// (nothing launched) where no tile fits. `mid_bytes`: 2 or 4, as the two
// passes' intermediate. `tensor_cores`: the passes they may take where they
// apply (gray or RGB, a filter down the columns, and along the rows for the
// second; groups' windows within the policy's K).
TilePasses resize_tiled(const ResizePlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst,
                        const ResizeTables& t, bool premultiply, std::size_t mid_bytes, const ExactDivider& divider,
                        cudaStream_t stream, TilePasses tensor_cores);
// 16-bit samples (a plan for U16): `mid_bytes` 4 or 8.
bool resize_tiled(const ResizePlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst,
                  const ResizeTables& t, bool premultiply, std::size_t mid_bytes, const ExactDivider& divider,
                  cudaStream_t stream);

}  // namespace imgpar::cuda
