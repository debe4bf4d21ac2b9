// Custom kernels (up to 63x63) on FP32 CUDA cores: the path for plans the
// FP16 tensor-core kernel (cuda/filter_2d_half.cu) cannot take, and its
// cross-check in the tests. Classic input-tile design: a block loads its output
// tile plus the kernel footprint into shared memory once (border rule
// applied on load, so the inner loops are plain), then each thread computes
// its outputs from shared memory. Gray and RGB images (images with alpha run
// cuda/filter_wide.cu).
//
// Custom kernels: coefficients arrive as a kernel parameter struct (read
// through the constant cache, the same value for the whole warp), rows padded
// with zeros to a multiple of 4 so each thread reads 8 adjacent samples per
// channel with two 16-byte shared loads and applies 4 coefficients to 4
// pixels of up to 4 output rows. Samples and
// coefficients are integer-valued floats and every partial sum is below 2^24
// (sum |coefficient| <= 65535), so FP32 FMA gives the exact integer S.

#include <algorithm>
#include <cmath>

#include "cuda/check.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "src/error.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

// --- custom kernels ---------------------------------------------------------

constexpr int kMaxPaddedSide = 64;  // 63 rounded up to a multiple of 4
struct CustomWeights {
    float w[kMaxKernelSide * kMaxPaddedSide];  // kh rows of kwp values
};

// Launch policy. Chosen by reasoning, not yet by measurement (imgpar_bench
// --only custom):
//  - each thread computes 4 rows x 4 pixels: a window of shared samples loaded
//    once serves every output row it falls under (up to 16 FMAs per loaded
//    value), so the loop is FMA-bound rather than shared-load-bound;
//  - tiles 64 pixels wide (16 threads) and tile_h rows (tile_h / 4 threads),
//    tile_h the tallest of 64..4 whose shared tile (C planes of
//    (tile_h + kh - 1) x (64 + kwp) floats) fits in ~110 KB so two blocks
//    share an SM; kernels too large for that take the tallest tile the device
//    fits (their kw*kh FMAs per sample dwarf the halo either way).
struct CustomPolicy {
    static constexpr int kRows = 4;
    static constexpr int kTileW = 64;
    static constexpr int kMaxTileH = 64;
    static constexpr std::size_t kSmemBudget = 110 * 1024;
};
constexpr int kRows = CustomPolicy::kRows;
constexpr int kTileW = CustomPolicy::kTileW;

struct CustomArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int kw, kh, kwp;  // kernel size; kwp = kw rounded up to a multiple of 4
    int ax, ay;       // anchor
    double denominator;
    double offset;
    int tile_h;   // output rows per block (multiple of kRows)
    int sm_row;   // floats per shared row: kTileW + kwp
    int sm_rows;  // tile_h + kh - 1
};

template <int C>
__global__ void __launch_bounds__(256) custom_kernel(const __grid_constant__ CustomArgs a,
                                                     const __grid_constant__ CustomWeights wt) {
    extern __shared__ __align__(16) float planes[];  // C planes of sm_rows x sm_row samples
    constexpr int tpr = kTileW / 4;
    const int tx = static_cast<int>(threadIdx.x) % tpr;
    const int ty = static_cast<int>(threadIdx.x) / tpr;
    const int ox = blockIdx.x * kTileW;
    const int oy = blockIdx.y * a.tile_h;
    const int plane = a.sm_rows * a.sm_row;

    for (int i = threadIdx.x; i < plane; i += blockDim.x) {
        const int ry = i / a.sm_row;
        const int rx = i - ry * a.sm_row;
        int v[C];
        fetch_pixel<C>(a.src, a.border, ox - a.ax + rx, oy - a.ay + ry, v);
#pragma unroll
        for (int c = 0; c < C; ++c) planes[c * plane + i] = static_cast<float>(v[c]);
    }
    __syncthreads();

    float acc[kRows][C][4];
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
        for (int c = 0; c < C; ++c) acc[r][c][0] = acc[r][c][1] = acc[r][c][2] = acc[r][c][3] = 0.0f;
    // Shared row `in` (relative to this thread's first output row) feeds
    // output row r through kernel row in - r.
    const float* base = planes + ty * kRows * a.sm_row + 4 * tx;
    for (int in = 0; in < kRows + a.kh - 1; ++in) {
        const float* rowp = base + in * a.sm_row;
        for (int i0 = 0; i0 < a.kwp; i0 += 4) {
            float win[C][8];
#pragma unroll
            for (int c = 0; c < C; ++c) {
                const float4 lo = *reinterpret_cast<const float4*>(rowp + c * plane + i0);
                const float4 hi = *reinterpret_cast<const float4*>(rowp + c * plane + i0 + 4);
                win[c][0] = lo.x, win[c][1] = lo.y, win[c][2] = lo.z, win[c][3] = lo.w;
                win[c][4] = hi.x, win[c][5] = hi.y, win[c][6] = hi.z, win[c][7] = hi.w;
            }
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                const int j = in - r;  // the same for the whole block: no divergence
                if (j < 0 || j >= a.kh) continue;
                const float* w = wt.w + j * a.kwp + i0;
                const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
#pragma unroll
                for (int c = 0; c < C; ++c) {
#pragma unroll
                    for (int q = 0; q < 4; ++q) {
                        float s = acc[r][c][q];
                        s = fmaf(w0, win[c][q], s);
                        s = fmaf(w1, win[c][q + 1], s);
                        s = fmaf(w2, win[c][q + 2], s);
                        s = fmaf(w3, win[c][q + 3], s);
                        acc[r][c][q] = s;
                    }
                }
            }
        }
    }

