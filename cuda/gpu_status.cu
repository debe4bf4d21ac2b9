// What the driver says about the GPUs (src/gpu_runtime.hpp), for a build with
// the CUDA backend.
//
// Opening a GPU (its CUDA context) takes a few tenths of a second and some
// device memory, so the inventory reads every device's properties without
// opening any, and a device is opened only when a run asks about it
// (gpu_device): a run on GPU 0 of an eight-GPU node opens one GPU, not eight.
#include <cuda_runtime.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/gpu_runtime.hpp"

namespace imgpar {
namespace cuda {
namespace {

constexpr int kMinComputeMajor = 8;

// Launching this proves the binary carries code the device can run.
__global__ void probe_kernel(int* out) {
    if (out) *out = 1;
}

std::atomic<bool> started{false};

GpuStatus read_inventory() {
    started = true;  // before the driver is asked: a process that ends meanwhile must not run destructors
    GpuStatus s = gpu_versions();
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
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
    if (count == 0) s.reason = "no CUDA GPU is present";
    for (int i = 0; i < count; ++i) {
        GpuInfo info;
        info.index = i;
        cudaDeviceProp p{};  // read from the driver's device attributes: no context is made
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess) {
            cudaGetLastError();
            info.problem = "properties cannot be read";
            info.probed = true;
            s.devices.push_back(info);
            continue;
        }
        info.name = p.name;
        info.compute_major = p.major;
        info.compute_minor = p.minor;
        info.multiprocessors = p.multiProcessorCount;
        info.total_memory = p.totalGlobalMem;
        if (p.major < kMinComputeMajor) {
            // The filters run on tensor cores with instructions of 8.0;
            // older GPUs take the CPU path (auto) or a clear error (gpu).
            info.problem = "has compute capability " + std::to_string(p.major) + "." + std::to_string(p.minor) +
                           "; imgpar's GPU kernels need 8.0 (Ampere) or newer";
            info.probed = true;
        }
        s.devices.push_back(info);
    }
    return s;
}

// Opens the device (on the calling thread, which keeps it as its current
// device: every thread that works on a GPU sets its own) and asks for the
// probe kernel's attributes, which needs code for the device.
void probe(GpuInfo& info) {
    if (info.probed) return;
    info.probed = true;
    cudaFuncAttributes attr{};
    cudaError_t fe = cudaSetDevice(info.index);
    if (fe == cudaSuccess) fe = cudaFuncGetAttributes(&attr, probe_kernel);
    if (fe == cudaSuccess) {
        std::size_t free_b = 0, total_b = 0;
        if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) info.free_memory = free_b;
        cudaGetLastError();
        info.usable = true;
        return;
    }
    cudaGetLastError();
    const std::string cc = std::to_string(info.compute_major) + "." + std::to_string(info.compute_minor);
    info.problem = fe == cudaErrorNoKernelImageForDevice || fe == cudaErrorInvalidDeviceFunction
                       ? "this build has no code for compute capability " + cc +
                             " (rebuild with CMAKE_CUDA_ARCHITECTURES including " +
                             std::to_string(info.compute_major * 10 + info.compute_minor) + ")"
                       : std::string("cannot be used: ") + cudaGetErrorString(fe);
}

// The inventory and, beside it, each device once probed; the entries'
// addresses never change, so a probed one is read without a lock.
struct Devices {
    GpuStatus inventory = read_inventory();
    std::vector<GpuInfo> probed = inventory.devices;
    std::unique_ptr<std::once_flag[]> once{new std::once_flag[inventory.devices.size()]};
};

Devices& devices() {
    static Devices d;
    return d;
}

}  // namespace
}  // namespace cuda

bool cuda_started() { return cuda::started; }

GpuStatus gpu_versions() {
    GpuStatus s;
    s.built_with_cuda = true;
    cudaRuntimeGetVersion(&s.runtime_version);
    cudaDriverGetVersion(&s.driver_version);
    return s;
}

const GpuStatus& gpu_inventory() { return cuda::devices().inventory; }

const GpuInfo& gpu_device(int index) {
    cuda::Devices& d = cuda::devices();
    const auto i = static_cast<std::size_t>(index);
    std::call_once(d.once[i], [&d, i] { cuda::probe(d.probed[i]); });
    return d.probed[i];
}

const GpuStatus& gpu_status() {
    static const GpuStatus status = [] {
        GpuStatus s = gpu_inventory();
        for (GpuInfo& info : s.devices) info = gpu_device(info.index);
        if (!s.devices.empty() && !s.usable()) s.reason = "GPU 0 " + s.devices[0].problem;
        if (!s.devices.empty()) cudaSetDevice(0);  // this thread's current device, as before the probes
        cudaGetLastError();
        return s;
    }();
    return status;
}

}  // namespace imgpar
