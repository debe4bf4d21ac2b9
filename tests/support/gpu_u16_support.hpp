// What the 16-bit GPU suites share: 16-bit images in the session's slots
// (256-byte rows: the 16-byte load paths) and at an address and pitch that
// are 2-byte but not 16-byte aligned (the scalar paths).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "src/gpu/session.hpp"
#include "src/image.hpp"
#include "tests/support/gpu_session.hpp"

namespace imgpar::test {

// `img` uploaded to the session's `slot`.
inline DeviceViewU16 upload16(const ImageU16& img, gpu::Session::Slot slot = gpu::Session::Slot::Input) {
    gpu::Session& s = session();
    const DeviceViewU16 d = s.image<std::uint16_t>(slot, img.width(), img.height(), img.channels());
    s.upload(img.view(), d);
    return d;
}

// A 16-bit device image 2 bytes past a 16-byte boundary, rows one sample
// longer than they need: every 16-byte path is refused.
struct UnalignedDeviceImage16 {
    cuda::DeviceBuffer<std::uint8_t> buffer;
    DeviceViewU16 ref;
    UnalignedDeviceImage16(const ImageU16& src, cudaStream_t s) {
        const int w = src.width(), h = src.height(), c = src.channels();
        const std::size_t pitch = static_cast<std::size_t>(w) * c * 2 + 2;
        buffer.reserve(pitch * static_cast<std::size_t>(h) + 16);
        IMGPAR_CUDA_CHECK(cudaMemsetAsync(buffer.get(), 0xEE, buffer.bytes(), s));
        ref = {reinterpret_cast<std::uint16_t*>(buffer.get() + 2), w, h, c, pitch};
        IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(ref.data, ref.pitch, src.data(), src.stride(), src.row_bytes(),
                                            static_cast<std::size_t>(h), cudaMemcpyHostToDevice, s));
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
    }
};

}  // namespace imgpar::test
