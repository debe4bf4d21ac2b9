// Every filter on images with alpha (gray+alpha, RGBA): integer kernels on
// CUDA cores in the wide premultiplied domain of src/ops/wide_math.hpp
// (P = c * a, A = 255 * a, up to 65025), whose samples are too large for the
// FP16 / u8 tensor-core paths images without alpha take. All arithmetic on
// samples goes through the IMGPAR_HD functions the CPU reference calls, so
// the bytes match it exactly.
//
// Straightforward first, one thread per output (or per run of outputs):
//  - Gaussian and unsharp: a horizontal pass into a 16-bit scratch image of
//    lanes, then a vertical pass with the epilogue (unpremultiply, unsharp);
//  - box: running sums, a thread per run of kBoxRun pixels along a row (int32
//    row sums into scratch), then per run of rows down a column (int64);
//  - custom kernels: direct 2-D correlation with int64 sums;
//  - edges: the 3x3 operators on the P lanes (or their luma).
// Samples come through the read-only cache; neighbouring threads read
// neighbouring pixels, so most loads hit L1.

#include <algorithm>
#include <cmath>

#include "cuda/check.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "src/error.hpp"
#include "src/ops/wide_math.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

// Launch policy (reasoning, not yet measured: imgpar_bench --only alpha):
// 2-D blocks of 32 x 8 threads, x fastest so a warp reads one row segment;
// box runs of 32 samples, so starting a run's window costs at most one extra
// read per output at radius 15.
struct WidePolicy {
    static constexpr int kBlockX = 32;
    static constexpr int kBlockY = 8;
    static constexpr int kBoxRun = 32;
};
constexpr int kBoxRun = WidePolicy::kBoxRun;

constexpr int kMaxTaps = 2 * kMaxGaussianRadius + 1;
constexpr int kMaxCoeffs = kMaxKernelSide * kMaxKernelSide;

struct WideArgs {
    SrcArg src;
    DstArg dst;
    BorderMode mode;
    int border_value;
    int lanes;      // wide_lanes(channels, filters_alpha(kind))
    void* tmp;      // scratch lanes, width * lanes per row
    int radius;     // Gaussian, unsharp, box
    int amount_q8;  // unsharp
    int threshold_level;
    int op;         // edges: EdgeOperator
    int gray;       // edges: one lane, luma601 of the P lanes (gray+alpha: P itself)
    int kw, kh, ax, ay;  // custom
    double denominator;
    double offset;  // wide_offset(plan.offset)
};

struct WideTaps {
    int t[kMaxTaps];
};
struct WideCoeffs {
    int k[kMaxCoeffs];
};

// The wide lanes of pixel (x, y), any x and y: the border rule picks the
// pixel, a constant border reads a pixel whose every channel is the value.
template <int C>
__device__ __forceinline__ void fetch_lanes(const WideArgs& a, int x, int y, int (&v)[C]) {
    constexpr int colours = C - 1;
    const int yy = border_index(y, a.src.height, a.mode);
    const int xx = border_index(x, a.src.width, a.mode);
    int px[C];
    if (yy < 0 || xx < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) px[c] = a.border_value;
    } else {
        load_pixel_raw<C>(a.src, xx, yy, px);
    }
#pragma unroll
    for (int l = 0; l < C; ++l) v[l] = wide_lane(l, colours, px[l < colours ? l : 0], px[colours]);
}

__device__ __forceinline__ int grid_x() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }
__device__ __forceinline__ int grid_y() { return static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); }
__device__ __forceinline__ int grid_step_y() { return static_cast<int>(gridDim.y * blockDim.y); }

