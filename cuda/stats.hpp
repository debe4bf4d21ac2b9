// GPU image statistics: cpu::stats (src/ops/stats.hpp, whose header holds
// the contract) as one pass over all channels (cuda/stats.cu):
//   - each thread walks tiles of 16-64 pixels (64 bytes at most, read with
//     16-byte loads) with a grid stride, summing in 32-bit registers with
//     byte dot products (dp4a: four samples' sum or sum of squares in one
//     instruction), counting non-zero bytes with a carry-free bit trick and
//     keeping minima and maxima in 16-bit pairs; a tile's extremes that beat
//     the thread's best are remembered with the tile;
//   - warp shuffles, then shared memory, combine a block's threads; minima
//     and maxima travel as keys (value << 32 | tile; 255 - value for
//     maxima), so the smallest key is the block's extreme in its first tile,
//     which one thread per channel and extreme reads again for the first
//     pixel;
//   - from there on they are pixel keys (value << 56 | pixel index), the
//     smallest the extreme at the first pixel in row-major order;
//   - each block adds its totals into 64-bit accumulators with atomics
//     (integer sums and minimum keys: the same result in any order), and the
//     last block to finish moves them to the result and resets them.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/buffers.hpp"
#include "src/image.hpp"
#include "src/ops/stats.hpp"

namespace imgpar::cuda {

// Launch shape (cuda/stats.cu): 256 threads a block, as many blocks as are
// co-resident (a grid-stride walk: each block combines once), fewer for a
// small image. No register cap: capping at 64 (4 blocks an SM) spilled and
// was slower on the H100 (7680x4320 RGB 63.5 -> 68.2 us, 8192^2 gray 39.5 ->
// 41.2 us). Not yet tuned by a sweep.
struct StatsPolicy {
    static constexpr int threads = 256;
    static constexpr int min_blocks_per_sm = 1;  // __launch_bounds__'s: what caps the registers
    // 64-bit totals per block and in the result: sum, squares, non-zero,
    // min key, max key for each of 4 channels, then the selected pixels.
    static constexpr int fields = 5 * kMaxChannels + 1;
};

// Device memory for one reduction at a time: the accumulators, the
// finishing counter, the result and its pinned host copy. Not thread-safe;
// one workspace per stream.
class StatsWorkspace {
public:
    // Allocated and set to identities once, in `stream`'s order.
    void reserve(cudaStream_t stream);
    unsigned long long* accum() const { return accum_.get(); }
    unsigned long long* result() const { return result_.get(); }  // StatsPolicy::fields, on the device
    unsigned* counter() const { return counter_.get(); }
    unsigned long long* host_result() const { return host_.get(); }

private:
    DeviceBuffer<unsigned long long> accum_;
    DeviceBuffer<unsigned long long> result_;
    DeviceBuffer<unsigned> counter_;
    PinnedBuffer<unsigned long long> host_;
};

// The device form: reduces `image` (over the pixels where `mask`, if given,
// one channel of the image's size, is non-zero) into ws.result(), on
// `stream`, setting `ws` up in stream order the first time; allocates
// nothing after that (the benchmark times this form).
// Throws imgpar::Error (usage) on a bad view or a mask of another shape.
void stats(const ConstDeviceViewU8& image, const ConstDeviceViewU8* mask, StatsWorkspace& ws, cudaStream_t stream);
// The result of the last stats() on `ws` for this image, copied to the host
// (waits for it).
ImageStats stats_result(const ConstDeviceViewU8& image, bool masked, StatsWorkspace& ws, cudaStream_t stream);
// What runs, for -v and --json.
std::string stats_kernel_name(int channels, bool masked);

// 16-bit images (cuda/stats16.cu): the same forms, on the same workspace.
void stats(const ConstDeviceViewU16& image, const ConstDeviceViewU8* mask, StatsWorkspace& ws, cudaStream_t stream);
ImageStats stats_result(const ConstDeviceViewU16& image, bool masked, StatsWorkspace& ws, cudaStream_t stream);
std::string stats16_kernel_name(int channels, bool masked);

}  // namespace imgpar::cuda
