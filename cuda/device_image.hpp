// An image in device memory, for each sample type: pitched rows (each row
// starts 16-byte aligned or better, so kernels can use 16-byte vector loads),
// the same interleaved layout as the host Image<T>; view() is the
// DeviceView<T> kernels and entry points take (src/image.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/check.hpp"
#include "src/image.hpp"

namespace imgpar::cuda {

// Throws imgpar::Error (usage, naming `what`) unless `v` is a valid 8-bit
// device image: a shape imgpar accepts, pixels, and a pitch that holds a row.
void check_device_view(const ConstDeviceViewU8& v, const char* what);

template <typename T>
class DeviceImage {
public:
    DeviceImage() = default;
    // Uninitialised pixels. Throws imgpar::Error (usage) on a bad shape,
    // (device) when the allocation fails.
    DeviceImage(int width, int height, int channels);
    ~DeviceImage();
    DeviceImage(DeviceImage&& o) noexcept;
    DeviceImage& operator=(DeviceImage&& o) noexcept;
    DeviceImage(const DeviceImage&) = delete;
    DeviceImage& operator=(const DeviceImage&) = delete;

    int width() const { return view_.width; }
    int height() const { return view_.height; }
    int channels() const { return view_.channels; }
    std::size_t pitch() const { return view_.pitch; }
    T* data() const { return view_.data; }
    const DeviceView<T>& view() const { return view_; }
    std::size_t row_bytes() const { return view_.row_bytes(); }

    // Asynchronous copies on `stream`; shapes must match.
    void upload(ImageView<const T> src, cudaStream_t stream);
    void download(ImageView<T> dst, cudaStream_t stream) const;
    static DeviceImage from_host(ImageView<const T> src, cudaStream_t stream);

private:
    DeviceView<T> view_;
};

using DeviceImageU8 = DeviceImage<std::uint8_t>;
using DeviceImageU16 = DeviceImage<std::uint16_t>;
using DeviceImageU32 = DeviceImage<std::uint32_t>;
using DeviceImageU64 = DeviceImage<std::uint64_t>;
using DeviceImageF32 = DeviceImage<float>;

}  // namespace imgpar::cuda
