// Area resize at whole factors on the GPU (cuda/resize_blocks.cu): where
// every output pixel is the mean of an fx x fy block (area at 50%, 25%, or
// any whole factors with fx fy <= 256 for bytes, any for 16-bit samples; no
// alpha, or a copy), one kernel of block means gives cpu::resize's samples
// at the speed of one read of the input; cuda::resize takes it before the
// tiled kernel.
#pragma once

#include <cuda_runtime.h>

#include "src/image.hpp"
#include "src/ops/resize.hpp"

namespace imgpar::cuda {

// 32 x 8 threads: a warp makes 32 neighbouring output pixels of one row.
struct ResizeBlocksPolicy {
    static constexpr int block_x = 32;
    static constexpr int block_y = 8;
    unsigned max_grid_y = 65535;
};

// Launches the block means and returns true where the plan is whole blocks
// (cpu::resize_takes_blocks), else returns false and launches nothing.
bool resize_blocks(const ResizePlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst,
                   cudaStream_t stream);
bool resize_blocks(const ResizePlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst,
                   cudaStream_t stream);

}  // namespace imgpar::cuda
