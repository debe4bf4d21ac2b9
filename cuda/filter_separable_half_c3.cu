// The tensor-core Gaussian's kernels for RGB images (3 channels): the rows
// of the tuning table with 3 channels (cuda/filter_separable_half_kernel.cuh).
#include "cuda/filter_separable_half_kernel.cuh"

namespace imgpar::cuda::filter_detail {

template <>
HalfVariant half_variant_of_channels<3>(int row) {
    return variant_of_channels<3>(row);
}

}  // namespace imgpar::cuda::filter_detail
