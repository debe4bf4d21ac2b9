// Every filter on 16-bit images (the 16-bit contract in src/ops/filter.hpp):
// exact integer kernels on CUDA cores, one thread per output pixel and all of
// its lanes, every sample through the IMGPAR_HD functions of
// src/ops/filter_u16_math.hpp that the CPU reference calls. The 8-bit
// tensor-core paths cannot take these samples: FP16 holds integers only to
// 2048 and the u8 MMAs bytes.
//  - Gaussian and unsharp: radii up to 16 in one fused kernel over tiles
//    (cuda/filter_u16_fused.cu); larger ones in two passes through a scratch
//    image of lanes (uint16 H for images without alpha, uint32 for the premultiplied
//    lanes): rows, a block per 512-pixel row segment staged with its border
//    in shared memory; columns, a block per 32-pixel x tile_h tile whose
//    2r rows of halo are staged in shared memory, with the epilogue (unsharp,
//    unpremultiply);
//  - box: running sums down columns (a thread per pixel column and chunk of
//    rows) into a scratch of column sums, then per row segment a block scan
//    of the sums and their halo in shared memory (uint64: window sums pass
//    2^32), an output per difference of two prefix sums;
//  - custom kernels and edges: 2-D tiles of lanes with their halo in shared
//    memory; custom sums in FP64 FMAs, exact (every partial sum an integer
//    below 2^48), edges in 32/64-bit integers.
// Loads are pixel-contiguous across a warp (coalesced); Deep images (no
// alpha) keep uint32 Gaussian sums, DeepWide ones uint64 throughout.

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda/check.hpp"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_u16.hpp"
#include "cuda/filter_u16_kernels.cuh"
#include "src/error.hpp"
#include "src/ops/filter_u16_math.hpp"
#include "src/ops/wide_math.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

using namespace u16k;

// --- Gaussian and unsharp -------------------------------------------------------

// H = round(sum_i T[i] lane(x + i - r, y)) into the scratch, a block per
// kRowPixels-pixel segment of a row, kRun pixels a thread; the segment and
// its border in shared memory.
constexpr int kRowPixels = kRowThreads * kRun;
template <int C, int K>
__global__ void __launch_bounds__(kRowThreads)
    g16_rows(const __grid_constant__ Args16 a, const __grid_constant__ Taps16 taps) {
    using S = Spec<C, K>;
    using Lane = typename S::Lane;
    constexpr int L = S::L;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    Lane* s = reinterpret_cast<Lane*>(smem_raw);
    const int r = a.radius, n = kRowPixels + 2 * r;
    const int x0 = blockIdx.x * kRowPixels, xr = x0 + threadIdx.x * kRun;  // the thread's run
    Lane* tmp = static_cast<Lane*>(a.tmp);
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        for (int i = threadIdx.x; i < n; i += kRowThreads) {
            Lane v[L];
            fetch<C, K>(a, x0 - r + i, y, v);
#pragma unroll
            for (int l = 0; l < L; ++l) s[i * L + l] = v[l];
        }
        __syncthreads();
        if (xr < a.width) {
            typename S::Acc sum[kRun][L];
            run_sums<L, Lane, typename S::Acc>(s + threadIdx.x * kRun * L, L, r, taps, sum);
            Lane* o = tmp + (static_cast<std::size_t>(y) * a.width + xr) * L;
#pragma unroll
            for (int q = 0; q < kRun; ++q)
                if (xr + q < a.width)
#pragma unroll
                    for (int l = 0; l < L; ++l) o[q * L + l] = static_cast<Lane>(S::round(sum[q][l]));
        }
        __syncthreads();
    }
}

