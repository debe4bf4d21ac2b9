// What the GPU histogram suites share: a histogram comparison that says
// where two differ, and device images at an odd address with an odd pitch.
#pragma once

#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "src/image.hpp"
#include "src/ops/histogram.hpp"

namespace imgpar::test {

// "" when equal, else the first difference in words.
inline std::string first_difference(const Histogram& a, const Histogram& b) {
    if (a.channels != b.channels || a.luma != b.luma || a.pixels != b.pixels)
        return "shape differs: channels " + std::to_string(a.channels) + "/" + std::to_string(b.channels) + " luma " +
               std::to_string(a.luma) + "/" + std::to_string(b.luma) + " pixels " + std::to_string(a.pixels) + "/" +
               std::to_string(b.pixels);
    for (int p = 0; p < a.planes(); ++p)
        for (int v = 0; v < 256; ++v)
            if (a.counts[p][v] != b.counts[p][v])
                return "plane " + a.plane_name(p) + " value " + std::to_string(v) + ": cpu " +
                       std::to_string(a.counts[p][v]) + ", gpu " + std::to_string(b.counts[p][v]);
    return "";
}

}  // namespace imgpar::test

#define CHECK_HISTOGRAMS_EQUAL(cpu_h, gpu_h)                          \
    do {                                                              \
        const std::string d_ = ::imgpar::test::first_difference((cpu_h), (gpu_h)); \
        CHECK_MESSAGE(d_.empty(), d_);                                \
    } while (0)

namespace imgpar::test {

// A device image at an odd address with an odd pitch: forces the byte path.
struct UnalignedDeviceImage {
    cuda::DeviceBuffer<std::uint8_t> buffer;
    DeviceViewU8 ref;
    UnalignedDeviceImage(int w, int h, int c, cudaStream_t s, const ImageU8* src = nullptr) {
        const std::size_t pitch = static_cast<std::size_t>(w) * c + 3;
        buffer.reserve(pitch * static_cast<std::size_t>(h) + 16);
        IMGPAR_CUDA_CHECK(cudaMemsetAsync(buffer.get(), 0xEE, buffer.bytes(), s));
        ref = {buffer.get() + 1, w, h, c, pitch};
        if (src)
            IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(ref.data, ref.pitch, src->data(), src->stride(), src->row_bytes(),
                                                static_cast<std::size_t>(h), cudaMemcpyHostToDevice, s));
    }
    ImageU8 download(cudaStream_t s) const {
        ImageU8 out(ref.width, ref.height, ref.channels);
        IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(out.data(), out.stride(), ref.data, ref.pitch, out.row_bytes(),
                                            static_cast<std::size_t>(ref.height), cudaMemcpyDeviceToHost, s));
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
        return out;
    }
};

}  // namespace imgpar::test
