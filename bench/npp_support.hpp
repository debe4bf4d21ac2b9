// What every NPP peer needs: a stream context for NPP's _Ctx entry points
// (CUDA 13 has no other form) and a status check.
#pragma once

#if IMGPAR_HAVE_NPP
#include <cuda_runtime.h>
#include <npp.h>

#include <cstddef>
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

template <typename T>
struct Same {
    using type = T;
};

// The buffer-size query's size argument is int in older NPP and size_t in
// newer releases; deducing it from the function keeps both building (the
// other arguments take their types from the function only).
template <typename Size, typename Levels>
std::size_t buffer_size(NppStatus (*query)(NppiSize, Levels, Size*, NppStreamContext), NppiSize roi,
                        typename Same<Levels>::type levels, NppStreamContext ctx) {
    Size bytes = 0;
    check_npp(query(roi, levels, &bytes, ctx), "nppiHistogramEvenGetBufferSize");
    return static_cast<std::size_t>(bytes);
}

}  // namespace imgpar::bench
#endif
