// The 3x3 edge operators (Sobel, Scharr, Laplacian), per colour channel or on
// luma.
//
// A memory-bound pass: its job is to read every input byte about once and
// write every output byte once, with as little work per pixel as possible.
//  - A block covers 128 x 32 output pixels. It loads the tile plus its
//    1-pixel ring in aligned groups of 16 pixels (C 16-byte loads each, all of
//    a thread's groups in flight together) into byte planes in shared memory:
//    luma already computed for gray output, the border rule applied to groups
//    that leave the image.
//  - A thread computes 4 adjacent pixels in each of 4 consecutive rows: it
//    reads 6 plane rows of 3 aligned words, forms each column's vertical
//    smoothing and difference once, and combines them horizontally.
//  - It writes its 4 pixels of a row as whole 32-bit words when the
//    destination allows.
// Gray and RGB images (images with alpha run cuda/filter_wide.cu).

#include <algorithm>

#include "cuda/block/group_fill.cuh"
#include "cuda/check.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "src/error.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

// Launch policy (reasoning; imgpar_bench --only edges measures it): 128 x 32
// outputs per block of 256 threads (4 x 4 pixels each); the loaded tile,
// 160 x 34 bytes per plane, is 1.33x the output (the neighbours' groups come
// from L2), small enough for many resident blocks to keep loads in flight.
struct EdgesPolicy {
    static constexpr int kTileW = 128;
    static constexpr int kTileH = 32;
    static constexpr int kThreads = 256;
};
constexpr int kTileW = EdgesPolicy::kTileW;
constexpr int kTileH = EdgesPolicy::kTileH;
// Plane column c holds image column X - 16 + c: groups stay 16-aligned and
// columns X - 1 .. X + 128 are inside.
constexpr int kLead = 16;
constexpr int kPlaneCols = kLead + kTileW + kGroupPx;  // 160
constexpr int kGroups = kPlaneCols / kGroupPx;         // per plane row
constexpr int kPlaneRows = kTileH + 2;

struct EdgesArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int op;       // EdgeOperator
    int src_vec;  // source rows can be read as aligned 16-byte vectors
    int dst_words;  // destination rows can be written as aligned 32-bit words
};

// Planes filtered: the luma plane, or each channel.
template <int C, bool kGray>
__host__ __device__ constexpr int filtered_planes() {
    static_assert(C == 1 || C == 3, "gray or RGB: images with alpha run the wide kernels");
    return kGray ? 1 : C;
}

// The plane words of 4 pixels from their C channel words (w[c]: the 4
// pixels' samples of channel c): the luma word, or the channel words.
template <int C, bool kGray>
__device__ __forceinline__ void plane_words(const std::uint32_t (&w)[4], std::uint32_t (&out)[4]) {
    constexpr int P = filtered_planes<C, kGray>();
    if constexpr (kGray && C == 3) {
        int l[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) l[e] = luma601(byte_of(w[0], e), byte_of(w[1], e), byte_of(w[2], e));
        out[0] = pack4(l[0], l[1], l[2], l[3]);
    } else {
#pragma unroll
        for (int p = 0; p < P; ++p) out[p] = w[p];
    }
}

