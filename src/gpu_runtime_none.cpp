// GPU queries for a build without the CUDA backend.
#include "src/gpu_runtime.hpp"

#if !IMGPAR_HAVE_CUDA
namespace imgpar {

const GpuStatus& gpu_status() {
    static const GpuStatus status = [] {
        GpuStatus s;
        s.built_with_cuda = false;
        s.reason = "this imgpar was built without the CUDA backend";
        return s;
    }();
    return status;
}

}  // namespace imgpar
#endif
