#include "cuda/device_image.hpp"

#include <utility>

namespace imgpar::cuda {

DeviceImage::DeviceImage(int width, int height, int channels) {
    check_image_shape(width, height, channels);
    void* p = nullptr;
    std::size_t pitch = 0;
    std::size_t row = static_cast<std::size_t>(width) * channels;
    cudaError_t status = cudaMallocPitch(&p, &pitch, row, static_cast<std::size_t>(height));
    if (status != cudaSuccess)
        throw device_error("CUDA", "cannot allocate a " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                                       std::to_string(channels) + " device image: " + cudaGetErrorString(status));
    ref_ = {static_cast<std::uint8_t*>(p), width, height, channels, pitch};
}

DeviceImage::~DeviceImage() {
    if (ref_.data) cudaFree(ref_.data);
}

DeviceImage::DeviceImage(DeviceImage&& o) noexcept : ref_(std::exchange(o.ref_, DeviceImageRef{})) {}

DeviceImage& DeviceImage::operator=(DeviceImage&& o) noexcept {
    std::swap(ref_, o.ref_);
    return *this;
}

void DeviceImage::upload(ConstImageView src, cudaStream_t stream) {
    if (src.width != width() || src.height != height() || src.channels != channels())
        throw usage_error("DeviceImage::upload", "host and device images differ in shape");
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(ref_.data, ref_.pitch, src.data, src.stride, row_bytes(),
                                        static_cast<std::size_t>(height()), cudaMemcpyHostToDevice, stream));
}

void DeviceImage::download(ImageView dst, cudaStream_t stream) const {
    if (dst.width != width() || dst.height != height() || dst.channels != channels())
        throw usage_error("DeviceImage::download", "host and device images differ in shape");
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.stride, ref_.data, ref_.pitch, row_bytes(),
                                        static_cast<std::size_t>(height()), cudaMemcpyDeviceToHost, stream));
}

DeviceImage DeviceImage::from_host(ConstImageView src, cudaStream_t stream) {
    DeviceImage img(src.width, src.height, src.channels);
    img.upload(src, stream);
    return img;
}

}  // namespace imgpar::cuda