// out = round(sum_j T[j] H(x, y + j - r)) and the epilogue, a block per 32
// pixels x tile_h rows; the tile's H rows and 2r halo rows in shared memory
// (rows outside the image: the row the border rule names, or the constant).
template <int C, int K, bool Unsharp>
__global__ void __launch_bounds__(kTileX * kTileThreadsY)
    g16_columns(const __grid_constant__ Args16 a, const __grid_constant__ Taps16 taps) {
    using S = Spec<C, K>;
    using Lane = typename S::Lane;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    Lane* s = reinterpret_cast<Lane*>(smem_raw);
    const int r = a.radius, th = a.tile_h, rows = th + 2 * r;
    constexpr int row_lanes = kTileX * S::L;
    const int x0 = blockIdx.x * kTileX;
    const int valid = min(kTileX, a.width - x0) * S::L;
    const int tid = threadIdx.y * kTileX + threadIdx.x;
    const Lane* tmp = static_cast<const Lane*>(a.tmp);
    const int x = x0 + threadIdx.x;
    for (int y0 = blockIdx.y * th; y0 < a.height; y0 += gridDim.y * th) {
        for (int e = tid; e < rows * row_lanes; e += kTileX * kTileThreadsY) {
            const int rr = e / row_lanes, k = e - rr * row_lanes;
            const int yy = border_index(y0 - r + rr, a.height, a.mode);
            Lane v = 0;
            if (k < valid)
                v = yy < 0 ? static_cast<Lane>(a.outside[k % S::L])
                           : tmp[(static_cast<std::size_t>(yy) * a.width + x0) * S::L + k];
            s[e] = v;
        }
        __syncthreads();
        // kRun output rows a thread (th is a multiple of kRun: no run leaves the tile).
        for (int yo0 = threadIdx.y * kRun; yo0 < th; yo0 += kTileThreadsY * kRun) {
            if (x >= a.width || y0 + yo0 >= a.height) continue;
            typename S::Acc sum[kRun][S::L];
            run_sums<S::L, Lane, typename S::Acc>(s + yo0 * row_lanes + threadIdx.x * S::L, row_lanes, r, taps, sum);
#pragma unroll
            for (int q = 0; q < kRun; ++q) {
                if (y0 + yo0 + q >= a.height) break;
                std::uint32_t v[S::L];
#pragma unroll
                for (int l = 0; l < S::L; ++l) v[l] = S::round(sum[q][l]);
                store<C, K, Unsharp>(a, x, y0 + yo0 + q, v);
            }
        }
        __syncthreads();
    }
}

// --- Box ----------------------------------------------------------------------

// Column sums V of the (2R+1)-row window (Deep: uint32, at most 2001 *
// 65535; DeepWide: uint64), a thread per pixel column and chunk of rows.
template <int C, int K>
__global__ void __launch_bounds__(kBoxVertThreads) box16_vertical(const __grid_constant__ Args16 a) {
    using S = Spec<C, K>;
    using V = typename S::Acc;
    const int x = blockIdx.x * kBoxVertThreads + threadIdx.x;
    if (x >= a.width) return;
    const int R = a.radius;
    V* tmp = static_cast<V*>(a.tmp);
    for (int yb = blockIdx.y * a.chunk_rows; yb < a.height; yb += gridDim.y * a.chunk_rows) {
        const int ye = min(yb + a.chunk_rows, a.height);
        V sum[S::L] = {};
        typename S::Lane v[S::L], u[S::L];
        for (int j = -R; j <= R; ++j) {
            fetch<C, K>(a, x, yb + j, v);
#pragma unroll
            for (int l = 0; l < S::L; ++l) sum[l] += v[l];
        }
        for (int y = yb; y < ye; ++y) {
            V* o = tmp + (static_cast<std::size_t>(y) * a.width + x) * S::L;
#pragma unroll
            for (int l = 0; l < S::L; ++l) o[l] = sum[l];
            if (y + 1 < ye) {
                fetch<C, K>(a, x, y + R + 1, v);
                fetch<C, K>(a, x, y - R, u);
#pragma unroll
                for (int l = 0; l < S::L; ++l) sum[l] = sum[l] + v[l] - u[l];
            }
        }
    }
}

