#include "src/ops/histogram_backend.hpp"

#if IMGPAR_HAVE_CUDA
#include "cuda/histogram.hpp"
#define IMGPAR_ON_BACKEND(backend, call) ((backend).backend == Backend::Gpu ? cuda::call : cpu::call)
#else
#define IMGPAR_ON_BACKEND(backend, call) ((void)(backend), cpu::call)
#endif

namespace imgpar {

Histogram compute_histogram(ConstViewU8 image, bool with_luma, const BackendChoice& backend) {
    return IMGPAR_ON_BACKEND(backend, histogram(image, with_luma));
}

ImageU8 equalize(ConstViewU8 image, EqualizeMode mode, const BackendChoice& backend) {
    return IMGPAR_ON_BACKEND(backend, equalize(image, mode));
}

ThresholdResult threshold(ConstViewU8 image, const ThresholdSpec& spec, const BackendChoice& backend) {
    return IMGPAR_ON_BACKEND(backend, threshold(image, spec));
}

}  // namespace imgpar