// Writes the pixel of a filter that filters alpha from its lanes P', A'.
template <int C>
__device__ __forceinline__ void store_filtered(const WideArgs& a, int x, int y, const int (&v)[C]) {
    constexpr int colours = C - 1;
    std::uint8_t* o = row_ptr(a.dst, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
    for (int c = 0; c < colours; ++c) o[c] = static_cast<std::uint8_t>(unpremultiply_filtered(v[c], v[colours]));
    o[colours] = static_cast<std::uint8_t>(alpha_byte(v[colours]));
}

// Writes the pixel of unsharp or edges from its `planes` colour results P'
// (before unsharp: the blur of P) and the pixel's own alpha, copied.
template <int C>
__device__ __forceinline__ void store_kept(const WideArgs& a, bool unsharp, int planes, int x, int y, const int* v) {
    constexpr int colours = C - 1;
    int px[C];
    load_pixel_raw<C>(a.src, x, y, px);
    const int al = px[colours];
    std::uint8_t* o = row_ptr(a.dst, y) + static_cast<std::size_t>(x) * (planes + 1);
    for (int c = 0; c < planes; ++c) {
        int p = v[c];
        if (unsharp) p = unsharp_output_wide(premultiply_wide(px[c], al), p, a.amount_q8, a.threshold_level);
        o[c] = static_cast<std::uint8_t>(unpremultiply_wide(p, alpha_wide(al)));
    }
    o[planes] = static_cast<std::uint8_t>(al);
}

// --- Gaussian and unsharp -------------------------------------------------------

// H = gaussian_round_wide(sum_i t[i] lane(x + i - r, y)) into 16-bit scratch.
template <int C>
__global__ void __launch_bounds__(256) wide_gaussian_rows(const __grid_constant__ WideArgs a,
                                                          const __grid_constant__ WideTaps taps) {
    const int x = grid_x();
    if (x >= a.src.width) return;
    std::uint16_t* tmp = static_cast<std::uint16_t*>(a.tmp);
    for (int y = grid_y(); y < a.src.height; y += grid_step_y()) {
        int sum[C] = {};
        for (int i = 0; i <= 2 * a.radius; ++i) {
            int v[C];
            fetch_lanes<C>(a, x + i - a.radius, y, v);
#pragma unroll
            for (int l = 0; l < C; ++l) sum[l] += taps.t[i] * v[l];
        }
        std::uint16_t* o = tmp + (static_cast<std::size_t>(y) * a.src.width + x) * a.lanes;
        for (int l = 0; l < a.lanes; ++l) o[l] = static_cast<std::uint16_t>(gaussian_round_wide(sum[l]));
    }
}

// out = gaussian_round_wide(sum_j t[j] H(x, y + j - r)); a row outside the
// image under a constant border is the constant lane itself.
template <int C>
__global__ void __launch_bounds__(256) wide_gaussian_columns(const __grid_constant__ WideArgs a,
                                                             const __grid_constant__ WideTaps taps, int unsharp) {
    constexpr int colours = C - 1;
    const int x = grid_x();
    if (x >= a.src.width) return;
    const std::uint16_t* tmp = static_cast<const std::uint16_t*>(a.tmp);
    for (int y = grid_y(); y < a.src.height; y += grid_step_y()) {
        int sum[C] = {};
        for (int j = 0; j <= 2 * a.radius; ++j) {
            const int yy = border_index(y + j - a.radius, a.src.height, a.mode);
            const std::uint16_t* h = yy < 0 ? nullptr : tmp + (static_cast<std::size_t>(yy) * a.src.width + x) * a.lanes;
#pragma unroll
            for (int l = 0; l < C; ++l) {
                if (l >= a.lanes) break;
                const int v = h ? __ldg(h + l) : wide_constant_lane(l, colours, a.border_value);
                sum[l] += taps.t[j] * v;
            }
        }
#pragma unroll
        for (int l = 0; l < C; ++l) sum[l] = gaussian_round_wide(sum[l]);
        if (unsharp)
            store_kept<C>(a, true, colours, x, y, sum);
        else
            store_filtered<C>(a, x, y, sum);
    }
}

// --- Box ----------------------------------------------------------------------

// Row sums of the (2R+1)-wide window, int32 (at most 2001 * 65025), a thread
// per run of kBoxRun pixels sliding the window along.
template <int C>
__global__ void __launch_bounds__(256) wide_box_rows(const __grid_constant__ WideArgs a) {
    const int x0 = grid_x() * kBoxRun;
    if (x0 >= a.src.width) return;
    const int x1 = min(x0 + kBoxRun, a.src.width);
    const int R = a.radius;
    std::int32_t* tmp = static_cast<std::int32_t*>(a.tmp);
    for (int y = grid_y(); y < a.src.height; y += grid_step_y()) {
        int sum[C] = {};
        int v[C], u[C];
        for (int i = x0 - R; i <= x0 + R; ++i) {
            fetch_lanes<C>(a, i, y, v);
#pragma unroll
            for (int l = 0; l < C; ++l) sum[l] += v[l];
        }
        for (int x = x0; x < x1; ++x) {
            std::int32_t* o = tmp + (static_cast<std::size_t>(y) * a.src.width + x) * C;
#pragma unroll
            for (int l = 0; l < C; ++l) o[l] = sum[l];
            if (x + 1 < x1) {
                fetch_lanes<C>(a, x + 1 + R, y, v);
                fetch_lanes<C>(a, x - R, y, u);
#pragma unroll
                for (int l = 0; l < C; ++l) sum[l] += v[l] - u[l];
            }
        }
    }
}

// Column sums of the row sums (int64), a thread per column and run of rows,
// and the epilogue.
template <int C>
__global__ void __launch_bounds__(256) wide_box_columns(const __grid_constant__ WideArgs a) {
    constexpr int colours = C - 1;
    const int x = grid_x();
    if (x >= a.src.width) return;
    const int R = a.radius, side = 2 * R + 1, n = side * side;
    const std::int32_t* tmp = static_cast<const std::int32_t*>(a.tmp);
    auto row_sums = [&](int y, std::int64_t (&s)[C], int sign) {
        const int yy = border_index(y, a.src.height, a.mode);
        const std::int32_t* h = yy < 0 ? nullptr : tmp + (static_cast<std::size_t>(yy) * a.src.width + x) * C;
#pragma unroll
        for (int l = 0; l < C; ++l)
            s[l] += sign * static_cast<std::int64_t>(h ? __ldg(h + l) : side * wide_constant_lane(l, colours, a.border_value));
    };
    for (int y0 = grid_y() * kBoxRun; y0 < a.src.height; y0 += grid_step_y() * kBoxRun) {
        const int y1 = min(y0 + kBoxRun, a.src.height);
        std::int64_t sum[C] = {};
        for (int j = y0 - R; j <= y0 + R; ++j) row_sums(j, sum, 1);
        for (int y = y0; y < y1; ++y) {
            int v[C];
#pragma unroll
            for (int l = 0; l < C; ++l) v[l] = box_output_wide(sum[l], n);
            store_filtered<C>(a, x, y, v);
            if (y + 1 < y1) {
                row_sums(y + 1 + R, sum, 1);
                row_sums(y - R, sum, -1);
            }
        }
    }
}

// --- Custom kernels -----------------------------------------------------------

template <int C>
__global__ void __launch_bounds__(256) wide_custom(const __grid_constant__ WideArgs a,
                                                   const __grid_constant__ WideCoeffs k) {
    const int x = grid_x();
    if (x >= a.src.width) return;
    for (int y = grid_y(); y < a.src.height; y += grid_step_y()) {
        std::int64_t sum[C] = {};
        for (int j = 0; j < a.kh; ++j)
            for (int i = 0; i < a.kw; ++i) {
                const int kv = k.k[j * a.kw + i];
                if (kv == 0) continue;
                int v[C];
                fetch_lanes<C>(a, x + i - a.ax, y + j - a.ay, v);
#pragma unroll
                for (int l = 0; l < C; ++l) sum[l] += static_cast<std::int64_t>(kv) * v[l];
            }
        int v[C];
#pragma unroll
        for (int l = 0; l < C; ++l) v[l] = custom_value(static_cast<double>(sum[l]), a.denominator, a.offset, kWideTop);
        store_filtered<C>(a, x, y, v);
    }
}

// --- Edges --------------------------------------------------------------------

// gx (or the Laplacian) and gy of each colour lane, or of the luma lane.
template <int C>
__global__ void __launch_bounds__(256) wide_edges(const __grid_constant__ WideArgs a) {
    constexpr int colours = C - 1;
    const int x = grid_x();
    if (x >= a.src.width) return;
    const EdgeOperator op = static_cast<EdgeOperator>(a.op);
    const int wa = op == EdgeOperator::Scharr ? 3 : 1, wb = op == EdgeOperator::Scharr ? 10 : 2;
    const int planes = a.gray ? 1 : colours;
    for (int y = grid_y(); y < a.src.height; y += grid_step_y()) {
        int gx[colours] = {}, gy[colours] = {};
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i) {
                int v[C];
                fetch_lanes<C>(a, x + i - 1, y + j - 1, v);
                if (a.gray && colours == 3) v[0] = luma601(v[0], v[1], v[2]);
                // Sobel/Scharr: gx = [-a 0 a; -b 0 b; -a 0 a], gy its transpose;
                // Laplacian [0 1 0; 1 -4 1; 0 1 0] in gx.
                int kx, ky;
                if (op == EdgeOperator::Laplacian) {
                    kx = (i == 1 && j == 1) ? -4 : ((i == 1) != (j == 1) ? 1 : 0);
                    ky = 0;
                } else {
                    kx = (i - 1) * (j == 1 ? wb : wa);
                    ky = (j - 1) * (i == 1 ? wb : wa);
                }
#pragma unroll
                for (int c = 0; c < colours; ++c) {
                    gx[c] += kx * v[c];
                    gy[c] += ky * v[c];
                }
            }
        int out[colours];
#pragma unroll
        for (int c = 0; c < colours; ++c) out[c] = edge_output_wide(op, gx[c], gy[c]);
        store_kept<C>(a, false, planes, x, y, out);
    }
}

