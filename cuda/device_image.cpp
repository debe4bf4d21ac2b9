#include "cuda/device_image.hpp"

#include <string>
#include <utility>

namespace imgpar::cuda {

void check_device_view(const ConstDeviceViewU8& v, const char* what) {
    check_image_shape(v.width, v.height, v.channels);
    if (!v.data) throw usage_error(what, "the device image has no pixels (null pointer)");
    const std::size_t row = static_cast<std::size_t>(v.width) * v.channels;
    if (v.pitch < row)
        throw usage_error(what, "the device image's pitch " + std::to_string(v.pitch) + " is below its row size " +
                                    std::to_string(row));
}

template <typename T>
DeviceImage<T>::DeviceImage(int width, int height, int channels) {
    check_image_shape(width, height, channels);
    void* p = nullptr;
    std::size_t pitch = 0;
    const std::size_t row = static_cast<std::size_t>(width) * channels * sizeof(T);
    const cudaError_t status = cudaMallocPitch(&p, &pitch, row, static_cast<std::size_t>(height));
    if (status != cudaSuccess)
        throw device_error("CUDA", "cannot allocate a " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                                       std::to_string(channels) + " " + sample_type_name(sample_type_of<T>) +
                                       " device image: " + cudaGetErrorString(status));
    view_ = {static_cast<T*>(p), width, height, channels, pitch};
}

template <typename T>
DeviceImage<T>::~DeviceImage() {
    if (view_.data) cudaFree(view_.data);
}

template <typename T>
DeviceImage<T>::DeviceImage(DeviceImage&& o) noexcept : view_(std::exchange(o.view_, DeviceView<T>{})) {}

template <typename T>
DeviceImage<T>& DeviceImage<T>::operator=(DeviceImage&& o) noexcept {
    std::swap(view_, o.view_);
    return *this;
}

template <typename T>
void DeviceImage<T>::upload(ImageView<const T> src, cudaStream_t stream) {
    if (src.width != width() || src.height != height() || src.channels != channels())
        throw usage_error("DeviceImage::upload", "host and device images differ in shape");
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(view_.data, view_.pitch, src.data, src.stride, row_bytes(),
                                        static_cast<std::size_t>(height()), cudaMemcpyHostToDevice, stream));
}

template <typename T>
void DeviceImage<T>::download(ImageView<T> dst, cudaStream_t stream) const {
    if (dst.width != width() || dst.height != height() || dst.channels != channels())
        throw usage_error("DeviceImage::download", "host and device images differ in shape");
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.stride, view_.data, view_.pitch, row_bytes(),
                                        static_cast<std::size_t>(height()), cudaMemcpyDeviceToHost, stream));
}

template <typename T>
DeviceImage<T> DeviceImage<T>::from_host(ImageView<const T> src, cudaStream_t stream) {
    DeviceImage img(src.width, src.height, src.channels);
    img.upload(src, stream);
    return img;
}

template class DeviceImage<std::uint8_t>;
template class DeviceImage<std::uint16_t>;
template class DeviceImage<std::uint32_t>;
template class DeviceImage<std::uint64_t>;
template class DeviceImage<float>;

}  // namespace imgpar::cuda
