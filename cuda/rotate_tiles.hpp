// Rotation by any angle of 8-bit images over output tiles, the input each
// tile reads staged in shared memory (cuda/rotate_tiles.cu).
#pragma once

#include <cuda_runtime.h>

#include "src/image.hpp"
#include "src/ops/rotate.hpp"

namespace imgpar::cuda {

// cpu::rotate's bytes for the map m (rotate_map of the input's shape) into
// dst, which has the rotated shape; asynchronous on `stream`.
void rotate_tiles(const RotateMap& m, const ConstDeviceViewU8& src, const DeviceViewU8& dst, cudaStream_t stream);

// The kernel's name and shape for -v and --json; the interpolation's name
// and a closing parenthesis follow.
const char* rotate_tiles_description();

}  // namespace imgpar::cuda
