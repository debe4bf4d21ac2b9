// GPU adaptive threshold: cpu::adaptive_threshold
// (src/ops/adaptive_threshold.hpp), whose header holds the contract.
// Windows up to 2 * max_radius + 1 pixels: one fused launch that reads the
// image and writes the result once (no tables: the two u64 tables alone are
// 16x the image's bytes). The mean method (the common case: scanned pages,
// OpenCV's default) on gray and RGB images with windows up to 17 computes
// the window sums as integer matrix products on the tensor cores
// (cuda/adaptive_mma.cuh); gray images with wider windows slide the sums
// down in registers and along rows through a warp's prefix sums
// (cuda/adaptive_strips.cuh); the rest go through shared memory. Wider
// windows: three launches, the intensity plane, its tables of sums and
// squares (cuda/integral.hpp, u64), then one thread per pixel deciding from
// its window's sums. All decide with the CPU's arithmetic
// (src/ops/adaptive_math.hpp: adaptive_decision_fast, which returns
// adaptive_decision's result).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/buffers.hpp"
#include "cuda/integral.hpp"
#include "src/image.hpp"
#include "src/ops/adaptive_threshold.hpp"

namespace imgpar::cuda {

// The fused kernel's shapes: a block of 256 threads per 128 x 128 tile, in
// bands of 16 rows; each thread decides a run of 8 pixels of a band row.
// Windows up to 63 x 63 (most documents use 15-51), where the window's
// columns (128 + 62) still take one thread each and its sums of v^2 fit 32
// bits.
struct AdaptiveFusedPolicy {
    static constexpr int tile_width = 128;
    static constexpr int tile_rows = 128;
    static constexpr int band_rows = 16;
    static constexpr int run = 8;
    static constexpr int max_radius = 31;
    // Blocks per SM the registers must allow: 5 (at most 51 registers) was
    // measured 20% faster than the compiler's own choice (72 for Sauvola).
    static constexpr int min_blocks = 5;
};

// The gray mean kernel for windows 19 to 63: blocks of 4 independent warps;
// a warp reads a strip of 256 columns (8 per lane) and decides all but its halo lanes'
// (ceil(radius / 8) lanes each side), over a band of rows sized to the
// device. Windows up to 2 * AdaptiveFusedPolicy::max_radius + 1, where a
// window column's sum fits 16 bits. Against the shared-memory kernel, on an
// H200 (window 15): 8192^2 gray 0.17 ms against 0.27; on RGB it measured
// 0.17 ms against 0.16 for the mean and 0.36 against 0.26 for Sauvola (twice
// the sums: 128 registers a thread), so those keep the shared-memory kernel.
struct AdaptiveStripPolicy {
    static constexpr int lane_pixels = 8;
    static constexpr int warps = 4;
    static constexpr int min_band_rows = 16;
    static constexpr int max_band_rows = 256;
    static constexpr int min_blocks = 6;  // 80 registers a thread
};

// The mean kernel for small windows (cuda/adaptive_mma.cuh): blocks of 4
// warps, each deciding 32 columns of a band of band_rows rows, 16 rows at a
// time, with the window sums as u8 matrix products on the tensor cores.
// Windows up to 17 (16 outputs and their window fit one 32-wide product);
// gray and RGB, whose outputs are gray (the alpha layouts keep the
// shared-memory kernel). Bands of 64 rows measured fastest on an H200
// (8192^2 gray, window 15: 0.087 ms, against 0.100 with 32 and 0.091 with
// 128, before the test lost its table: 0.084 ms then, 0.076 since the band
// bytes, B operands and staging took fewer instructions); against the
// strips' 0.17 ms, and on 7680x4320 RGB 0.13 against the shared-memory
// kernel's 0.16.
struct AdaptiveMmaPolicy {
    static constexpr int warps = 4;
    static constexpr int band_rows = 64;
    static constexpr int max_radius = 8;
    static constexpr int min_blocks = 8;
};

enum class AdaptiveKernel { MeanMma, GrayMeanStrips, Fused, Tables };
// Which kernel a spec runs on an image of `channels` channels.
AdaptiveKernel adaptive_threshold_kernel(const AdaptiveSpec& spec, int channels);

// The intensity plane and its two tables, grown to the largest image seen.
struct AdaptiveWorkspace {
    DeviceBuffer<std::uint8_t> intensity;
    DeviceBuffer<unsigned long long> tables;
    DeviceBuffer<std::uint16_t> intensity16;  // 16-bit images (cuda/adaptive16.cu)
};

// The device form; dst: src's size, threshold_output_channels channels.
// Throws imgpar::Error (usage) for a bad spec or a window larger than the
// image, before any launch. band_rows: the gray mean kernel's band height, 0
// for its own choice (other values: the lab sweep, bench/lab/adaptive_sweep.cu).
void adaptive_threshold(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const AdaptiveSpec& spec,
                        AdaptiveWorkspace& ws, IntegralWorkspace& integrals, cudaStream_t stream, int band_rows = 0);

// 16-bit images (cuda/adaptive16.cu): the intensity plane, its u64 tables
// (cuda::integral on 16 bits), then a pass that decides each pixel from its
// window's sums with adaptive_decision16 (the CPU's arithmetic, 128-bit
// variance numerator). Allocates on first use (the workspace grows).
void adaptive_threshold(const ConstDeviceViewU16& src, const DeviceViewU16& dst, const AdaptiveSpec& spec,
                        AdaptiveWorkspace& ws, IntegralWorkspace& integrals, cudaStream_t stream);

}  // namespace imgpar::cuda
