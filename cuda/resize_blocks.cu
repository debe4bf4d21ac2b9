// Area resize at whole factors on the GPU (cuda/resize_blocks.hpp): each
// output pixel the mean of its fx x fy block, rounded half up by the CPU's
// own divider (src/ops/simd/block_means.hpp), so the samples are
// cpu::resize's. A thread makes one output pixel (all its channels) from
// the block's samples; a warp's 32 neighbouring pixels read 32 fx C
// contiguous samples of each of the block's rows, so the loads coalesce and
// the kernel runs at the speed of reading the input once (the two-pass
// kernels' taps and tables cost twice that at 50%). One kernel for 8- and
// 16-bit samples: 32-bit sums hold 255 fx fy and 65535 fx fy up to
// fx fy = 65536 (the divider's bound); 16-bit blocks beyond that sum in 64
// bits and divide exactly as cpu::resize_blocks does (ExactDivider). 16-bit
// pairs (fx = 2, gray or RGB) read 16 bytes a load (resize_pairs16_kernel).
#include "cuda/resize_blocks.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "cuda/check.hpp"
#include "src/ops/resize_blocks.hpp"
#include "src/ops/resize_math.hpp"
#include "src/ops/simd/block_means.hpp"

namespace imgpar::cuda {

namespace {

// How a block's sum becomes its mean: the CPU's block divider for 32-bit
// sums, the exact 64-bit divider beyond it.
template <typename T, typename Sum>
using BlockDivision = std::conditional_t<sizeof(Sum) == 4, simd::BlockDividerOf<T>, ExactDivider>;

template <typename T>
__device__ __forceinline__ T block_mean(const simd::BlockDividerOf<T>& div, std::uint32_t sum) {
    return div.mean(sum);
}
template <typename T>
__device__ __forceinline__ T block_mean(const ExactDivider& div, std::uint64_t sum) {
    return static_cast<T>(div.round(sum));
}

template <typename T, typename Sum>
struct BlockArgs {
    const T* src;  // the first block's top-left sample
    std::size_t src_pitch;  // bytes
    T* dst;
    std::size_t dst_pitch;  // bytes
    int width, height;  // output pixels
    int fx, fy;
    BlockDivision<T, Sum> div;
};

// kFx, kFy: the factors as constants (2 x 2, the common 50%), or 0 for any.
template <typename T, typename Sum, int C, int kFx, int kFy>
__global__ void __launch_bounds__(ResizeBlocksPolicy::block_x* ResizeBlocksPolicy::block_y)
    resize_blocks_kernel(BlockArgs<T, Sum> a) {
    const int fx = kFx > 0 ? kFx : a.fx, fy = kFy > 0 ? kFy : a.fy;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= a.width) return;
    for (int k = blockIdx.y * blockDim.y + threadIdx.y; k < a.height; k += gridDim.y * blockDim.y) {
        const unsigned char* row =
            reinterpret_cast<const unsigned char*>(a.src) + static_cast<std::size_t>(k) * fy * a.src_pitch;
        const T* p = reinterpret_cast<const T*>(row) + static_cast<std::size_t>(j) * fx * C;
        Sum sum[C];
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) sum[c] = 0;
#pragma unroll(kFy > 0 ? kFy : 1)
        for (int t = 0; t < fy; ++t) {
#pragma unroll(kFx > 0 ? kFx : 1)
            for (int i = 0; i < fx; ++i) {
                IMGPAR_UNROLL
                for (int c = 0; c < C; ++c) sum[c] += __ldg(p + i * C + c);
            }
            p = reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(p) + a.src_pitch);
        }
        T* o = reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(a.dst) + static_cast<std::size_t>(k) * a.dst_pitch) +
               static_cast<std::size_t>(j) * C;
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) o[c] = block_mean<T>(a.div, sum[c]);
    }
}