// Exclusive prefix sums, in place, of L planes of n values (plane l at p + l * n),
// modulo 2^64: a difference of two is an exact window sum.
template <int L>
__device__ void block_exclusive_scan64(std::uint64_t* p, int n) {
    __shared__ std::uint64_t warp_tot[4 * kBoxHorzWarps];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int per = (n + kBoxHorzThreads - 1) / kBoxHorzThreads;
    const int b = min(static_cast<int>(threadIdx.x) * per, n), e = min(b + per, n);
    std::uint64_t tot[L], inc[L];
#pragma unroll
    for (int l = 0; l < L; ++l) {
        std::uint64_t s = 0;
        for (int i = b; i < e; ++i) s += p[l * n + i];
        tot[l] = inc[l] = s;
    }
#pragma unroll
    for (int d = 1; d < 32; d <<= 1)
#pragma unroll
        for (int l = 0; l < L; ++l) {
            const std::uint64_t up = __shfl_up_sync(0xFFFFFFFFu, inc[l], d);
            if (lane >= d) inc[l] += up;
        }
    if (lane == 31)
#pragma unroll
        for (int l = 0; l < L; ++l) warp_tot[l * kBoxHorzWarps + warp] = inc[l];
    __syncthreads();
    if (warp == 0)
#pragma unroll
        for (int l = 0; l < L; ++l) {
            const std::uint64_t x = lane < kBoxHorzWarps ? warp_tot[l * kBoxHorzWarps + lane] : 0u;
            std::uint64_t s = x;
#pragma unroll
            for (int d = 1; d < 32; d <<= 1) {
                const std::uint64_t up = __shfl_up_sync(0xFFFFFFFFu, s, d);
                if (lane >= d) s += up;
            }
            if (lane < kBoxHorzWarps) warp_tot[l * kBoxHorzWarps + lane] = s - x;
        }
    __syncthreads();
#pragma unroll
    for (int l = 0; l < L; ++l) {
        std::uint64_t run = warp_tot[l * kBoxHorzWarps + warp] + inc[l] - tot[l];
        for (int i = b; i < e; ++i) {
            const std::uint64_t v = p[l * n + i];
            p[l * n + i] = run;
            run += v;
        }
    }
    __syncthreads();
}

// A block per row segment: its column sums and R columns each side (border
// rule) into shared memory, a scan, and out = round(S / (2R+1)^2).
template <int C, int K>
__global__ void __launch_bounds__(kBoxHorzThreads) box16_horizontal(const __grid_constant__ Args16 a) {
    using S = Spec<C, K>;
    using V = typename S::Acc;
    extern __shared__ __align__(16) std::uint64_t psum[];
    const int R = a.radius, n = a.ext, W = a.width;
    const int x0 = blockIdx.x * a.seg_px;
    const V* tmp = static_cast<const V*>(a.tmp);
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        const V* row = tmp + static_cast<std::size_t>(y) * W * S::L;
        for (int i = threadIdx.x; i < n; i += kBoxHorzThreads) {
            const int xx = border_index(x0 - R + i, W, a.mode);
#pragma unroll
            for (int l = 0; l < S::L; ++l)
                psum[l * n + i] = xx < 0 ? static_cast<std::uint64_t>(2 * R + 1) * a.outside[l]
                                         : static_cast<std::uint64_t>(row[static_cast<std::size_t>(xx) * S::L + l]);
        }
        __syncthreads();
        block_exclusive_scan64<S::L>(psum, n);
        for (int o = threadIdx.x; o < a.seg_px && x0 + o < W; o += kBoxHorzThreads) {
            std::uint32_t v[S::L];
#pragma unroll
            for (int l = 0; l < S::L; ++l) {
                const std::uint64_t sum = psum[l * n + o + 2 * R + 1] - psum[l * n + o];
                if constexpr (S::wide)
                    v[l] = box_output_wide16(sum, a.count);
                else
                    v[l] = static_cast<std::uint32_t>(box_output16(sum, a.count));
            }
            store<C, K, false>(a, x0 + o, y, v);
        }
        __syncthreads();
    }
}

