// The tensor-core Gaussian's kernels for gray images (1 channel): the rows
// of the tuning table with 1 channel (cuda/filter_separable_half_kernel.cuh).
#include "cuda/filter_separable_half_kernel.cuh"

namespace imgpar::cuda::filter_detail {

template <>
HalfVariant half_variant_of_channels<1>(int row) {
    return variant_of_channels<1>(row);
}

}  // namespace imgpar::cuda::filter_detail
