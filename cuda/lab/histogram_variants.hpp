// Histogram sweeps with any policy (cuda/histogram_policy.hpp), for the
// benchmark's sweep and the GPU tests; not part of imgpar (which runs only its
// default policies).
#pragma once

#include <cuda_runtime.h>

#include "cuda/histogram.hpp"
#include "cuda/histogram_policy.hpp"

namespace imgpar::cuda::lab {

// histogram() with an explicit policy. Throws imgpar::Error (usage) on a bad
// policy, or one this variant cannot launch (too many registers or too much
// shared memory per block for the shape asked).
void histogram_with_policy(const ConstDeviceViewU8& image, HistogramPlanes planes, unsigned long long* d_counts,
                           const HistogramPolicy& policy, cudaStream_t stream);

}  // namespace imgpar::cuda::lab