// --- Custom kernels and edges (2-D tiles) -------------------------------------

// The lanes of a (32 + kw - 1) x (tile_h + kh - 1) tile whose top-left output
// is (x0, y0), into shared memory.
template <int C, int K>
__device__ __forceinline__ void load_tile(const Args16& a, typename Spec<C, K>::Lane* s, int x0, int y0, int tw,
                                          int th) {
    using S = Spec<C, K>;
    const int tid = threadIdx.y * kTileX + threadIdx.x;
    for (int e = tid; e < tw * th; e += kTileX * kTileThreadsY) {
        const int rr = e / tw, cc = e - rr * tw;
        typename S::Lane v[S::L];
        fetch<C, K>(a, x0 - a.ax + cc, y0 - a.ay + rr, v);
#pragma unroll
        for (int l = 0; l < S::L; ++l) s[e * S::L + l] = v[l];
    }
}

// Custom: S = sum coeffs[j * kw + i] * lane(x + i - ax, y + j - ay) (exact),
// out = custom_value64(S, denominator, offset, top).
template <int C, int K>
__global__ void __launch_bounds__(kTileX * kTileThreadsY)
    custom16_tiles(const __grid_constant__ Args16 a, const __grid_constant__ Coeffs16 k) {
    using S = Spec<C, K>;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    typename S::Lane* s = reinterpret_cast<typename S::Lane*>(smem_raw);
    const int tw = kTileX + a.kw - 1, th = a.tile_h + a.kh - 1;
    const int x0 = blockIdx.x * kTileX, x = x0 + threadIdx.x;
    for (int y0 = blockIdx.y * a.tile_h; y0 < a.height; y0 += gridDim.y * a.tile_h) {
        load_tile<C, K>(a, s, x0, y0, tw, th);
        __syncthreads();
        for (int yo = threadIdx.y; x < a.width && yo < a.tile_h && y0 + yo < a.height; yo += kTileThreadsY) {
            // In double: every product (|k| <= 65535, lanes <= 65535^2) and
            // every partial sum (sum |k| <= 65535) is an integer below 2^48,
            // exact in any order, so this is the CPU's int64 sum; the H100's
            // FP64 FMAs are several times faster than int64 multiply-adds.
            double sum[S::L] = {};
            for (int j = 0; j < a.kh; ++j) {
                const typename S::Lane* row = s + ((yo + j) * tw + threadIdx.x) * S::L;
                for (int i = 0; i < a.kw; ++i) {
                    const int kv = k.k[j * a.kw + i];
                    if (kv == 0) continue;
                    const double kd = static_cast<double>(kv);
#pragma unroll
                    for (int l = 0; l < S::L; ++l)
                        sum[l] = __fma_rn(kd, static_cast<double>(row[i * S::L + l]), sum[l]);
                }
            }
            std::uint32_t v[S::L];
#pragma unroll
            for (int l = 0; l < S::L; ++l)
                v[l] = static_cast<std::uint32_t>(
                    custom_value64(sum[l], a.denominator, a.offset, static_cast<std::int64_t>(a.top)));
            store<C, K, false>(a, x, y0 + yo, v);
        }
        __syncthreads();
    }
}

