// The 16-bit Gaussian and unsharp for radii up to kFusedMaxRadius in one
// kernel (the 16-bit contract in src/ops/filter.hpp), so the intermediate H
// never goes through device memory: a block stages the source lanes of its
// 32-pixel x tile_h tile with an r-pixel halo on every side (the border rule
// applied as they are read), computes H for every staged row into shared
// memory, then the columns and the epilogue.
//
// The same samples as the two passes of cuda/filter_u16.cu: a staged row
// outside the image is the row the border rule names, whose H is the one the
// two passes read; a constant-border row's H is the constant itself, as the
// contract says, since the taps sum to 2^16: (2^16 V + 2^15) >> 16 = V.
//
// Work: the halo rows' H is computed by each tile that reads them, (tile_h +
// 2r) / tile_h of the rows pass (at most 1.5 with tile_h 64 and r 16); in
// exchange the image is read once and written once.

#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_u16_kernels.cuh"

namespace imgpar::cuda::filter_detail::u16k {
namespace {

constexpr int kFusedThreads = kTileX * kTileThreadsY;
template <int C, int K, bool Unsharp>
__global__ void __launch_bounds__(kFusedThreads)
    g16_fused(const __grid_constant__ Args16 a, const __grid_constant__ Taps16 taps) {
    using S = Spec<C, K>;
    using Lane = typename S::Lane;
    using Acc = typename S::Acc;
    constexpr int L = S::L;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    // th is a multiple of kRun (64, 32, 16 or 8), so no run leaves the tile.
    const int r = a.radius, th = a.tile_h, rows = th + 2 * r, cols = kTileX + 2 * r;
    Lane* src = reinterpret_cast<Lane*>(smem_raw);  // rows x cols pixels of lanes
    Lane* mid = src + rows * cols * L;              // rows x kTileX pixels of H
    const int tid = threadIdx.y * kTileX + threadIdx.x;
    const int x0 = blockIdx.x * kTileX, x = x0 + threadIdx.x;
    for (int y0 = blockIdx.y * th; y0 < a.height; y0 += gridDim.y * th) {
        for (int e = tid; e < rows * cols; e += kFusedThreads) {
            const int rr = e / cols, cc = e - rr * cols;
            Lane v[L];
            fetch<C, K>(a, x0 - r + cc, y0 - r + rr, v);
#pragma unroll
            for (int l = 0; l < L; ++l) src[e * L + l] = v[l];
        }
        __syncthreads();
        // H of every staged row, the tile's 32 columns, kRun columns a thread.
        constexpr int runs_per_row = kTileX / kRun;
        for (int e = tid; e < rows * runs_per_row; e += kFusedThreads) {
            const int rr = e / runs_per_row, cx0 = (e - rr * runs_per_row) * kRun;
            Acc sum[kRun][L];
            run_sums<L, Lane, Acc>(src + (rr * cols + cx0) * L, L, r, taps, sum);
#pragma unroll
            for (int q = 0; q < kRun; ++q)
#pragma unroll
                for (int l = 0; l < L; ++l)
                    mid[(rr * kTileX + cx0 + q) * L + l] = static_cast<Lane>(S::round(sum[q][l]));
        }
        __syncthreads();
        // The columns, kRun rows a thread: output rows yo0 .. yo0 + kRun - 1
        // read H rows yo0 .. yo0 + kRun - 1 + 2r of the tile.
        for (int yo0 = threadIdx.y * kRun; yo0 < th; yo0 += kTileThreadsY * kRun) {
            if (x >= a.width || y0 + yo0 >= a.height) continue;
            Acc sum[kRun][L];
            run_sums<L, Lane, Acc>(mid + (yo0 * kTileX + threadIdx.x) * L, kTileX * L, r, taps, sum);
#pragma unroll
            for (int q = 0; q < kRun; ++q) {
                if (y0 + yo0 + q >= a.height) break;
                std::uint32_t v[L];
#pragma unroll
                for (int l = 0; l < L; ++l) v[l] = S::round(sum[q][l]);
                store<C, K, Unsharp>(a, x, y0 + yo0 + q, v);
            }
        }
        __syncthreads();
    }
}

}  // namespace

template <int C, int K>
const char* launch_gaussian_fused(bool unsharp, Args16 a, const Taps16& taps, cudaStream_t stream,
                                  const DeviceLimits& dev) {
    using S = Spec<C, K>;
    const int r = a.radius;
    if (r > kFusedMaxRadius) return nullptr;
    const auto smem = [&](int th) {
        const std::size_t rows = static_cast<std::size_t>(th + 2 * r);
        return rows * static_cast<std::size_t>(2 * kTileX + 2 * r) * S::L * sizeof(typename S::Lane);
    };
    // 64 rows a tile (32 for the wide lanes, so two blocks share an SM), fewer
    // for short images or where shared memory is short; always a multiple of
    // kRun.
    a.tile_h = S::wide ? 32 : 64;
    while (a.tile_h > 8 && (smem(a.tile_h) > static_cast<std::size_t>(dev.max_smem_optin) || a.tile_h >= 2 * a.height))
        a.tile_h /= 2;
    if (smem(a.tile_h) > static_cast<std::size_t>(dev.max_smem_optin)) return nullptr;
    const dim3 grid(static_cast<unsigned>(ceil_div(a.width, kTileX)),
                    static_cast<unsigned>(std::min(ceil_div(a.height, a.tile_h), 65535)));
    const dim3 block(kTileX, kTileThreadsY);
    if (unsharp) {
        allow_dynamic_smem(reinterpret_cast<const void*>(&g16_fused<C, K, true>), smem(a.tile_h));
        g16_fused<C, K, true><<<grid, block, smem(a.tile_h), stream>>>(a, taps);
        IMGPAR_CUDA_CHECK_LAUNCH("g16_fused (unsharp)");
        return "16-bit unsharp: fused separable tiles (rows, then columns, in shared memory)";
    }
    allow_dynamic_smem(reinterpret_cast<const void*>(&g16_fused<C, K, false>), smem(a.tile_h));
    g16_fused<C, K, false><<<grid, block, smem(a.tile_h), stream>>>(a, taps);
    IMGPAR_CUDA_CHECK_LAUNCH("g16_fused");
    return "16-bit Gaussian: fused separable tiles (rows, then columns, in shared memory)";
}

// The (channels, lanes) pairs cuda/filter_u16.cu runs Gaussians and unsharp on.
#define IMGPAR_U16_FUSED(C, K)                                                                                    \
    template const char* launch_gaussian_fused<C, static_cast<int>(K)>(bool, Args16, const Taps16&, cudaStream_t, \
                                                                       const DeviceLimits&);
IMGPAR_U16_FUSED(1, LaneKind16::Samples)
IMGPAR_U16_FUSED(3, LaneKind16::Samples)
IMGPAR_U16_FUSED(2, LaneKind16::WithAlpha)
IMGPAR_U16_FUSED(4, LaneKind16::WithAlpha)
IMGPAR_U16_FUSED(2, LaneKind16::Colours)
IMGPAR_U16_FUSED(4, LaneKind16::Colours)
#undef IMGPAR_U16_FUSED

}  // namespace imgpar::cuda::filter_detail::u16k
