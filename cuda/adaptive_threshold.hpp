// GPU adaptive threshold: cpu::adaptive_threshold
// (src/ops/adaptive_threshold.hpp), whose header holds the contract.
// Windows up to 2 * max_radius + 1 pixels: one fused launch that slides the
// window sums through shared memory and reads the image and writes the
// result once (no tables: the two u64 tables alone are 16x the image's
// bytes). Wider windows: three launches, the intensity plane, its tables of
// sums and squares (cuda/integral.hpp, u64), then one thread per pixel
// deciding from its window's sums. Both decide with the CPU's arithmetic
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

// Whether a window of this size runs the fused kernel.
bool adaptive_threshold_fused(int window);

// The intensity plane and its two tables, grown to the largest image seen.
struct AdaptiveWorkspace {
    DeviceBuffer<std::uint8_t> intensity;
    DeviceBuffer<unsigned long long> tables;
};

// The device form; dst: src's size, threshold_output_channels channels.
// Throws imgpar::Error (usage) for a bad spec or a window larger than the
// image, before any launch.
void adaptive_threshold(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const AdaptiveSpec& spec,
                        AdaptiveWorkspace& ws, IntegralWorkspace& integrals, cudaStream_t stream);

}  // namespace imgpar::cuda