// Edges: the 3x3 pair (Laplacian: gx) per lane on a tile with a 1-pixel halo.
template <int C, int K>
__global__ void __launch_bounds__(kTileX * kTileThreadsY) edges16_tiles(const __grid_constant__ Args16 a) {
    using S = Spec<C, K>;
    using Signed = typename S::Signed;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    typename S::Lane* s = reinterpret_cast<typename S::Lane*>(smem_raw);
    const int tw = kTileX + 2, th = a.tile_h + 2;
    const int x0 = blockIdx.x * kTileX, x = x0 + threadIdx.x;
    const EdgeOperator op = static_cast<EdgeOperator>(a.op);
    const Signed wa = op == EdgeOperator::Scharr ? 3 : 1, wb = op == EdgeOperator::Scharr ? 10 : 2;
    for (int y0 = blockIdx.y * a.tile_h; y0 < a.height; y0 += gridDim.y * a.tile_h) {
        load_tile<C, K>(a, s, x0, y0, tw, th);
        __syncthreads();
        for (int yo = threadIdx.y; x < a.width && yo < a.tile_h && y0 + yo < a.height; yo += kTileThreadsY) {
            std::uint32_t v[S::L];
#pragma unroll
            for (int l = 0; l < S::L; ++l) {
                const auto at = [&](int i, int j) {
                    return static_cast<Signed>(s[((yo + j) * tw + threadIdx.x + i) * S::L + l]);
                };
                Signed gx, gy = 0;
                if (op == EdgeOperator::Laplacian) {
                    gx = at(1, 0) + at(0, 1) + at(2, 1) + at(1, 2) - 4 * at(1, 1);
                } else {
                    gx = wa * (at(2, 0) - at(0, 0)) + wb * (at(2, 1) - at(0, 1)) + wa * (at(2, 2) - at(0, 2));
                    gy = wa * (at(0, 2) - at(0, 0)) + wb * (at(1, 2) - at(1, 0)) + wa * (at(2, 2) - at(2, 0));
                }
                if constexpr (S::wide)
                    v[l] = static_cast<std::uint32_t>(edge_output_wide16(op, gx, gy));
                else
                    v[l] = static_cast<std::uint32_t>(edge_output16(op, gx, gy));
            }
            store<C, K, false>(a, x, y0 + yo, v);
        }
        __syncthreads();
    }
}

// --- Launch -------------------------------------------------------------------

// The longest radius Auto gives RGB's integer kernels (see launch_gaussian).
constexpr int kIntegerRgbMaxRadius16 = 4;

unsigned grid_rows(int rows) { return static_cast<unsigned>(std::min(std::max(rows, 1), 65535)); }

