// Launch shapes of the histogram-family kernels, and the dispatch entry points
// that take them explicitly (the benchmark sweeps them; everything else uses
// the defaults through cuda/histogram.hpp).
#pragma once

#include <cuda_runtime.h>

#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"

namespace imgpar::cuda {

// Privatized histogram sweep (cuda/histogram.cu).
//
// Every thread reads 16 pixels per step (C 16-byte loads), run-length merges
// equal neighbours per plane in registers, and adds each run to its warp's
// 32-bit sub-histogram in shared memory; at the end of a step a warp whose
// lanes all hold the same value adds their runs with one atomic (a constant
// image costs one shared atomic per warp per step and plane). Warps share
// sub-histogram copy `warp % copies`; each block merges its copies once into
// the 64-bit global counts, skipping empty bins.
//
// Defaults: 256 threads (8 warps) with one copy per warp: 8 KiB of shared
// memory per plane, so a 5-plane RGBA+luma block takes 40 KiB and several
// blocks still fit per SM; grid = as many blocks as are co-resident
// (occupancy API), which keeps ~all memory parallelism in flight without
// inflating the merge. These come from the design reasoning above; the sweep
// `imgpar_bench --only histo-policy` measures the alternatives on the target
// GPU and is the measurement to consult before changing them.
struct HistogramPolicy {
    int block_threads = 256;  // multiple of 32, 32..1024
    int copies = 8;           // sub-histograms per block, 1..block_threads/32
    int blocks_per_sm = 0;    // 0: as many as are co-resident
};

// Equalize/threshold apply kernels: a streaming pass (16 pixels per thread and
// step, 16-byte loads and stores), grid-stride over co-resident blocks.
struct ApplyPolicy {
    int block_threads = 256;
};

namespace detail {
// histogram() with an explicit policy. Throws imgpar::Error (usage) on a bad policy.
void histogram_with_policy(const DeviceImageRef& image, HistogramPlanes planes, unsigned long long* d_counts,
                           const HistogramPolicy& policy, cudaStream_t stream);
}  // namespace detail

}  // namespace imgpar::cuda