// 16-bit samples at fx = 2 (the common 50%), one or three channels: a
// thread makes four neighbouring output pixels from C aligned 16-byte loads
// a block row (4 x 2 pixels x C samples), so each warp-wide load is 512
// contiguous bytes; the per-sample loads above ask the L1 for each 2-byte
// sample apart. The last, partial group of four takes the per-sample loads.
// Requires the blocks' first sample and the source pitch 16-byte aligned,
// the output 8-byte aligned (resize_pairs16_fits).
template <int C, int kFy>
__global__ void __launch_bounds__(ResizeBlocksPolicy::block_x* ResizeBlocksPolicy::block_y)
    resize_pairs16_kernel(BlockArgs<std::uint16_t, std::uint32_t> a) {
    constexpr int kLoads = C;  // 16-byte loads a block row: 8 C samples
    const int fy = kFy > 0 ? kFy : a.fy;
    const int j0 = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (j0 >= a.width) return;
    for (int k = blockIdx.y * blockDim.y + threadIdx.y; k < a.height; k += gridDim.y * blockDim.y) {
        const unsigned char* row =
            reinterpret_cast<const unsigned char*>(a.src) + static_cast<std::size_t>(k) * fy * a.src_pitch;
        std::uint16_t* o =
            reinterpret_cast<std::uint16_t*>(reinterpret_cast<unsigned char*>(a.dst) + static_cast<std::size_t>(k) * a.dst_pitch) +
            static_cast<std::size_t>(j0) * C;
        std::uint32_t sum[4 * C];
        IMGPAR_UNROLL
        for (int s = 0; s < 4 * C; ++s) sum[s] = 0;
        if (j0 + 4 <= a.width) {
            const uint4* p = reinterpret_cast<const uint4*>(row) + static_cast<std::size_t>(j0 / 4) * kLoads;
#pragma unroll(kFy > 0 ? kFy : 1)
            for (int t = 0; t < fy; ++t) {
                IMGPAR_UNROLL
                for (int l = 0; l < kLoads; ++l) {
                    const uint4 v = __ldg(p + l);
                    const std::uint32_t words[4] = {v.x, v.y, v.z, v.w};
                    IMGPAR_UNROLL
                    for (int h = 0; h < 8; ++h) {  // sample s of the 8 C: pixel s / C, output s / (2 C)
                        const int s = l * 8 + h;
                        sum[(s / (2 * C)) * C + s % C] += (words[h / 2] >> (16 * (h % 2))) & 0xFFFFu;
                    }
                }
                p = reinterpret_cast<const uint4*>(reinterpret_cast<const unsigned char*>(p) + a.src_pitch);
            }
            IMGPAR_UNROLL
            for (int l = 0; l < C; ++l) {  // 4 C output samples as C 8-byte stores
                uint2 w;
                w.x = a.div.mean(sum[4 * l]) | (static_cast<std::uint32_t>(a.div.mean(sum[4 * l + 1])) << 16);
                w.y = a.div.mean(sum[4 * l + 2]) | (static_cast<std::uint32_t>(a.div.mean(sum[4 * l + 3])) << 16);
                reinterpret_cast<uint2*>(o)[l] = w;
            }
        } else {  // one sum at a time (no run-time index into sum, which would put it in local memory)
            for (int i = 0; j0 + i < a.width; ++i)
                for (int c = 0; c < C; ++c) {
                    const std::uint16_t* p = reinterpret_cast<const std::uint16_t*>(row) + static_cast<std::size_t>(j0 + i) * 2 * C + c;
                    std::uint32_t v = 0;
                    for (int t = 0; t < fy; ++t) {
                        v += __ldg(p) + __ldg(p + C);
                        p = reinterpret_cast<const std::uint16_t*>(reinterpret_cast<const unsigned char*>(p) + a.src_pitch);
                    }
                    o[i * C + c] = a.div.mean(v);
                }
        }
    }
}

bool resize_pairs16_fits(const BlockArgs<std::uint16_t, std::uint32_t>& a, int C) {
    return a.fx == 2 && (C == 1 || C == 3) && reinterpret_cast<std::uintptr_t>(a.src) % 16 == 0 && a.src_pitch % 16 == 0 &&
           reinterpret_cast<std::uintptr_t>(a.dst) % 8 == 0 && a.dst_pitch % 8 == 0;
}

