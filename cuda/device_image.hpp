// An image in device memory: pitched rows (each row starts 16-byte aligned or
// better, so kernels can use 16-byte vector loads), same layout as Image.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/check.hpp"
#include "src/image.hpp"

namespace imgpar::cuda {

// What a kernel needs to address an 8-bit device image.
struct DeviceImageRef {
    std::uint8_t* data = nullptr;
    int width = 0;
    int height = 0;
    int channels = 0;
    std::size_t pitch = 0;  // bytes between row starts
};

class DeviceImage {
public:
    DeviceImage() = default;
    DeviceImage(int width, int height, int channels);
    ~DeviceImage();
    DeviceImage(DeviceImage&& o) noexcept;
    DeviceImage& operator=(DeviceImage&& o) noexcept;
    DeviceImage(const DeviceImage&) = delete;
    DeviceImage& operator=(const DeviceImage&) = delete;

    int width() const { return ref_.width; }
    int height() const { return ref_.height; }
    int channels() const { return ref_.channels; }
    std::size_t pitch() const { return ref_.pitch; }
    std::uint8_t* data() const { return ref_.data; }
    const DeviceImageRef& ref() const { return ref_; }
    std::size_t row_bytes() const { return static_cast<std::size_t>(ref_.width) * ref_.channels; }

    void upload(ConstImageView src, cudaStream_t stream);
    void download(ImageView dst, cudaStream_t stream) const;
    static DeviceImage from_host(ConstImageView src, cudaStream_t stream);

private:
    DeviceImageRef ref_;
};

}  // namespace imgpar::cuda
