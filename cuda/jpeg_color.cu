#include "cuda/jpeg_color.hpp"

#include "cuda/check.hpp"

namespace imgpar::cuda {
namespace {

// One thread per pixel; a 32 x 8 block reads its luma row segments and a
// few chroma rows, all cached: the pass is bound by memory, ~1% of the time
// the hardware spends decoding the same image.
__global__ void planes_to_rgb_kernel(const std::uint8_t* luma, std::size_t luma_pitch, ChromaPlane cb,
                                     ChromaPlane cr, ChromaLayout layout, DeviceViewU8 out) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= out.width || y >= out.height) return;
    const int l = luma[static_cast<std::size_t>(y) * luma_pitch + static_cast<std::size_t>(x)];
    std::uint8_t rgb[3];
    ycbcr_to_rgb(l, upsampled_chroma(cb, layout, x, y), upsampled_chroma(cr, layout, x, y), rgb);
    std::uint8_t* p = out.data + static_cast<std::size_t>(y) * out.pitch + static_cast<std::size_t>(x) * 3;
    p[0] = rgb[0];
    p[1] = rgb[1];
    p[2] = rgb[2];
}

}  // namespace

void jpeg_planes_to_rgb(const std::uint8_t* luma, std::size_t luma_pitch, ChromaPlane cb, ChromaPlane cr,
                        ChromaLayout layout, DeviceViewU8 out, cudaStream_t stream) {
    if (out.width <= 0 || out.height <= 0) return;
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>((out.width + 31) / 32), static_cast<unsigned>((out.height + 7) / 8));
    planes_to_rgb_kernel<<<grid, block, 0, stream>>>(luma, luma_pitch, cb, cr, layout, out);
    IMGPAR_CUDA_CHECK_LAUNCH("planes_to_rgb_kernel");
}

}  // namespace imgpar::cuda
