// Box (mean) filter with running sums, so the cost per output does not grow
// with the radius (the contract allows radii up to 1000):
//   1. vertical pass: each thread owns 4 byte columns and a chunk of rows and
//      slides a (2R+1)-row window down them (add the row entering, subtract
//      the row leaving), writing column sums V to a scratch image (16-bit
//      while (2R+1)*255 fits, else 32-bit);
//   2. horizontal pass: a block loads a row segment of V plus R columns each
//      side (border rule), turns it into prefix sums with a block scan, and
//      each output is the difference of two prefix sums.
// All integer, so the window sum S is exact; out = box_output(S, (2R+1)^2).
// Radii up to kBoxFusedMaxRadius run the one-pass kernel of
// cuda/filter_box_fused.cu instead. Gray and RGB images (images with alpha
// run cuda/filter_wide.cu).

#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

struct BoxArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int radius;
    int count;               // (2R+1)^2
    void* tmp;               // column sums V, interleaved like the source
    std::size_t tmp_pitch;   // elements per row
    int chunk_rows;          // vertical pass: rows per thread
    int seg_px;              // horizontal pass: output pixels per block
    int ext;                 // seg_px + 2R + 1: V columns a segment reads
    int rows_per_block;      // horizontal pass
    int src_words;           // source rows readable as aligned 32-bit words
};

// Launch policy. Chosen by reasoning, not yet by measurement (imgpar_bench
// --only box):
//  - vertical pass: 128 threads x 4 byte columns = 512 bytes of a row per
//    block (coalesced 32-bit loads); chunks of max(64, 2R+1) rows, so starting
//    a chunk's window (2R+1 row reads) costs at most one extra read per output;
//  - horizontal pass: 256 threads scan a segment of 1024 pixels (2048 beyond
//    R = 128, so the 2R halo stays under 2x) per row, 4 rows per block so
//    launches stay few on 8K images.
struct BoxPolicy {
    static constexpr int kVertThreads = 128;
    static constexpr int kMinChunkRows = 64;
    static constexpr int kHorzThreads = 256;
    static constexpr int kSegPx = 1024;
    static constexpr int kSegPxLarge = 2048;  // for R > 128
    static constexpr int kRowsPerBlock = 4;
};
constexpr int kVertThreads = BoxPolicy::kVertThreads;
constexpr int kHorzThreads = BoxPolicy::kHorzThreads;
constexpr int kHorzWarps = kHorzThreads / 32;

// The 4 samples of bytes 4q..4q+3 (nb of them valid) of image row y (border
// rule).
template <int C>
__device__ __forceinline__ void row_word(const BoxArgs& a, int y, int q, int nb, int (&v)[4]) {
    const int yy = border_index(y, a.src.height, a.border.mode);
    if (yy < 0) {
#pragma unroll
        for (int e = 0; e < 4; ++e) v[e] = a.border.constant[(4 * q + e) % C];
        return;
    }
    const std::uint8_t* p = row_ptr(a.src, yy) + 4 * q;
    if (nb == 4 && a.src_words) {
        const std::uint32_t w = __ldg(reinterpret_cast<const std::uint32_t*>(p));
#pragma unroll
        for (int e = 0; e < 4; ++e) v[e] = byte_of(w, e);
    } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) v[e] = e < nb ? __ldg(p + e) : 0;
    }
}

template <typename T>
__device__ __forceinline__ void store_sums(T* out, int nb, const int (&s)[4]) {
    if constexpr (sizeof(T) == 2) {
        if (nb == 4) {
            *reinterpret_cast<uint2*>(out) = make_uint2(static_cast<unsigned>(s[0]) | (static_cast<unsigned>(s[1]) << 16),
                                                        static_cast<unsigned>(s[2]) | (static_cast<unsigned>(s[3]) << 16));
            return;
        }
    } else {
        if (nb == 4) {
            *reinterpret_cast<uint4*>(out) = make_uint4(static_cast<unsigned>(s[0]), static_cast<unsigned>(s[1]),
                                                        static_cast<unsigned>(s[2]), static_cast<unsigned>(s[3]));
            return;
        }
    }
    for (int e = 0; e < nb; ++e) out[e] = static_cast<T>(s[e]);
}