template <int C, int K>
const char* launch_gaussian(const FilterPlan& plan, Args16 a, cudaStream_t stream, const DeviceLimits& dev,
                            SeparablePath path) {
    using S = Spec<C, K>;
    // Auto takes the ring where it was timed faster than the integer kernels
    // (bench/TUNING.md, H200): on gray always (sigma 0.5-25: 1.4-5x), on RGB
    // from radius 5 up (sigma 2: 1.2x, sigma 20: 2.4x); the integer kernels
    // keep RGB's shortest radii (sigma 0.5 and 1: 1.3x and 1.14x faster).
    // Integer asks for those, ByteMma for the ring.
    if constexpr (K == static_cast<int>(LaneKind16::Samples)) {
        const bool ring = path == SeparablePath::ByteMma ||
                          (path == SeparablePath::Auto && (C == 1 || a.radius > kIntegerRgbMaxRadius16));
        if (ring) {
            const ConstDeviceViewU16 src{a.src, a.width, a.height, C, a.src_pitch};
            const DeviceViewU16 dst{a.dst, a.width, a.height, C, a.dst_pitch};
            if (const char* name = launch_separable_tensor_core16(plan, src, dst, stream, dev)) return name;
        }
    }
    if (path == SeparablePath::ByteMma)
        throw device_error("filter", "the 16-bit tensor-core ring takes gray and RGB images with taps below 2^16 "
                                     "on a device with the shared memory");
    Taps16 taps{};
    const std::vector<std::int32_t> t = gaussian_taps16(plan);
    for (std::size_t i = 0; i < t.size(); ++i) taps.t[i] = t[i];
    if (const char* fused = launch_gaussian_fused<C, K>(plan.kind == FilterKind::Unsharp, a, taps, stream, dev))
        return fused;
    // The two passes' H (u16_scratch_bytes reserves none for radii the fused
    // kernel takes, which it does on every device of compute capability 8.0+).
    if (a.tmp_bytes < static_cast<std::size_t>(a.width) * a.height * S::L * sizeof(typename S::Lane))
        throw device_error("filter", "the workspace is smaller than the 16-bit Gaussian's two passes need");
    const int r = a.radius;
    const std::size_t row_smem = static_cast<std::size_t>(kRowPixels + 2 * r) * S::L * sizeof(typename S::Lane);
    allow_dynamic_smem(reinterpret_cast<const void*>(&g16_rows<C, K>), row_smem);
    g16_rows<C, K><<<dim3(static_cast<unsigned>(ceil_div(a.width, kRowPixels)), grid_rows(a.height)), kRowThreads,
                     row_smem, stream>>>(a, taps);
    IMGPAR_CUDA_CHECK_LAUNCH("g16_rows");
    const auto col_smem = [&](int th) {
        return static_cast<std::size_t>(th + 2 * r) * kTileX * S::L * sizeof(typename S::Lane);
    };
    a.tile_h = 128;
    while (a.tile_h > 8 && (col_smem(a.tile_h) > static_cast<std::size_t>(dev.max_smem_optin) ||
                            (a.tile_h > 32 && a.tile_h >= 2 * a.height)))
        a.tile_h /= 2;
    if (col_smem(a.tile_h) > static_cast<std::size_t>(dev.max_smem_optin))
        throw device_error("filter", "the 16-bit Gaussian's radius needs more shared memory than this GPU has");
    const dim3 grid(static_cast<unsigned>(ceil_div(a.width, kTileX)), grid_rows(ceil_div(a.height, a.tile_h)));
    const dim3 block(kTileX, kTileThreadsY);
    if (plan.kind == FilterKind::Unsharp) {
        allow_dynamic_smem(reinterpret_cast<const void*>(&g16_columns<C, K, true>), col_smem(a.tile_h));
        g16_columns<C, K, true><<<grid, block, col_smem(a.tile_h), stream>>>(a, taps);
        IMGPAR_CUDA_CHECK_LAUNCH("g16_columns (unsharp)");
        return "16-bit unsharp: separable integer passes (rows, then column tiles in shared memory)";
    }
    allow_dynamic_smem(reinterpret_cast<const void*>(&g16_columns<C, K, false>), col_smem(a.tile_h));
    g16_columns<C, K, false><<<grid, block, col_smem(a.tile_h), stream>>>(a, taps);
    IMGPAR_CUDA_CHECK_LAUNCH("g16_columns");
    return "16-bit Gaussian: separable integer passes (rows, then column tiles in shared memory)";
}

template <int C, int K>
const char* launch_box(Args16 a, cudaStream_t stream, const DeviceLimits& dev) {
    using S = Spec<C, K>;
    const int R = a.radius;
    a.count = (2 * R + 1) * (2 * R + 1);
    a.chunk_rows = static_cast<int>(round_up(static_cast<std::size_t>(std::max(kMinChunkRows, 2 * R + 1)), 32));
    box16_vertical<C, K>
        <<<dim3(static_cast<unsigned>(ceil_div(a.width, kBoxVertThreads)), grid_rows(ceil_div(a.height, a.chunk_rows))),
           kBoxVertThreads, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("box16_vertical");
    int seg = R <= 128 ? 1024 : 2048;
    seg = std::min(seg, static_cast<int>(round_up(static_cast<std::size_t>(a.width), 32)));
    const auto smem_for = [&](int sp) {
        return static_cast<std::size_t>(S::L) * static_cast<std::size_t>(sp + 2 * R + 1) * 8;
    };
    while (seg > 32 && smem_for(seg) > static_cast<std::size_t>(dev.max_smem_optin)) seg /= 2;
    if (smem_for(seg) > static_cast<std::size_t>(dev.max_smem_optin))
        throw device_error("box filter", "radius " + std::to_string(R) + " needs more shared memory than this GPU has");
    a.seg_px = seg;
    a.ext = seg + 2 * R + 1;
    allow_dynamic_smem(reinterpret_cast<const void*>(&box16_horizontal<C, K>), smem_for(seg));
    box16_horizontal<C, K><<<dim3(static_cast<unsigned>(ceil_div(a.width, seg)), grid_rows(a.height)), kBoxHorzThreads,
                             smem_for(seg), stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("box16_horizontal");
    return "16-bit box running sums (column windows, then row prefix sums in 64 bits)";
}