template <int C>
void launch_pairs16(const BlockArgs<std::uint16_t, std::uint32_t>& a, cudaStream_t stream) {
    const ResizeBlocksPolicy policy;
    const dim3 block(policy.block_x, policy.block_y);
    const unsigned gy =
        std::min(policy.max_grid_y, static_cast<unsigned>((a.height + policy.block_y - 1) / policy.block_y));
    const int groups = (a.width + 3) / 4;
    const dim3 grid(static_cast<unsigned>((groups + policy.block_x - 1) / policy.block_x), gy);
    if (a.fy == 2)
        resize_pairs16_kernel<C, 2><<<grid, block, 0, stream>>>(a);
    else
        resize_pairs16_kernel<C, 0><<<grid, block, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("resize_pairs16_kernel");
}

template <typename T, typename Sum, int C>
void launch(const BlockArgs<T, Sum>& a, cudaStream_t stream) {
    if constexpr (std::is_same_v<T, std::uint16_t> && std::is_same_v<Sum, std::uint32_t> && (C == 1 || C == 3)) {
        if (resize_pairs16_fits(a, C)) return launch_pairs16<C>(a, stream);
    }
    const ResizeBlocksPolicy policy;
    const dim3 block(policy.block_x, policy.block_y);
    const unsigned gy =
        std::min(policy.max_grid_y, static_cast<unsigned>((a.height + policy.block_y - 1) / policy.block_y));
    const dim3 grid(static_cast<unsigned>((a.width + policy.block_x - 1) / policy.block_x), gy);
    if (a.fx == 2 && a.fy == 2 && sizeof(Sum) == 4)
        resize_blocks_kernel<T, Sum, C, 2, 2><<<grid, block, 0, stream>>>(a);
    else
        resize_blocks_kernel<T, Sum, C, 0, 0><<<grid, block, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("resize_blocks_kernel");
}

template <typename T, typename Sum>
void launch_for(const ResizePlan& plan, const DeviceView<const T>& src, const DeviceView<T>& dst,
                const BlockDivision<T, Sum>& div, cudaStream_t stream) {
    const int C = src.channels;
    BlockArgs<T, Sum> a{};
    a.src = reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(src.data) +
                                       static_cast<std::size_t>(plan.y.start[0]) * src.pitch) +
            static_cast<std::size_t>(plan.x.start[0]) * C;
    a.src_pitch = src.pitch;
    a.dst = dst.data;
    a.dst_pitch = dst.pitch;
    a.width = plan.x.count;
    a.height = plan.y.count;
    a.fx = plan.x.taps;
    a.fy = plan.y.taps;
    a.div = div;
    switch (C) {
        case 1: launch<T, Sum, 1>(a, stream); break;
        case 2: launch<T, Sum, 2>(a, stream); break;
        case 3: launch<T, Sum, 3>(a, stream); break;
        default: launch<T, Sum, 4>(a, stream); break;
    }
}

// 32-bit sums where the block divider takes the factor (fx fy <= 256 for
// bytes, cpu::resize_takes_blocks's bound; <= 65536 for 16-bit samples),
// 64-bit beyond it.
template <typename T>
bool blocks(const ResizePlan& plan, const DeviceView<const T>& src, const DeviceView<T>& dst, cudaStream_t stream) {
    if (!cpu::resize_takes_blocks(plan, src.channels)) return false;
    const std::int64_t d = static_cast<std::int64_t>(plan.x.taps) * plan.y.taps;
    if (d <= simd::BlockDividerOf<T>::kMaxDivisor)
        launch_for<T, std::uint32_t>(plan, src, dst, simd::BlockDividerOf<T>::of(static_cast<int>(d)), stream);
    else if constexpr (sizeof(T) == 2)
        launch_for<T, std::uint64_t>(plan, src, dst, ExactDivider::of(static_cast<std::uint64_t>(d)), stream);
    else
        throw std::logic_error("resize_blocks: 8-bit blocks beyond the divider's bound");
    return true;
}

}  // namespace

bool resize_blocks(const ResizePlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst,
                   cudaStream_t stream) {
    return blocks(plan, src, dst, stream);
}

bool resize_blocks(const ResizePlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst,
                   cudaStream_t stream) {
    return blocks(plan, src, dst, stream);
}

}  // namespace imgpar::cuda