template <int C, typename T>
__global__ void __launch_bounds__(kVertThreads) box_vertical(const __grid_constant__ BoxArgs a) {
    const int rb = a.src.width * C;
    const int q = blockIdx.x * kVertThreads + threadIdx.x;
    if (4 * q >= rb) return;
    const int nb = min(4, rb - 4 * q);
    const int R = a.radius;
    for (int yb = blockIdx.y * a.chunk_rows; yb < a.src.height; yb += gridDim.y * a.chunk_rows) {
        const int ye = min(yb + a.chunk_rows, a.src.height);
        int s[4] = {0, 0, 0, 0};
        int v[4];
        for (int j = -R; j <= R; ++j) {
            row_word<C>(a, yb + j, q, nb, v);
#pragma unroll
            for (int e = 0; e < 4; ++e) s[e] += v[e];
        }
        T* out = static_cast<T*>(a.tmp) + static_cast<std::size_t>(yb) * a.tmp_pitch + 4 * q;
        for (int y = yb; y < ye; ++y, out += a.tmp_pitch) {
            store_sums<T>(out, nb, s);
            if (y + 1 < ye) {
                int vin[4];
                row_word<C>(a, y + R + 1, q, nb, vin);
                row_word<C>(a, y - R, q, nb, v);
#pragma unroll
                for (int e = 0; e < 4; ++e) s[e] += vin[e] - v[e];
            }
        }
    }
}

// Exclusive prefix sums, in place, of C planes of n values each (plane c at
// p + c * n), modulo 2^32: differences of two prefixes are exact window sums.
template <int C>
__device__ void block_exclusive_scan(std::uint32_t* p, int n) {
    __shared__ std::uint32_t warp_tot[kMaxC * kHorzWarps];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int per = (n + kHorzThreads - 1) / kHorzThreads;
    const int b = min(static_cast<int>(threadIdx.x) * per, n);
    const int e = min(b + per, n);
    std::uint32_t tot[C];
    std::uint32_t inc[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        std::uint32_t s = 0;
        for (int i = b; i < e; ++i) s += p[c * n + i];
        tot[c] = s;
        inc[c] = s;
    }
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const std::uint32_t up = __shfl_up_sync(0xFFFFFFFFu, inc[c], d);
            if (lane >= d) inc[c] += up;
        }
    }
    if (lane == 31) {
#pragma unroll
        for (int c = 0; c < C; ++c) warp_tot[c * kHorzWarps + warp] = inc[c];
    }
    __syncthreads();
    if (warp == 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const std::uint32_t x = lane < kHorzWarps ? warp_tot[c * kHorzWarps + lane] : 0u;
            std::uint32_t s = x;
#pragma unroll
            for (int d = 1; d < 32; d <<= 1) {
                const std::uint32_t up = __shfl_up_sync(0xFFFFFFFFu, s, d);
                if (lane >= d) s += up;
            }
            if (lane < kHorzWarps) warp_tot[c * kHorzWarps + lane] = s - x;
        }
    }
    __syncthreads();
#pragma unroll
    for (int c = 0; c < C; ++c) {
        std::uint32_t run = warp_tot[c * kHorzWarps + warp] + inc[c] - tot[c];
        for (int i = b; i < e; ++i) {
            const std::uint32_t v = p[c * n + i];
            p[c * n + i] = run;
            run += v;
        }
    }
    __syncthreads();
}

template <int C, typename T>
__global__ void __launch_bounds__(kHorzThreads) box_horizontal(const __grid_constant__ BoxArgs a) {
    extern __shared__ __align__(16) std::uint32_t psum[];  // C planes of `ext` prefix sums
    const int R = a.radius;
    const int n = a.ext;
    const int W = a.src.width;
    const int x0 = blockIdx.x * a.seg_px;
    const T* tmp = static_cast<const T*>(a.tmp);
    for (int yb = blockIdx.y * a.rows_per_block; yb < a.src.height; yb += gridDim.y * a.rows_per_block) {
        const int ye = min(yb + a.rows_per_block, a.src.height);
        for (int y = yb; y < ye; ++y) {
            const T* row = tmp + static_cast<std::size_t>(y) * a.tmp_pitch;
            for (int i = threadIdx.x; i < n; i += kHorzThreads) {
                const int xx = border_index(x0 - R + i, W, a.border.mode);
#pragma unroll
                for (int c = 0; c < C; ++c)
                    psum[c * n + i] = xx < 0 ? static_cast<std::uint32_t>((2 * R + 1) * a.border.constant[c])
                                             : static_cast<std::uint32_t>(row[static_cast<std::size_t>(xx) * C + c]);
            }
            __syncthreads();
            block_exclusive_scan<C>(psum, n);
            std::uint8_t* out = row_ptr(a.dst, y);
            for (int o = threadIdx.x; o < a.seg_px && x0 + o < W; o += kHorzThreads) {
                int v[C];
#pragma unroll
                for (int c = 0; c < C; ++c)
                    v[c] = box_output(static_cast<int>(psum[c * n + o + 2 * R + 1] - psum[c * n + o]), a.count);
                std::uint8_t* px = out + static_cast<std::size_t>(x0 + o) * C;
#pragma unroll
                for (int c = 0; c < C; ++c) px[c] = static_cast<std::uint8_t>(v[c]);
            }
            __syncthreads();
        }
    }
}