// The tile height of the 2-D kernels: 32 rows, fewer where the halo'd tile
// would not fit the shared memory.
template <int C, int K>
std::size_t tile_smem(Args16& a, const DeviceLimits& dev) {
    using S = Spec<C, K>;
    const auto smem = [&](int th) {
        return static_cast<std::size_t>(kTileX + a.kw - 1) * (th + a.kh - 1) * S::L * sizeof(typename S::Lane);
    };
    a.tile_h = k2dTileY;
    while (a.tile_h > kTileThreadsY && smem(a.tile_h) > static_cast<std::size_t>(dev.max_smem_optin)) a.tile_h /= 2;
    if (smem(a.tile_h) > static_cast<std::size_t>(dev.max_smem_optin))
        throw device_error("filter", "the 16-bit custom kernel needs more shared memory than this GPU has");
    return smem(a.tile_h);
}

template <int C, int K>
const char* launch_custom(const FilterPlan& plan, Args16 a, cudaStream_t stream, const DeviceLimits& dev) {
    Coeffs16 k{};
    for (std::size_t i = 0; i < plan.coeffs.size(); ++i) k.k[i] = plan.coeffs[i];
    const std::size_t smem = tile_smem<C, K>(a, dev);
    allow_dynamic_smem(reinterpret_cast<const void*>(&custom16_tiles<C, K>), smem);
    const dim3 grid(static_cast<unsigned>(ceil_div(a.width, kTileX)), grid_rows(ceil_div(a.height, a.tile_h)));
    custom16_tiles<C, K><<<grid, dim3(kTileX, kTileThreadsY), smem, stream>>>(a, k);
    IMGPAR_CUDA_CHECK_LAUNCH("custom16_tiles");
    return "16-bit 2-D correlation (tiles in shared memory, exact FP64 sums)";
}

template <int C, int K>
const char* launch_edges(Args16 a, cudaStream_t stream, const DeviceLimits& dev) {
    a.kw = a.kh = 3;
    a.ax = a.ay = 1;
    const std::size_t smem = tile_smem<C, K>(a, dev);
    allow_dynamic_smem(reinterpret_cast<const void*>(&edges16_tiles<C, K>), smem);
    const dim3 grid(static_cast<unsigned>(ceil_div(a.width, kTileX)), grid_rows(ceil_div(a.height, a.tile_h)));
    edges16_tiles<C, K><<<grid, dim3(kTileX, kTileThreadsY), smem, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("edges16_tiles");
    return "16-bit 3x3 edges (tiles in shared memory)";
}

// The plan's pass for an image of C channels whose lanes are of kind K.
template <int C, int K>
const char* launch_kind(const FilterPlan& plan, const Args16& a, cudaStream_t stream, const DeviceLimits& dev,
                        SeparablePath path) {
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: return launch_gaussian<C, K>(plan, a, stream, dev, path);
        case FilterKind::Box: return launch_box<C, K>(a, stream, dev);
        case FilterKind::Custom: return launch_custom<C, K>(plan, a, stream, dev);
        case FilterKind::Edges: return launch_edges<C, K>(a, stream, dev);
    }
    return "unknown";
}

constexpr int kSamples = static_cast<int>(LaneKind16::Samples);
constexpr int kLuma = static_cast<int>(LaneKind16::Luma);
constexpr int kWithAlpha = static_cast<int>(LaneKind16::WithAlpha);
constexpr int kColours = static_cast<int>(LaneKind16::Colours);
constexpr int kWideLuma = static_cast<int>(LaneKind16::WideLuma);

}  // namespace

