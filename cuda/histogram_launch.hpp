// What the histogram-family kernels receive, and the host-side checks and
// launch-shape helpers their dispatch code shares.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"

namespace imgpar::cuda::hist {

constexpr int kChunkPixels = 16;

// The chunk walk over an image (see cuda/histogram_block.cuh).
struct ChunkGrid {
    int width = 0;
    unsigned chunks_per_row = 0;
    unsigned total = 0;  // height * chunks_per_row, below 2^31
};

struct SweepArgs {
    const std::uint8_t* data = nullptr;
    std::size_t pitch = 0;
    ChunkGrid grid;
    bool vec = false;  // 16-byte accesses allowed
    unsigned long long* out = nullptr;
};

struct ApplyArgs {
    const std::uint8_t* src = nullptr;
    std::size_t src_pitch = 0;
    std::uint8_t* dst = nullptr;
    std::size_t dst_pitch = 0;
    ChunkGrid grid;
    bool vec = false;  // 16-byte accesses allowed on both images
};

// Throws imgpar::Error (usage) unless `ref` is a plausible device image:
// non-null, 1-4 channels, positive size, pitch >= row bytes, and small enough
// that its chunks fit 31 bits (about 34 gigapixels).
void check_device_image(const ConstDeviceViewU8& ref, const char* what);

ChunkGrid chunk_grid(const ConstDeviceViewU8& ref);

// Checks the image and the counts buffer, zeroes the planes' counts on
// `stream` and returns the sweep's arguments.
SweepArgs sweep_args(const ConstDeviceViewU8& image, HistogramPlanes planes, unsigned long long* d_counts,
                     const char* what, cudaStream_t stream);

// Rows start 16-byte aligned and the pitch keeps them so.
inline bool vector_ok(const void* data, std::size_t pitch) {
    return reinterpret_cast<std::uintptr_t>(data) % 16 == 0 && pitch % 16 == 0;
}


}  // namespace imgpar::cuda::hist