template <int C, bool kGray>
__device__ __forceinline__ void load_edge_planes(const EdgesArgs& a, std::uint8_t* planes, int X, int Y) {
    constexpr int P = filtered_planes<C, kGray>();
    constexpr int kPlane = kPlaneRows * kPlaneCols;
    constexpr int kTotal = kPlaneRows * kGroups;
    constexpr int kPerThread = (kTotal + EdgesPolicy::kThreads - 1) / EdgesPolicy::kThreads;
    bool vec[kPerThread];
    uint4 u[kPerThread][C];
#pragma unroll
    for (int b = 0; b < kPerThread; ++b) {
        const int i = ::min(static_cast<int>(threadIdx.x) + b * EdgesPolicy::kThreads, kTotal - 1);
        const int r = i / kGroups;
        vec[b] = load_group<C>(a.src, a.border.mode, a.src_vec, X - kLead + kGroupPx * (i - r * kGroups), Y - 1 + r,
                               u[b]);
    }
#pragma unroll
    for (int b = 0; b < kPerThread; ++b) {
        const int i = static_cast<int>(threadIdx.x) + b * EdgesPolicy::kThreads;
        if (i >= kTotal) break;
        const int r = i / kGroups;
        const int gi = i - r * kGroups;
        const int x = X - kLead + kGroupPx * gi;
        const int y = Y - 1 + r;
#pragma unroll
        for (int k = 0; k < kGroupPx / 4; ++k) {
            std::uint32_t w[4];
            subgroup_words<C>(a.src, a.border, vec[b], u[b], k, x, y, w);
            std::uint32_t pw[4];
            plane_words<C, kGray>(w, pw);
#pragma unroll
            for (int p = 0; p < P; ++p)
                store_u32_shared(planes + p * kPlane + r * kPlaneCols + kGroupPx * gi + 4 * k, pw[p]);
        }
    }
}

// Per column of a 3-row window: the operator's vertical smoothing and
// difference (Sobel: 1 2 1 and -1 0 1; Scharr: 3 10 3 and -3 0 3).
struct Column {
    int smooth;
    int diff;
};

// Output pixel i (0..3) of a thread from the 3 window rows r..r+2 (window
// column i + 1 is the pixel itself) and their per-column sums.
template <int kOp>
__device__ __forceinline__ int edge_value(const int (&t)[6][6], int r, const Column (&col)[6], int i) {
    if constexpr (kOp == static_cast<int>(EdgeOperator::Laplacian)) {
        return laplacian_output(t[r][i + 1] + t[r + 1][i] - 4 * t[r + 1][i + 1] + t[r + 1][i + 2] + t[r + 2][i + 1]);
    } else if constexpr (kOp == static_cast<int>(EdgeOperator::Scharr)) {
        const int gx = col[i + 2].smooth - col[i].smooth;
        const int gy = 3 * col[i].diff + 10 * col[i + 1].diff + 3 * col[i + 2].diff;
        return scharr_output(gx, gy);
    } else {
        const int gx = col[i + 2].smooth - col[i].smooth;
        const int gy = col[i].diff + 2 * col[i + 1].diff + col[i + 2].diff;
        return sobel_output(gx, gy);
    }
}

