// What every NPP peer needs: a stream context for NPP's _Ctx entry points
// (CUDA 13 has no other form) and a status check.
#pragma once

#if IMGPAR_HAVE_NPP
#include <cuda_runtime.h>
#include <npp.h>

#include <string>

#include "cuda/check.hpp"
#include "src/error.hpp"

namespace imgpar::bench {

// The stream and the device's facts, filled from the runtime.
inline NppStreamContext npp_stream_context(cudaStream_t stream) {
    NppStreamContext c{};
    int device = 0;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp p{};
    IMGPAR_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    c.hStream = stream;
    c.nCudaDeviceId = device;
    c.nMultiProcessorCount = p.multiProcessorCount;
    c.nMaxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
    c.nMaxThreadsPerBlock = p.maxThreadsPerBlock;
    c.nSharedMemPerBlock = p.sharedMemPerBlock;
    c.nCudaDevAttrComputeCapabilityMajor = p.major;
    c.nCudaDevAttrComputeCapabilityMinor = p.minor;
    IMGPAR_CUDA_CHECK(cudaStreamGetFlags(stream, &c.nStreamFlags));
    return c;
}

inline void check_npp(NppStatus status, const std::string& call) {
    if (status != NPP_SUCCESS) throw device_error("NPP", call + " returned status " + std::to_string(status));
}

}  // namespace imgpar::bench
#endif
