// GPU summed-area tables: cpu::integral (src/ops/integral.hpp), whose header
// holds the contract, as a tiled two-level 2-D scan (cuda/integral.cu,
// cuda/integral_tiles.cuh):
//   1. tile totals: each tile's column totals, row totals and total (the
//      image read once; a block per tile, every row's load in flight);
//   2. boundaries: the column totals scanned down the tile rows, the row
//      totals across the tile columns, the tile totals into each tile's
//      corner S(x0, y0), in one launch, 32 scans a block, each split among
//      the block's warps;
//   3. tiles: each tile scans its pixels again, in registers along a row and
//      one warp shuffle scan across the lanes, adds its boundaries and writes
//      its part of the table: every entry written once, 32 neighbouring
//      entries per store instruction.
// All channels go through each launch. The tile's own sums are 32-bit (a
// tile of 8-bit squares stays below 2^31; 16-bit squares take 64 bits); the table's sums are kept in its own
// integer width (u32, or u64 for u64 and f64 tables): a u32 table is only
// asked for when every entry fits (integral_type), and every partial sum is
// a sum over a rectangle of the image, so no step wraps.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cuda/buffers.hpp"
#include "src/image.hpp"
#include "src/ops/integral.hpp"

namespace imgpar::cuda {

// Launch shapes (cuda/integral.cu): a tile is one warp wide, each lane 16
// bytes of a row (12 for RGB: 512x64 gray, 256x64 two-channel, 128x64 RGB
// and RGBA pixels), 64 rows tall; eight tiles (warps) a block. Wide so that
// a lane's loads are 16-byte vectors and its scan runs in registers; 64 rows
// keep the boundary arrays at 1/64 of the image's sums (the 32x32 tiles
// with shuffle scans everywhere that this replaced took 2.2x a device copy
// of the bytes on 8192^2 gray -> u64).
// Images with fewer than min_tall_tiles such tiles (4096^2 gray has 512:
// four warps an SM on a 132-SM GPU) use tiles half as tall, twice as many:
// on an H200, 4096^2 gray to u32 0.063 ms against 0.087, while 8192^2 gray
// (2048 tiles) and 7680x4320 RGB (4080) measured 6-7% slower with them.
// (0.050 ms since the first two passes keep more loads in flight: 23 -> 9 us
// and 8 -> 6 us; the table pass, 31 us, is the rest.)
struct IntegralPolicy {
    static constexpr int tile_rows = 64;
    static constexpr int short_tile_rows = 32;
    static constexpr int min_tall_tiles = 1024;
    static constexpr int warps = 8;  // tiles per block
};

// The tile height an image's table is built with.
int integral_tile_rows(int width, int height, int channels);

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
// tile_rows: as integral's.
std::size_t integral_workspace_bytes(int width, int height, int channels, SumType type, int tile_rows = 0);

// The device form: the table of `src` into the device view `table`, on
// `stream`; allocates nothing once `ws` holds integral_workspace_bytes.
// Throws imgpar::Error (usage) on a shape mismatch or a u32 table that could
// overflow. tile_rows: IntegralPolicy's tile_rows or short_tile_rows to
// force one (the tests build both), anything else for integral_tile_rows'.
void integral(const ConstDeviceViewU8& src, const SumTableView& table, IntegralWorkspace& ws, cudaStream_t stream,
              int tile_rows = 0);

// What integral runs, for -v and --json.
std::string integral_kernel_name(const SumTableView& table);

// 16-bit images: the same tiled scan and table layout and checks (bounds of
// 65535 per sample), half as many pixels a lane (a tile is 256 gray pixels
// wide), the squares' tile sums in 64 bits. Allocates nothing once `ws`
// holds integral16_workspace_bytes (with the same tile_rows: as integral's).
std::size_t integral16_workspace_bytes(int width, int height, int channels, int tile_rows = 0);
void integral(const ConstDeviceViewU16& src, const SumTableView& table, IntegralWorkspace& ws, cudaStream_t stream,
              int tile_rows = 0);
std::string integral16_kernel_name(const SumTableView& table);

}  // namespace imgpar::cuda
