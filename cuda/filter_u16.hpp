// Private interface of the 16-bit GPU filters (cuda/filter_u16.cu) for the
// dispatcher (cuda/filter_u16_dispatch.cpp): a validated call, as for the
// 8-bit launchers in cuda/filter_launch.hpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/filter.hpp"
#include "cuda/filter_launch.hpp"
#include "src/image.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_u16_math.hpp"

namespace imgpar::cuda::filter_detail {

// The lanes a plan filters on a 16-bit image of `channels` channels.
LaneKind16 lane_kind_u16(const FilterPlan& plan, int channels);
// Scratch the 16-bit kernels need: the Gaussian's H lanes past the fused
// kernel's radii (cuda/filter_u16_kernels.cuh), box column sums.
std::size_t u16_scratch_bytes(const FilterPlan& plan, int width, int height, int channels);
// Launches the plan's kernels on `stream`; returns the name of what runs.
// `path` picks the Gaussian's kernels (SeparablePath in cuda/filter.hpp).
const char* launch_u16(const FilterPlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst, void* scratch,
                       std::size_t scratch_bytes, cudaStream_t stream, const DeviceLimits& dev, SeparablePath path);

}  // namespace imgpar::cuda::filter_detail
