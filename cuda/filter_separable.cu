// Gaussian blur and unsharp mask, the plain way: one thread per pixel, the
// horizontal pass into a 16-bit scratch image, then the vertical pass and the
// epilogue. Kept as the fallback where the tensor-core kernel cannot run and
// as an independent cross-check of it (tests compare both with the CPU).

#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

constexpr int kMaxTaps = 2 * kMaxGaussianRadius + 1;

struct SepSimpleArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    SepMode mode;
    UnsharpArg unsharp;
    std::uint16_t* tmp;      // H, interleaved like the source
    std::size_t tmp_pitch;   // elements per row
    int radius;
    int taps[kMaxTaps];
};

// Launch policy (reasoning): 32x8 threads, one pixel each, so a warp reads a
// 32-pixel row run; rows loop when the grid would be taller than CUDA allows.
// This is the fallback and cross-check, not the fast path.
struct SeparableSimplePolicy {
    static constexpr int kBlockX = 32;
    static constexpr int kBlockY = 8;
};
constexpr int kBlockX = SeparableSimplePolicy::kBlockX;
constexpr int kBlockY = SeparableSimplePolicy::kBlockY;

template <int C>
__global__ void __launch_bounds__(kBlockX* kBlockY) separable_simple_h(const __grid_constant__ SepSimpleArgs a) {
    const int x = blockIdx.x * kBlockX + threadIdx.x;
    if (x >= a.src.width) return;
    for (int y = blockIdx.y * kBlockY + threadIdx.y; y < a.src.height; y += gridDim.y * kBlockY) {
        int acc[C];
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] = 0;
        for (int i = 0; i <= 2 * a.radius; ++i) {
            int v[C];
            fetch_pixel<C>(a.src, a.border, x + i - a.radius, y, v);
#pragma unroll
            for (int c = 0; c < C; ++c) acc[c] += a.taps[i] * v[c];
        }
        std::uint16_t* out = a.tmp + static_cast<std::size_t>(y) * a.tmp_pitch + static_cast<std::size_t>(x) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) out[c] = static_cast<std::uint16_t>(gaussian_h_round(acc[c]));
    }
}

template <int C>
__global__ void __launch_bounds__(kBlockX* kBlockY) separable_simple_v(const __grid_constant__ SepSimpleArgs a) {
    const int x = blockIdx.x * kBlockX + threadIdx.x;
    if (x >= a.src.width) return;
    for (int y = blockIdx.y * kBlockY + threadIdx.y; y < a.src.height; y += gridDim.y * kBlockY) {
        int acc[C];
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] = 0;
        for (int j = 0; j <= 2 * a.radius; ++j) {
            const int yy = border_index(y + j - a.radius, a.src.height, a.border.mode);
            const std::uint16_t* h =
                a.tmp + static_cast<std::size_t>(yy < 0 ? 0 : yy) * a.tmp_pitch + static_cast<std::size_t>(x) * C;
#pragma unroll
            for (int c = 0; c < C; ++c) {
                const int hv = yy < 0 ? gaussian_h_constant(a.border.constant[c]) : static_cast<int>(h[c]);
                acc[c] += a.taps[j] * hv;
            }
        }
        int s[C];
        load_pixel_raw<C>(a.src, x, y, s);
        int blur[C];
#pragma unroll
        for (int c = 0; c < C; ++c) blur[c] = gaussian_v_round(acc[c]);
        std::uint8_t* out = row_ptr(a.dst, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
        for (int c = 0; c < C; ++c)
            out[c] = static_cast<std::uint8_t>(
                separable_output(a.mode, a.unsharp, blur[c], s[c], blur[C - 1], s[C - 1], has_alpha(C) && c == C - 1));
    }
}

template <int C>
void launch(const SepSimpleArgs& a, cudaStream_t stream) {
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(static_cast<unsigned>(ceil_div(a.src.width, kBlockX)),
                    static_cast<unsigned>(std::min(ceil_div(a.src.height, kBlockY), 65535)));
    separable_simple_h<C><<<grid, block, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("separable_simple_h");
    separable_simple_v<C><<<grid, block, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("separable_simple_v");
}

}  // namespace

std::size_t separable_simple_scratch_bytes(int width, int height, int channels) {
    const std::size_t pitch = round_up(static_cast<std::size_t>(width) * channels, 128);  // elements
    return pitch * static_cast<std::size_t>(height) * sizeof(std::uint16_t);
}

void launch_separable_simple(const FilterCall& call) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    SepSimpleArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan, src.channels);
    a.mode = separable_mode(plan, src.channels);
    a.unsharp = {plan.amount_q8, plan.threshold_level};
    a.tmp = reinterpret_cast<std::uint16_t*>(call.scratch);
    a.tmp_pitch = round_up(static_cast<std::size_t>(src.width) * src.channels, 128);
    a.radius = plan.radius;
    for (int i = 0; i <= 2 * plan.radius; ++i) a.taps[i] = plan.taps[static_cast<std::size_t>(i)];
    switch (src.channels) {
        case 1: launch<1>(a, call.stream); break;
        case 2: launch<2>(a, call.stream); break;
        case 3: launch<3>(a, call.stream); break;
        default: launch<4>(a, call.stream); break;
    }
}

}  // namespace imgpar::cuda::filter_detail