LaneKind16 lane_kind_u16(const FilterPlan& plan, int channels) {
    const bool gray = plan.kind == FilterKind::Edges && plan.edges_gray;
    if (!has_alpha(channels)) return gray && channels == 3 ? LaneKind16::Luma : LaneKind16::Samples;
    if (filters_alpha(plan.kind)) return LaneKind16::WithAlpha;
    return gray && channels == 4 ? LaneKind16::WideLuma : LaneKind16::Colours;
}

std::size_t u16_scratch_bytes(const FilterPlan& plan, int width, int height, int channels) {
    const LaneKind16 kind = lane_kind_u16(plan, channels);
    const std::size_t lanes = static_cast<std::size_t>(lane_count16(kind, channels));
    const std::size_t lane_bytes = lane_kind_wide(kind) ? 4 : 2;
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: return plan.radius <= kFusedMaxRadius ? 0 : pixels * lanes * lane_bytes;
        case FilterKind::Box: return pixels * lanes * lane_bytes * 2;  // uint32 / uint64 column sums
        default: return 0;
    }
}

const char* launch_u16(const FilterPlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst, void* scratch,
                       std::size_t scratch_bytes, cudaStream_t stream, const DeviceLimits& dev, SeparablePath path) {
    if (scratch_bytes < u16_scratch_bytes(plan, src.width, src.height, src.channels))
        throw device_error("filter", "the workspace is smaller than the 16-bit kernels need");
    const LaneKind16 kind = lane_kind_u16(plan, src.channels);
    Args16 a{};
    a.src = src.data;
    a.src_pitch = src.pitch;
    a.dst = dst.data;
    a.dst_pitch = dst.pitch;
    a.width = src.width;
    a.height = src.height;
    a.mode = plan.border.mode;
    {
        const std::uint16_t v = static_cast<std::uint16_t>(level16(plan.border.value));
        const std::uint16_t px[4] = {v, v, v, v};
        for (int l = 0; l < lane_count16(kind, src.channels); ++l) a.outside[l] = lane16(kind, px, src.channels, l);
    }
    a.tmp = scratch;
    a.tmp_bytes = scratch_bytes;
    a.radius = plan.radius;
    a.amount_q8 = plan.amount_q8;
    a.level = threshold_level16(plan.threshold);
    a.op = static_cast<int>(plan.edge_op);
    a.kw = plan.kernel_width;
    a.kh = plan.kernel_height;
    a.ax = plan.anchor_x;
    a.ay = plan.anchor_y;
    a.denominator = std::ldexp(plan.scale, plan.frac_bits);
    const bool wide = lane_kind_wide(kind);
    a.offset = (wide ? 65535.0 * 257.0 : 257.0) * plan.offset;
    a.top = wide ? kWideTop16 : static_cast<std::uint64_t>(kTop16);
    switch (src.channels) {
        case 1: return launch_kind<1, kSamples>(plan, a, stream, dev, path);
        case 2:
            return kind == LaneKind16::WithAlpha ? launch_kind<2, kWithAlpha>(plan, a, stream, dev, path)
                                                 : launch_kind<2, kColours>(plan, a, stream, dev, path);
        case 3:
            return kind == LaneKind16::Luma ? launch_edges<3, kLuma>(a, stream, dev)
                                            : launch_kind<3, kSamples>(plan, a, stream, dev, path);
        default:
            if (kind == LaneKind16::WithAlpha) return launch_kind<4, kWithAlpha>(plan, a, stream, dev, path);
            if (kind == LaneKind16::WideLuma) return launch_edges<4, kWideLuma>(a, stream, dev);
            return launch_kind<4, kColours>(plan, a, stream, dev, path);
    }
}

}  // namespace imgpar::cuda::filter_detail
