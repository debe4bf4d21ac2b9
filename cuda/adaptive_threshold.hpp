// GPU adaptive threshold: cpu::adaptive_threshold
// (src/ops/adaptive_threshold.hpp), whose header holds the contract, in
// three launches: the intensity plane, its tables of sums and squares
// (cuda/integral.hpp, u64), then one thread per pixel deciding from its
// window's sums with the CPU's arithmetic (src/ops/adaptive_math.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/buffers.hpp"
#include "cuda/integral.hpp"
#include "src/image.hpp"
#include "src/ops/adaptive_threshold.hpp"

namespace imgpar::cuda {

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