bool use_16bit(int radius) { return (2 * radius + 1) * 255 <= 0xFFFF; }

std::size_t tmp_pitch_elements(int width, int channels) {
    return round_up(static_cast<std::size_t>(width) * channels, 64);
}

template <int C, typename T>
void launch_typed(BoxArgs a, cudaStream_t stream, const DeviceLimits& dev) {
    const int R = a.radius;
    // Vertical pass.
    a.chunk_rows =
        static_cast<int>(round_up(static_cast<std::size_t>(std::max(BoxPolicy::kMinChunkRows, 2 * R + 1)), 32));
    const int words = ceil_div(a.src.width * C, 4);
    const dim3 vgrid(static_cast<unsigned>(ceil_div(words, kVertThreads)),
                     static_cast<unsigned>(std::min(ceil_div(a.src.height, a.chunk_rows), 65535)));
    box_vertical<C, T><<<vgrid, kVertThreads, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("box_vertical");

    // Horizontal pass: the widest segment that fits, but no wider than the image.
    int seg = R <= 128 ? BoxPolicy::kSegPx : BoxPolicy::kSegPxLarge;
    seg = std::min(seg, static_cast<int>(round_up(static_cast<std::size_t>(a.src.width), 32)));
    auto smem_for = [&](int s) { return static_cast<std::size_t>(C) * static_cast<std::size_t>(s + 2 * R + 1) * 4; };
    while (seg > 32 && smem_for(seg) > static_cast<std::size_t>(dev.max_smem_optin)) seg /= 2;
    if (smem_for(seg) > static_cast<std::size_t>(dev.max_smem_optin))
        throw device_error("box filter", "radius " + std::to_string(R) + " needs more shared memory than this GPU has");
    a.seg_px = seg;
    a.ext = seg + 2 * R + 1;
    a.rows_per_block = BoxPolicy::kRowsPerBlock;
    const std::size_t smem = smem_for(seg);
    allow_dynamic_smem(reinterpret_cast<const void*>(&box_horizontal<C, T>), smem);
    const dim3 hgrid(static_cast<unsigned>(ceil_div(a.src.width, seg)),
                     static_cast<unsigned>(std::min(ceil_div(a.src.height, a.rows_per_block), 65535)));
    box_horizontal<C, T><<<hgrid, kHorzThreads, smem, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("box_horizontal");
}

template <int C>
void launch_channels(const BoxArgs& a, cudaStream_t stream, const DeviceLimits& dev) {
    if (use_16bit(a.radius))
        launch_typed<C, std::uint16_t>(a, stream, dev);
    else
        launch_typed<C, std::uint32_t>(a, stream, dev);
}

}  // namespace

std::size_t box_scratch_bytes(const FilterPlan& plan, int width, int height, int channels) {
    if (box_runs_fused(plan.radius, channels)) return 0;
    if (has_alpha(channels)) return wide_scratch_bytes(plan, width, height, channels);
    const std::size_t elem = use_16bit(plan.radius) ? 2 : 4;
    return tmp_pitch_elements(width, channels) * static_cast<std::size_t>(height) * elem;
}

const char* box_name(const FilterPlan& plan, int channels) {
    if (box_runs_fused(plan.radius, channels))
        return has_alpha(channels) ? "box running sums in one pass (column windows in registers, row prefix sums in "
                                     "shared memory; alpha images, 16-bit premultiplied)"
                                   : "box running sums in one pass (column windows in registers, row prefix sums in "
                                     "shared memory)";
    return has_alpha(channels) ? wide_name(plan)
                               : "box running sums (column windows, then row prefix sums)";
}

const char* launch_box(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    if (box_runs_fused(plan.radius, src.channels)) {
        launch_box_fused(call);
        return box_name(plan, src.channels);
    }
    if (has_alpha(src.channels)) {
        launch_wide(call);
        return box_name(plan, src.channels);
    }
    BoxArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan);
    a.radius = plan.radius;
    a.count = (2 * plan.radius + 1) * (2 * plan.radius + 1);
    a.tmp = call.scratch;
    a.tmp_pitch = tmp_pitch_elements(src.width, src.channels);
    a.src_words = rows_aligned(src.data, src.pitch, 4) ? 1 : 0;
    switch (src.channels) {
        case 1: launch_channels<1>(a, call.stream, dev); break;
        case 3: launch_channels<3>(a, call.stream, dev); break;
        default: throw_not_gray_or_rgb("box filter", src.channels);
    }
    return box_name(plan, src.channels);
}

}  // namespace imgpar::cuda::filter_detail
