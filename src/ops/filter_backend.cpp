#include "src/ops/filter_backend.hpp"

#if IMGPAR_HAVE_CUDA
#include "cuda/filter.hpp"
#endif

namespace imgpar {

ImageU8 apply_filter(const FilterPlan& plan, ConstViewU8 src, const BackendChoice& backend) {
#if IMGPAR_HAVE_CUDA
    if (backend.backend == Backend::Gpu) return cuda::apply_filter(plan, src);
#else
    (void)backend;
#endif
    return cpu::apply_filter(plan, src);
}

}  // namespace imgpar
