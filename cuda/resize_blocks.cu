// Area resize at whole factors on the GPU (cuda/resize_blocks.hpp): each
// output pixel the mean of its fx x fy block, rounded half up by the CPU's
// own divider (src/ops/simd/block_means.hpp), so the bytes are cpu::resize's.
// A thread makes one output pixel (all its channels) from the block's bytes;
// a warp's 32 neighbouring pixels read 32 fx C contiguous bytes of each of
// the block's rows, so the loads coalesce and the kernel runs at the speed
// of reading the input once (the two-pass kernels' taps and tables cost
// twice that at 50%).
#include "cuda/resize_blocks.hpp"

#include <algorithm>

#include "cuda/check.hpp"
#include "src/ops/resize_blocks.hpp"
#include "src/ops/simd/block_means.hpp"

namespace imgpar::cuda {

namespace {

struct BlockArgs {
    const std::uint8_t* src;  // the first block's top-left byte
    std::size_t src_pitch;
    std::uint8_t* dst;
    std::size_t dst_pitch;
    int width, height;  // output pixels
    int fx, fy;
    simd::BlockDivider div;
};

// kFx, kFy: the factors as constants (2 x 2, the common 50%), or 0 for any.
template <int C, int kFx, int kFy>
__global__ void __launch_bounds__(ResizeBlocksPolicy::block_x* ResizeBlocksPolicy::block_y)
    resize_blocks_kernel(BlockArgs a) {
    const int fx = kFx > 0 ? kFx : a.fx, fy = kFy > 0 ? kFy : a.fy;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= a.width) return;
    for (int k = blockIdx.y * blockDim.y + threadIdx.y; k < a.height; k += gridDim.y * blockDim.y) {
        const std::uint8_t* p = a.src + static_cast<std::size_t>(k) * fy * a.src_pitch + static_cast<std::size_t>(j) * fx * C;
        std::uint32_t sum[C];
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) sum[c] = 0;
#pragma unroll(kFy > 0 ? kFy : 1)
        for (int t = 0; t < fy; ++t, p += a.src_pitch) {
#pragma unroll(kFx > 0 ? kFx : 1)
            for (int i = 0; i < fx; ++i) {
                IMGPAR_UNROLL
                for (int c = 0; c < C; ++c) sum[c] += __ldg(p + i * C + c);
            }
        }
        std::uint8_t* o = a.dst + static_cast<std::size_t>(k) * a.dst_pitch + static_cast<std::size_t>(j) * C;
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) o[c] = a.div.mean(sum[c]);
    }
}

template <int C>
void launch(const BlockArgs& a, cudaStream_t stream) {
    const ResizeBlocksPolicy policy;
    const dim3 block(policy.block_x, policy.block_y);
    const unsigned gy =
        std::min(policy.max_grid_y, static_cast<unsigned>((a.height + policy.block_y - 1) / policy.block_y));
    const dim3 grid(static_cast<unsigned>((a.width + policy.block_x - 1) / policy.block_x), gy);
    if (a.fx == 2 && a.fy == 2)
        resize_blocks_kernel<C, 2, 2><<<grid, block, 0, stream>>>(a);
    else
        resize_blocks_kernel<C, 0, 0><<<grid, block, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("resize_blocks_kernel");
}

}  // namespace

bool resize_blocks(const ResizePlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst,
                   cudaStream_t stream) {
    const int C = src.channels;
    if (!cpu::resize_takes_blocks(plan, C)) return false;
    BlockArgs a{};
    a.src = src.data + static_cast<std::size_t>(plan.y.start[0]) * src.pitch + static_cast<std::size_t>(plan.x.start[0]) * C;
    a.src_pitch = src.pitch;
    a.dst = dst.data;
    a.dst_pitch = dst.pitch;
    a.width = plan.x.count;
    a.height = plan.y.count;
    a.fx = plan.x.taps;
    a.fy = plan.y.taps;
    a.div = simd::BlockDivider::of(a.fx * a.fy);
    switch (C) {
        case 1: launch<1>(a, stream); break;
        case 2: launch<2>(a, stream); break;
        case 3: launch<3>(a, stream); break;
        default: launch<4>(a, stream); break;
    }
    return true;
}

}  // namespace imgpar::cuda
