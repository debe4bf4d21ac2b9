// The per-process GPU context: chosen device, its properties and the stream
// imgpar's work runs on. Created once, on first use, by backend selection.
#pragma once

#include <cuda_runtime.h>

#include "cuda/buffers.hpp"

namespace imgpar::cuda {

class DeviceContext {
public:
    // Makes `device` current and creates the context's stream. Throws
    // imgpar::Error (device) when the device cannot be used.
    explicit DeviceContext(int device);
    int device() const { return device_; }
    const cudaDeviceProp& properties() const { return props_; }
    cudaStream_t stream() const { return stream_.get(); }
    void synchronize() const { stream_.synchronize(); }

private:
    int device_;
    cudaDeviceProp props_{};
    Stream stream_;
};

// The process's context for `device`. The first call creates it; a later call
// with another device index is an error (imgpar uses one GPU per process).
DeviceContext& context(int device = 0);

}  // namespace imgpar::cuda
