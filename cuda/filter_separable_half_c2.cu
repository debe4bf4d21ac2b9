// The tensor-core Gaussian's kernels for gray and alpha images (2 channels): the rows
// of the tuning table with 2 channels (cuda/filter_separable_half_kernel.cuh).
#include "cuda/filter_separable_half_kernel.cuh"

namespace imgpar::cuda::filter_detail {

template <>
HalfVariant half_variant_of_channels<2>(int row) {
    return variant_of_channels<2>(row);
}

}  // namespace imgpar::cuda::filter_detail