#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        const int y = oy + ty * kRows + r;
        if (y >= a.src.height) break;
        std::uint8_t* out = row_ptr(a.dst, y);
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int x = ox + 4 * tx + q;
            if (x >= a.src.width) break;
            int v[C];
#pragma unroll
            for (int c = 0; c < C; ++c) v[c] = custom_output(__float2int_rn(acc[r][c][q]), a.denominator, a.offset);
            std::uint8_t* px = out + static_cast<std::size_t>(x) * C;
#pragma unroll
            for (int c = 0; c < C; ++c) px[c] = static_cast<std::uint8_t>(v[c]);
        }
    }
}

template <int C>
void launch_custom_channels(CustomArgs a, const CustomWeights& wt, cudaStream_t stream, const DeviceLimits& dev) {
    auto smem_for = [&](int tile_h) {
        return static_cast<std::size_t>(C) * static_cast<std::size_t>(tile_h + a.kh - 1) *
               static_cast<std::size_t>(kTileW + a.kwp) * sizeof(float);
    };
    const std::size_t budget = std::min(CustomPolicy::kSmemBudget, static_cast<std::size_t>(dev.max_smem_optin));
    int tile_h = CustomPolicy::kMaxTileH;
    while (tile_h > kRows && smem_for(tile_h) > budget) tile_h /= 2;
    if (smem_for(tile_h) > budget) {
        tile_h = CustomPolicy::kMaxTileH;
        while (tile_h > kRows && smem_for(tile_h) > static_cast<std::size_t>(dev.max_smem_optin)) tile_h /= 2;
    }
    const std::size_t smem = smem_for(tile_h);
    if (smem > static_cast<std::size_t>(dev.max_smem_optin))
        throw device_error("custom filter", "the kernel needs more shared memory than this GPU has");
    a.tile_h = tile_h;
    a.sm_row = kTileW + a.kwp;
    a.sm_rows = tile_h + a.kh - 1;
    allow_dynamic_smem(reinterpret_cast<const void*>(&custom_kernel<C>), smem);
    const int threads = (kTileW / 4) * (tile_h / kRows);
    const dim3 grid(static_cast<unsigned>(ceil_div(a.src.width, kTileW)),
                    static_cast<unsigned>(ceil_div(a.src.height, tile_h)));
    if (grid.y > 65535u) throw usage_error("custom filter", "the image is too tall for this GPU kernel");
    custom_kernel<C><<<grid, threads, smem, stream>>>(a, wt);
    IMGPAR_CUDA_CHECK_LAUNCH("custom_kernel");
}

}  // namespace

void launch_custom(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    CustomArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan);
    a.kw = plan.kernel_width;
    a.kh = plan.kernel_height;
    a.kwp = static_cast<int>(round_up(static_cast<std::size_t>(plan.kernel_width), 4));
    a.ax = plan.anchor_x;
    a.ay = plan.anchor_y;
    a.denominator = plan.scale * std::ldexp(1.0, plan.frac_bits);
    a.offset = plan.offset;
    CustomWeights wt{};
    for (int j = 0; j < a.kh; ++j)
        for (int i = 0; i < a.kw; ++i)
            wt.w[j * a.kwp + i] = static_cast<float>(plan.coeffs[static_cast<std::size_t>(j) * a.kw + i]);
    switch (src.channels) {
        case 1: launch_custom_channels<1>(a, wt, call.stream, dev); break;
        case 3: launch_custom_channels<3>(a, wt, call.stream, dev); break;
        default: throw_not_gray_or_rgb("custom filter", src.channels);
    }
}

}  // namespace imgpar::cuda::filter_detail