// --- Launch -------------------------------------------------------------------

dim3 grid_for(int width, int height, int per_thread_x, int per_thread_y) {
    const int gx = ceil_div(ceil_div(width, per_thread_x), WidePolicy::kBlockX);
    const int gy = std::min(ceil_div(ceil_div(height, per_thread_y), WidePolicy::kBlockY), 65535);
    return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
}

template <int C>
void launch_channels(const FilterPlan& plan, WideArgs a, cudaStream_t stream) {
    const dim3 block(WidePolicy::kBlockX, WidePolicy::kBlockY);
    const dim3 grid = grid_for(a.src.width, a.src.height, 1, 1);
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: {
            WideTaps taps{};
            for (std::size_t i = 0; i < plan.taps.size(); ++i) taps.t[i] = plan.taps[i];
            wide_gaussian_rows<C><<<grid, block, 0, stream>>>(a, taps);
            IMGPAR_CUDA_CHECK_LAUNCH("wide_gaussian_rows");
            wide_gaussian_columns<C><<<grid, block, 0, stream>>>(a, taps, plan.kind == FilterKind::Unsharp ? 1 : 0);
            IMGPAR_CUDA_CHECK_LAUNCH("wide_gaussian_columns");
            break;
        }
        case FilterKind::Box:
            wide_box_rows<C><<<grid_for(a.src.width, a.src.height, kBoxRun, 1), block, 0, stream>>>(a);
            IMGPAR_CUDA_CHECK_LAUNCH("wide_box_rows");
            wide_box_columns<C><<<grid_for(a.src.width, a.src.height, 1, kBoxRun), block, 0, stream>>>(a);
            IMGPAR_CUDA_CHECK_LAUNCH("wide_box_columns");
            break;
        case FilterKind::Custom: {
            WideCoeffs k{};
            for (std::size_t i = 0; i < plan.coeffs.size(); ++i) k.k[i] = plan.coeffs[i];
            wide_custom<C><<<grid, block, 0, stream>>>(a, k);
            IMGPAR_CUDA_CHECK_LAUNCH("wide_custom");
            break;
        }
        case FilterKind::Edges:
            wide_edges<C><<<grid, block, 0, stream>>>(a);
            IMGPAR_CUDA_CHECK_LAUNCH("wide_edges");
            break;
    }
}

}  // namespace

