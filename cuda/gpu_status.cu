// What the driver says about the GPUs (src/gpu_runtime.hpp), for a build with
// the CUDA backend.
#include <cuda_runtime.h>

#include <string>

#include "src/gpu_runtime.hpp"

namespace imgpar {
namespace cuda {
namespace {

constexpr int kMinComputeMajor = 8;

// Launching this proves the binary carries code the device can run.
__global__ void probe_kernel(int* out) {
    if (out) *out = 1;
}

}  // namespace
}  // namespace cuda

const GpuStatus& gpu_status() {
    static const GpuStatus status = [] {
        GpuStatus s;
        s.built_with_cuda = true;
        cudaRuntimeGetVersion(&s.runtime_version);
        cudaDriverGetVersion(&s.driver_version);
        int count = 0;
        cudaError_t err = cudaGetDeviceCount(&count);
        if (err != cudaSuccess) {
            cudaGetLastError();  // clear it: it is an answer, not a failure of ours
            if (err == cudaErrorNoDevice)
                s.reason = "no CUDA GPU is present";
            else if (err == cudaErrorInsufficientDriver && s.driver_version == 0)
                s.reason = "no NVIDIA driver is installed (CUDA reports: " + std::string(cudaGetErrorString(err)) + ")";
            else if (err == cudaErrorInsufficientDriver)
                s.reason = "the NVIDIA driver supports CUDA " + cuda_version_string(s.driver_version) +
                           " but imgpar needs " + cuda_version_string(s.runtime_version) + " or newer";
            else
                s.reason = std::string("CUDA cannot be initialised: ") + cudaGetErrorString(err) + " (" +
                           cudaGetErrorName(err) + ")";
            return s;
        }
        for (int i = 0; i < count; ++i) {
            GpuInfo info;
            info.index = i;
            cudaDeviceProp p{};
            if (cudaGetDeviceProperties(&p, i) != cudaSuccess) {
                cudaGetLastError();
                info.problem = "properties cannot be read";
                s.devices.push_back(info);
                continue;
            }
            info.name = p.name;
            info.compute_major = p.major;
            info.compute_minor = p.minor;
            info.multiprocessors = p.multiProcessorCount;
            info.total_memory = p.totalGlobalMem;
            if (p.major < cuda::kMinComputeMajor) {
                // The filters run on tensor cores with instructions of 8.0;
                // older GPUs take the CPU path (auto) or a clear error (gpu).
                info.problem = "has compute capability " + std::to_string(p.major) + "." + std::to_string(p.minor) +
                               "; imgpar's GPU kernels need 8.0 (Ampere) or newer";
                s.devices.push_back(info);
                continue;
            }
            cudaFuncAttributes attr{};
            cudaError_t fe = cudaSetDevice(i);
            if (fe == cudaSuccess) fe = cudaFuncGetAttributes(&attr, cuda::probe_kernel);
            if (fe == cudaSuccess) {
                std::size_t free_b = 0, total_b = 0;
                if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) info.free_memory = free_b;
                cudaGetLastError();
                info.usable = true;
            } else {
                cudaGetLastError();
                info.problem = fe == cudaErrorNoKernelImageForDevice || fe == cudaErrorInvalidDeviceFunction
                                   ? "this build has no code for compute capability " + std::to_string(p.major) + "." +
                                         std::to_string(p.minor) + " (rebuild with CMAKE_CUDA_ARCHITECTURES including " +
                                         std::to_string(p.major * 10 + p.minor) + ")"
                                   : std::string("cannot be used: ") + cudaGetErrorString(fe);
            }
            s.devices.push_back(info);
        }
        if (count > 0) cudaSetDevice(0);
        if (!s.usable()) {
            if (s.devices.empty())
                s.reason = "no CUDA GPU is present";
            else
                s.reason = "GPU 0 " + s.devices[0].problem;
        }
        return s;
    }();
    return status;
}

}  // namespace imgpar
