#include "cuda/device_context.hpp"

#include <memory>
#include <mutex>
#include <vector>

#include "src/gpu_runtime.hpp"

namespace imgpar {
namespace cuda {
namespace {

// Launching this proves the binary carries code the device can run.
__global__ void probe_kernel(int* out) {
    if (out) *out = 1;
}

int make_device_current(int device) {
    IMGPAR_CUDA_CHECK(cudaSetDevice(device));
    return device;
}

}  // namespace

DeviceContext::DeviceContext(int device) : device_(make_device_current(device)) {
    IMGPAR_CUDA_CHECK(cudaGetDeviceProperties(&props_, device));
}

DeviceContext& context(int device) {
    static std::mutex mutex;
    static std::unique_ptr<DeviceContext> ctx;
    std::lock_guard<std::mutex> lock(mutex);
    if (!ctx) {
        ctx = std::make_unique<DeviceContext>(device);
    } else if (ctx->device() != device) {
        throw device_error("GPU " + std::to_string(device),
                           "this process already uses GPU " + std::to_string(ctx->device()));
    }
    return *ctx;
}

int co_resident_blocks(const void* kernel, int threads, std::size_t smem_bytes) {
    struct Entry {
        int device;
        const void* kernel;
        int threads;
        std::size_t smem;
        int blocks;
    };
    static std::mutex mutex;
    static std::vector<Entry> cache;
    int device = 0;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    std::lock_guard<std::mutex> lock(mutex);
    for (const Entry& e : cache)
        if (e.device == device && e.kernel == kernel && e.threads == threads && e.smem == smem_bytes) return e.blocks;
    int per_sm = 0, sms = 0;
    IMGPAR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem_bytes));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    cache.push_back({device, kernel, threads, smem_bytes, per_sm * sms});
    return per_sm * sms;
}

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