std::size_t wide_scratch_bytes(const FilterPlan& plan, int width, int height, int channels) {
    if (!has_alpha(channels)) return 0;
    const std::size_t lanes = static_cast<std::size_t>(wide_lanes(channels, filters_alpha(plan.kind)));
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: return pixels * lanes * sizeof(std::uint16_t);
        case FilterKind::Box: return pixels * lanes * sizeof(std::int32_t);
        default: return 0;
    }
}

const char* wide_name(const FilterPlan& plan) {
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: return "wide integer separable (alpha images, 16-bit premultiplied)";
        case FilterKind::Box: return "wide integer box running sums (alpha images, 16-bit premultiplied)";
        case FilterKind::Custom: return "wide integer 2-D correlation (alpha images, 16-bit premultiplied)";
        case FilterKind::Edges: break;
    }
    return "wide integer 3x3 edges (alpha images, 16-bit premultiplied)";
}

void launch_wide(const FilterCall& call) {
    const FilterPlan& plan = *call.plan;
    WideArgs a{};
    a.src = src_arg(call.src);
    a.dst = dst_arg(call.dst);
    a.mode = plan.border.mode;
    a.border_value = plan.border.value;
    a.lanes = wide_lanes(call.src.channels, filters_alpha(plan.kind));
    a.tmp = call.scratch;
    a.radius = plan.radius;
    a.amount_q8 = plan.amount_q8;
    a.threshold_level = plan.threshold_level;
    a.op = static_cast<int>(plan.edge_op);
    a.gray = plan.edges_gray ? 1 : 0;
    a.kw = plan.kernel_width;
    a.kh = plan.kernel_height;
    a.ax = plan.anchor_x;
    a.ay = plan.anchor_y;
    a.denominator = std::ldexp(plan.scale, plan.frac_bits);
    a.offset = wide_offset(plan.offset);
    if (call.scratch_bytes < wide_scratch_bytes(plan, call.src.width, call.src.height, call.src.channels))
        throw device_error("filter", "the workspace is smaller than the wide kernels need");
    if (call.src.channels == 2)
        launch_channels<2>(plan, a, call.stream);
    else
        launch_channels<4>(plan, a, call.stream);
}

}  // namespace imgpar::cuda::filter_detail