template <int C, bool kGray, int kOp>
__global__ void __launch_bounds__(EdgesPolicy::kThreads) edges_kernel(const __grid_constant__ EdgesArgs a) {
    constexpr int P = filtered_planes<C, kGray>();
    constexpr int OC = P;  // output channels: one per plane filtered
    constexpr int kPlane = kPlaneRows * kPlaneCols;
    __shared__ __align__(16) std::uint8_t planes[P * kPlane];
    const int X = static_cast<int>(blockIdx.x) * kTileW;
    const int Y = static_cast<int>(blockIdx.y) * kTileH;
    load_edge_planes<C, kGray>(a, planes, X, Y);
    __syncthreads();

    const int tx = static_cast<int>(threadIdx.x) % 32;  // 4 pixels: columns 4tx .. 4tx+3 of the tile
    const int row0 = 4 * (static_cast<int>(threadIdx.x) / 32);
    const int x = X + 4 * tx;
    if (x >= a.src.width) return;
    const int col0 = kLead + 4 * tx - 4;  // plane column of the word holding the left neighbour

    // out[r][i * OC + c]: 4 rows x 4 pixels of output bytes.
    int out[4][4 * OC];
#pragma unroll
    for (int p = 0; p < P; ++p) {
        // rows[k][j]: bytes of plane row row0 + k, columns col0 + 3 .. col0 + 8.
        int rows[6][6];
#pragma unroll
        for (int k = 0; k < 6; ++k) {
            const std::uint8_t* rp = planes + p * kPlane + (row0 + k) * kPlaneCols + col0;
            const std::uint32_t w0 = load_u32_shared(rp);
            const std::uint32_t w1 = load_u32_shared(rp + 4);
            const std::uint32_t w2 = load_u32_shared(rp + 8);
            rows[k][0] = byte_of(w0, 3);
#pragma unroll
            for (int e = 0; e < 4; ++e) rows[k][1 + e] = byte_of(w1, e);
            rows[k][5] = byte_of(w2, 0);
        }
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            Column col[6];
#pragma unroll
            for (int j = 0; j < 6; ++j) {
                const int t0 = rows[r][j], t1 = rows[r + 1][j], t2 = rows[r + 2][j];
                col[j].smooth = kOp == static_cast<int>(EdgeOperator::Scharr) ? 3 * t0 + 10 * t1 + 3 * t2
                                                                                : t0 + 2 * t1 + t2;
                col[j].diff = t2 - t0;
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) out[r][i * OC + p] = edge_value<kOp>(rows, r, col, i);
        }
    }

    const bool whole = a.dst_words && x + 3 < a.src.width;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int y = Y + row0 + r;
        if (y >= a.src.height) break;
        std::uint8_t* d = row_ptr(a.dst, y) + static_cast<std::size_t>(x) * OC;
        if (whole) {
#pragma unroll
            for (int w = 0; w < OC; ++w)
                reinterpret_cast<std::uint32_t*>(d)[w] =
                    pack4(out[r][4 * w], out[r][4 * w + 1], out[r][4 * w + 2], out[r][4 * w + 3]);
        } else {
            const int n = ::min(4, a.src.width - x) * OC;
#pragma unroll
            for (int k = 0; k < 4 * OC; ++k)
                if (k < n) d[k] = static_cast<std::uint8_t>(out[r][k]);
        }
    }
}

template <int C, bool kGray, int kOp>
void launch_typed(const EdgesArgs& a, cudaStream_t stream) {
    const dim3 grid(static_cast<unsigned>(ceil_div(a.src.width, kTileW)),
                    static_cast<unsigned>(ceil_div(a.src.height, kTileH)));
    if (grid.y > 65535u) throw usage_error("edge filter", "the image is too tall for this GPU kernel");
    edges_kernel<C, kGray, kOp><<<grid, EdgesPolicy::kThreads, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("edges_kernel");
}

template <int C, bool kGray>
void launch_op(const EdgesArgs& a, cudaStream_t stream) {
    switch (static_cast<EdgeOperator>(a.op)) {
        case EdgeOperator::Scharr: launch_typed<C, kGray, static_cast<int>(EdgeOperator::Scharr)>(a, stream); break;
        case EdgeOperator::Laplacian:
            launch_typed<C, kGray, static_cast<int>(EdgeOperator::Laplacian)>(a, stream);
            break;
        default: launch_typed<C, kGray, static_cast<int>(EdgeOperator::Sobel)>(a, stream); break;
    }
}


}  // namespace

void launch_edges(const FilterCall& call, const DeviceLimits&) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    EdgesArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan);
    a.op = static_cast<int>(plan.edge_op);
    a.src_vec = rows_aligned(src.data, src.pitch, 16) ? 1 : 0;
    a.dst_words = rows_aligned(call.dst.data, call.dst.pitch, 4) ? 1 : 0;
    // Gray input is its own luma, so gray=true only changes RGB images.
    switch (src.channels) {
        case 1: launch_op<1, false>(a, call.stream); break;
        case 3:
            plan.edges_gray ? launch_op<3, true>(a, call.stream) : launch_op<3, false>(a, call.stream);
            break;
        default: throw_not_gray_or_rgb("edge filter", src.channels);
    }
}

}  // namespace imgpar::cuda::filter_detail
