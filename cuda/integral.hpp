// GPU summed-area tables: cpu::integral (src/ops/integral.hpp), whose header
// holds the contract, as a tiled two-level 2-D scan (cuda/integral.cu):
//   1. tile sums: each 32x32 tile's row totals and column totals (the image
//      read once, bytes);
//   2. boundary scans: those totals scanned across the tiles, giving the
//      table's values along every tile's top row and left column;
//   3. tiles: each tile scans its pixels again in shared memory (warp
//      shuffles along rows, then down columns), adds its boundary values and
//      writes its part of the table: every entry written once.
// All channels go through each launch. Sums are kept in the table's own
// integer width (u32, or u64 for u64 and f64 tables): a u32 table is only
// asked for when every entry fits (integral_type), and every partial sum is a
// sum over a rectangle of the image, so no step wraps.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cuda/buffers.hpp"
#include "src/image.hpp"
#include "src/ops/integral.hpp"

namespace imgpar::cuda {

// Launch shapes (cuda/integral.cu): 32x32-pixel tiles, one warp per row of a
// tile (lane = pixel), eight warps a block. Chosen for the warp shuffles
// (a tile row is one warp); not yet tuned by measurement.
struct IntegralPolicy {
    static constexpr int tile = 32;      // tile width and height, pixels
    static constexpr int threads = 256;  // per block of the tile kernels and the row scan
};

// Device memory for the tile totals and boundaries of one table at a time.
// Not thread-safe; one workspace per stream.
class IntegralWorkspace {
public:
    // At least `bytes`, in `stream`'s order.
    void* reserve(std::size_t bytes, cudaStream_t stream) {
        scratch_.reserve(bytes, stream);
        return scratch_.get();
    }

private:
    DeviceBuffer<unsigned char> scratch_;
};

// Bytes of workspace a table of a width x height x channels image needs.
std::size_t integral_workspace_bytes(int width, int height, int channels, SumType type);

// The device form: the table of `src` into the device view `table`, on
// `stream`; allocates nothing once `ws` holds integral_workspace_bytes.
// Throws imgpar::Error (usage) on a shape mismatch or a u32 table that could
// overflow.
void integral(const ConstDeviceViewU8& src, const SumTableView& table, IntegralWorkspace& ws, cudaStream_t stream);

// What integral runs, for -v and --json.
std::string integral_kernel_name(const SumTableView& table);

}  // namespace imgpar::cuda
