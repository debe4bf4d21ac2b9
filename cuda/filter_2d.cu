// Non-separable filters on 2-D tiles: custom kernels (up to 63x63) and the
// 3x3 edge operators. Classic input-tile design: a block loads its output
// tile plus the kernel footprint into shared memory once (border rule and
// premultiplication applied on load, so the inner loops are plain), then
// each thread computes its outputs from shared memory.
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
            if constexpr (C == 2 || C == 4) {
#pragma unroll
                for (int c = 0; c < C - 1; ++c) v[c] = unpremultiply(v[c], v[C - 1]);
            }
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

// --- edge operators -------------------------------------------------------------

struct EdgesArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int op;  // EdgeOperator
};

// Launch policy (reasoning): 32x8 pixels, one per thread; the tile plus its
// 1-pixel ring is 34x10 (25% halo), and the work per pixel is tiny, so this
// is a memory-bound pass whose only job is to read every input byte about once.
struct EdgesPolicy {
    static constexpr int kTileW = 32;
    static constexpr int kTileH = 8;
};
constexpr int kEdgeW = EdgesPolicy::kTileW;
constexpr int kEdgeH = EdgesPolicy::kTileH;

template <int C, bool kGray>
__global__ void __launch_bounds__(kEdgeW* kEdgeH) edges_kernel(const __grid_constant__ EdgesArgs a) {
    constexpr bool kAlpha = C == 2 || C == 4;
    constexpr int P = kGray ? 1 : (kAlpha ? C - 1 : C);  // planes filtered
    __shared__ int tile[P][kEdgeH + 2][kEdgeW + 2];
    const int ox = blockIdx.x * kEdgeW;
    const int oy = blockIdx.y * kEdgeH;
    const int tid = threadIdx.y * kEdgeW + threadIdx.x;
    for (int i = tid; i < (kEdgeW + 2) * (kEdgeH + 2); i += kEdgeW * kEdgeH) {
        const int ry = i / (kEdgeW + 2);
        const int rx = i - ry * (kEdgeW + 2);
        int v[C];
        fetch_pixel<C>(a.src, a.border, ox - 1 + rx, oy - 1 + ry, v);
        if constexpr (kGray) {
            tile[0][ry][rx] = C >= 3 ? luma601(v[0], v[1 % C], v[2 % C]) : v[0];
        } else {
#pragma unroll
            for (int p = 0; p < P; ++p) tile[p][ry][rx] = v[p];
        }
    }
    __syncthreads();
    const int x = ox + threadIdx.x;
    const int y = oy + threadIdx.y;
    if (x >= a.src.width || y >= a.src.height) return;
    int e[P];
#pragma unroll
    for (int p = 0; p < P; ++p) {
        const int(*t)[kEdgeW + 2] = tile[p];
        const int r0 = threadIdx.y, r1 = threadIdx.y + 1, r2 = threadIdx.y + 2;
        const int c0 = threadIdx.x, c1 = threadIdx.x + 1, c2 = threadIdx.x + 2;
        if (a.op == static_cast<int>(EdgeOperator::Laplacian)) {
            e[p] = laplacian_output(t[r0][c1] + t[r1][c0] - 4 * t[r1][c1] + t[r1][c2] + t[r2][c1]);
        } else {
            const int w = a.op == static_cast<int>(EdgeOperator::Scharr) ? 3 : 1;
            const int m = a.op == static_cast<int>(EdgeOperator::Scharr) ? 10 : 2;
            const int gx = w * (t[r0][c2] - t[r0][c0]) + m * (t[r1][c2] - t[r1][c0]) + w * (t[r2][c2] - t[r2][c0]);
            const int gy = w * (t[r2][c0] - t[r0][c0]) + m * (t[r2][c1] - t[r0][c1]) + w * (t[r2][c2] - t[r0][c2]);
            e[p] = a.op == static_cast<int>(EdgeOperator::Scharr) ? scharr_output(gx, gy) : sobel_output(gx, gy);
        }
    }
    constexpr int OC = kGray ? (kAlpha ? 2 : 1) : C;  // output channels
    std::uint8_t* px = row_ptr(a.dst, y) + static_cast<std::size_t>(x) * OC;
    if constexpr (kAlpha) {
        const int alpha = __ldg(row_ptr(a.src, y) + static_cast<std::size_t>(x) * C + (C - 1));
#pragma unroll
        for (int p = 0; p < P; ++p) px[p] = static_cast<std::uint8_t>(unpremultiply(e[p], alpha));
        px[OC - 1] = static_cast<std::uint8_t>(alpha);
    } else {
#pragma unroll
        for (int p = 0; p < P; ++p) px[p] = static_cast<std::uint8_t>(e[p]);
    }
}

template <int C, bool kGray>
void launch_edges_typed(const EdgesArgs& a, cudaStream_t stream) {
    const dim3 block(kEdgeW, kEdgeH);
    const dim3 grid(static_cast<unsigned>(ceil_div(a.src.width, kEdgeW)),
                    static_cast<unsigned>(ceil_div(a.src.height, kEdgeH)));
    if (grid.y > 65535u) throw usage_error("edge filter", "the image is too tall for this GPU kernel");
    edges_kernel<C, kGray><<<grid, block, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("edges_kernel");
}

}  // namespace

void launch_custom(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    const DeviceImageRef& src = call.src;
    CustomArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan, src.channels);
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
        case 2: launch_custom_channels<2>(a, wt, call.stream, dev); break;
        case 3: launch_custom_channels<3>(a, wt, call.stream, dev); break;
        default: launch_custom_channels<4>(a, wt, call.stream, dev); break;
    }
}

void launch_edges(const FilterCall& call, const DeviceLimits&) {
    const FilterPlan& plan = *call.plan;
    const DeviceImageRef& src = call.src;
    EdgesArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan, src.channels);
    a.op = static_cast<int>(plan.edge_op);
    // Gray input is its own luma, so gray=true only changes colour images.
    const bool gray = plan.edges_gray && src.channels >= 3;
    switch (src.channels) {
        case 1: launch_edges_typed<1, false>(a, call.stream); break;
        case 2: launch_edges_typed<2, false>(a, call.stream); break;
        case 3: gray ? launch_edges_typed<3, true>(a, call.stream) : launch_edges_typed<3, false>(a, call.stream); break;
        default: gray ? launch_edges_typed<4, true>(a, call.stream) : launch_edges_typed<4, false>(a, call.stream); break;
    }
}

}  // namespace imgpar::cuda::filter_detail
