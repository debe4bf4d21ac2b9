// The per-process GPU context: chosen device, its properties and the stream
// imgpar's work runs on. Created once, on first use, by backend selection.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

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

// How many blocks of `kernel` (threads, dynamic shared bytes) the current
// device runs at once; cached per (device, kernel, shape), as launchers ask
// on every call. A kernel that needs more than 48 KB of dynamic shared
// memory must have been allowed it first.
int co_resident_blocks(const void* kernel, int threads, std::size_t smem_bytes);

}  // namespace imgpar::cuda
