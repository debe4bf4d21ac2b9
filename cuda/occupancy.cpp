#include "cuda/occupancy.hpp"

#include <cuda_runtime.h>

#include <mutex>
#include <vector>

#include "cuda/check.hpp"

namespace imgpar::cuda {

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

}  // namespace imgpar::cuda
