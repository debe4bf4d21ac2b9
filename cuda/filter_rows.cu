// Small windows slid down rows on the CUDA cores: the 3x3 edge operators
// (Sobel, Scharr, Laplacian), Gaussians of trimmed radius <= 3 with any taps
// (blur and unsharp) and custom kernels that fit a 7x7 square centred on
// their anchor. Gray and RGB images (alpha: filter_wide.cu).
//
// Each is a handful of operations a byte, so the pass should cost about a
// read and a write of the image, where the tiled kernels stage tiles with
// halos through shared memory behind block barriers. So far it does not: in
// its first measurement (bench/TUNING.md, "Rows kernels") it was exact but
// 1.5-2.6x slower than the kernels Auto runs, and slower the longer a warp's
// strip, so Auto takes it only when asked (cuda/filter_dispatch.cpp) until a
// profile shows where each row's time goes. Each warp works alone, with no
// barrier:
//  - A warp owns 480 consecutive samples of a row stream (the row's bytes,
//    or for gray edges of an RGB image its luma) and a strip of rows. Lane l
//    holds samples 16(l-1) .. 16l-1 of the warp's span; lanes 1-30 write
//    theirs, lanes 0 and 31 only lend their samples to their neighbours
//    through shuffles (at most 12 samples a side: radius 3 of RGB is 9).
//  - Rows come through a ring of stages in shared memory, kAhead rows ahead,
//    as 16-byte cp.async copies (per lane, so only that lane reads them back,
//    after cp.async.wait_group): chunks that leave the image or rows that are
//    not 16-byte aligned are filled through the border rule instead.
//  - Each row's horizontal pass goes into a ring of 2R+1 rows in registers
//    (the row loop is unrolled by 2R+1, so the ring needs no indexing); once
//    it holds a window, the vertical pass writes the row R above.
// The arithmetic is the contract's (src/ops/filter.hpp) on exact integers:
// the Gaussian's and custom kernels' sums in FP32 (every partial sum is below
// 2^24), each (sum + add) >> shift as an exact scale, add and round down, the
// custom levels through the plan's CustomLevels; the edges in 32-bit integers.

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "cuda/check.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_mma.cuh"
#include "cuda/occupancy.hpp"
#include "src/error.hpp"
#include "src/ops/custom_levels.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

constexpr int kLaneSamples = 16;
constexpr int kWarpSpan = 30 * kLaneSamples;  // samples a warp writes
constexpr int kWarps = 4;                     // per block
constexpr int kThreads = 32 * kWarps;
constexpr int kAhead = 6;                     // rows in flight per warp
constexpr int kMinStripRows = 16;
constexpr int kMaxSquare = 2 * kSmallRadiusMax + 1;  // custom kernels up to 7x7

struct RowsArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int samples;     // samples a row: width * C, or width for luma
    int strip_rows;  // output rows a warp slides down (strip_rows())
    int src_vec;     // source rows 16-byte aligned
    int dst_vec;     // destination rows 16-byte aligned
    SepMode mode;    // Gaussian: blur or unsharp
    UnsharpArg unsharp;
    // Gaussian: the 2R+1 trimmed taps; custom: the K x K coefficients
    // (row-major, the plan's kernel centred in the square, zeros around it).
    float w[kMaxSquare * kMaxSquare];
    // Custom: CustomLevels of the plan (the block copies the bounds to shared memory).
    std::int32_t bound[257];
    bool level_negate;
    float level_inverse;
    float level_offset;
};

// --- Loading a lane's chunk -------------------------------------------------

// Byte (sample) x of row yy (-1: a constant-border row) of a C-channel row,
// any x, through the border rule.
template <int C>
__device__ __noinline__ std::uint32_t border_word(const RowsArgs& a, int yy, int x) {
    std::uint32_t w = 0;
    for (int e = 0; e < 4; ++e) {
        const int xe = x + e;
        const int px = xe >= 0 ? xe / C : -((-xe + C - 1) / C);
        const int ch = xe - px * C;
        const int mx = border_index(px, a.src.width, a.border.mode);
        const int v = (yy < 0 || mx < 0) ? a.border.constant[ch] : __ldg(row_ptr(a.src, yy) + mx * C + ch);
        w |= static_cast<std::uint32_t>(v) << (8 * e);
    }
    return w;
}

// Where a warp keeps its rows: kStages stages of 32 lanes x kChunkBytes.
template <int C, bool kLuma>
struct Stage {
    static constexpr int kChunkBytes = kLuma ? 3 * kLaneSamples : kLaneSamples;
    static constexpr int kVectors = kChunkBytes / 16;
};

// Starts lane `lane`'s copy of input row t (image row yy, or -1 for a constant
// row) into its stage slot: cp.async where the chunk is inside an aligned row,
// else the border rule's bytes stored directly. x0: the chunk's first sample.
template <int C, bool kLuma>
__device__ __forceinline__ void load_chunk(const RowsArgs& a, std::uint8_t* slot, int lane, int yy, int x0) {
    using S = Stage<C, kLuma>;
    const int first = kLuma ? 3 * x0 : x0;  // first byte
    const int bytes = a.src.width * C;
    if (a.src_vec && yy >= 0 && first >= 0 && first + S::kChunkBytes <= bytes) {
        const std::uint8_t* p = row_ptr(a.src, yy) + first;
#pragma unroll
        for (int v = 0; v < S::kVectors; ++v) cp_async<16>(slot + (v * 32 + lane) * 16, p + 16 * v);
        return;
    }
    if (x0 - kLaneSamples >= a.samples || x0 + 2 * kLaneSamples <= 0) return;  // no neighbour reads it
#pragma unroll 1
    for (int v = 0; v < S::kVectors; ++v) {
        uint4 q;
        q.x = border_word<C>(a, yy, first + 16 * v);
        q.y = border_word<C>(a, yy, first + 16 * v + 4);
        q.z = border_word<C>(a, yy, first + 16 * v + 8);
        q.w = border_word<C>(a, yy, first + 16 * v + 12);
        *reinterpret_cast<uint4*>(slot + (v * 32 + lane) * 16) = q;
    }
}

// The lane's 16 samples of a staged row as 4 words (luma from RGB bytes).
template <int C, bool kLuma>
__device__ __forceinline__ void read_chunk(const std::uint8_t* slot, int lane, std::uint32_t (&w)[4]) {
    const uint4 q0 = *reinterpret_cast<const uint4*>(slot + lane * 16);
    if constexpr (!kLuma) {
        w[0] = q0.x, w[1] = q0.y, w[2] = q0.z, w[3] = q0.w;
    } else {
        const uint4 q1 = *reinterpret_cast<const uint4*>(slot + (32 + lane) * 16);
        const uint4 q2 = *reinterpret_cast<const uint4*>(slot + (64 + lane) * 16);
        const std::uint32_t u[12] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w, q2.x, q2.y, q2.z, q2.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {  // pixels 4k .. 4k+3: bytes 12k .. 12k+11
            std::uint32_t px[3] = {u[3 * k], u[3 * k + 1], u[3 * k + 2]};
            std::uint32_t planes[4];
            deinterleave<3>(px, planes);
            int l[4];
#pragma unroll
            for (int e = 0; e < 4; ++e) l[e] = luma601(byte_of(planes[0], e), byte_of(planes[1], e), byte_of(planes[2], e));
            w[k] = pack4(l[0], l[1], l[2], l[3]);
        }
    }
}

// The lane's samples with H of its neighbours' on each side: word k of
// e[] holds samples 4(k - kSideWords) .. +3 of the lane's chunk.
template <int H>
struct Extended {
    static constexpr int kSideWords = (H + 3) / 4;
    std::uint32_t e[4 + 2 * kSideWords];
    __device__ __forceinline__ void fill(const std::uint32_t (&w)[4]) {
#pragma unroll
        for (int k = 0; k < kSideWords; ++k) {
            e[k] = __shfl_up_sync(0xFFFFFFFFu, w[4 - kSideWords + k], 1);
            e[kSideWords + 4 + k] = __shfl_down_sync(0xFFFFFFFFu, w[k], 1);
        }
#pragma unroll
        for (int k = 0; k < 4; ++k) e[kSideWords + k] = w[k];
    }
    // Sample j of the chunk, -H <= j < 16 + H.
    __device__ __forceinline__ int sample(int j) const {
        const int b = j + 4 * kSideWords;
        return static_cast<int>(__byte_perm(e[b / 4], 0u, 0x4440 + (b % 4)));
    }
    // The same as an exact float: 2^23 + s in the mantissa, less 2^23.
    __device__ __forceinline__ float sample_f(int j) const {
        const int b = j + 4 * kSideWords;
        return __uint_as_float(__byte_perm(e[b / 4], 0x4B000000u, 0x7440 + (b % 4))) - 8388608.0f;
    }
    // Samples -H .. 15 + H, each converted once (element t is sample t - H).
    static constexpr int kSpan = 16 + 2 * H;
    __device__ __forceinline__ void samples(int (&v)[kSpan]) const {
#pragma unroll
        for (int t = 0; t < kSpan; ++t) v[t] = sample(t - H);
    }
    __device__ __forceinline__ void samples_f(float (&v)[kSpan]) const {
#pragma unroll
        for (int t = 0; t < kSpan; ++t) v[t] = sample_f(t - H);
    }
};

// floor(v) + 2^23 for 0 <= v < 2^23, as a float whose low mantissa bits are
// floor(v): an add rounded down, exact for these operands.
__device__ __forceinline__ float floor_biased(float v) { return __fadd_rd(v, 8388608.0f); }

// --- The operators ------------------------------------------------------------

// Every operator takes input rows one by one into a state of K = 2R+1 rows
// of 16 values in registers: push() takes the row of ring slot j (input row i,
// j = i % K), output_word() gives word q of the output row whose window ends
// there (rows i - 2R .. i; the kernel calls it once i >= 2R).

// A separable operator's state: the horizontal values of the last K rows.
template <int R, class V>
struct HorizontalRing {
    static constexpr int K = 2 * R + 1;
    V ring[K][16];
};

// The Gaussian of trimmed radius R: the horizontal value H (0..2040, exact)
// per sample, then out = (sum t H + 16384) >> 15.
template <int R>
struct GaussianOp {
    static constexpr int kRadius = R;
    using State = HorizontalRing<R, float>;
    template <int S>
    static __device__ __forceinline__ void push(const RowsArgs& a, const Extended<S * R>& x, State& st, int j) {
        float v[Extended<S * R>::kSpan];
        x.samples_f(v);
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            float s = 0.0f;
#pragma unroll
            for (int k = 0; k <= 2 * R; ++k) s = fmaf(a.w[k], v[i + S * k], s);
            // (s + 256) >> 9: s * 2^-9 + 0.5 is exact (s < 2^20), then floor.
            st.ring[j][i] = floor_biased(fmaf(s, 1.0f / 512.0f, 0.5f)) - 8388608.0f;
        }
    }
    static __device__ __forceinline__ std::uint32_t output_word(const RowsArgs& a, const State& st, int j, int q) {
        constexpr int K = 2 * R + 1;
        std::uint32_t b[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            float s = 0.0f;
#pragma unroll
            for (int k = 0; k < K; ++k) s = fmaf(a.w[k], st.ring[(j + 1 + k) % K][4 * q + e], s);
            b[e] = __float_as_uint(floor_biased(fmaf(s, 1.0f / 32768.0f, 0.5f)));  // low byte: the output
        }
        return __byte_perm(__byte_perm(b[0], b[1], 0x0040), __byte_perm(b[2], b[3], 0x0040), 0x5410);
    }
};

// A custom kernel centred in a K x K square (K = 2R+1): the sums of the
// output rows whose windows are open, accumulated as rows arrive (output
// row o, in slot o % K, takes kernel row i - o from input row i). Every
// partial sum is an integer below 2^24 in magnitude, exact in FP32; the
// level comes from the plan's CustomLevels (src/ops/custom_levels.hpp).
template <int R>
struct CustomOp {
    static constexpr int kRadius = R;
    static constexpr int K = 2 * R + 1;
    struct State {
        float acc[K][16];
        const std::int32_t* bound;  // in shared memory
    };
    template <int S>
    static __device__ __forceinline__ void push(const RowsArgs& a, const Extended<S * R>& x, State& st, int j) {
        float s[Extended<S * R>::kSpan];
        x.samples_f(s);
#pragma unroll
        for (int kr = 0; kr < K; ++kr) {  // kernel row kr: output slot (j - kr) % K
            float(&acc)[16] = st.acc[(j - kr + K) % K];
#pragma unroll
            for (int i = 0; i < 16; ++i) {
                float v = kr == 0 ? 0.0f : acc[i];
#pragma unroll
                for (int kc = 0; kc < K; ++kc) v = fmaf(a.w[kr * K + kc], s[i + S * kc], v);
                acc[i] = v;
            }
        }
    }
    static __device__ __forceinline__ std::uint32_t output_word(const RowsArgs& a, const State& st, int j, int q) {
        const float(&acc)[16] = st.acc[(j + 1) % K];
        int o[4];
#pragma unroll
        for (int e = 0; e < 4; ++e)
            o[e] = custom_level(static_cast<int>(acc[4 * q + e]), st.bound, a.level_negate, a.level_inverse,
                                a.level_offset);
        return pack4(o[0], o[1], o[2], o[3]);
    }
};

// The 3x3 operators, per sample of the middle row: horizontal smoothing a and
// difference d packed as a * 2^16 + d (Sobel, Scharr), or the row's
// Laplacian part h and the sample s as h * 2^16 + s. Sums of packed values
// keep each part: the low one is read back sign-extended (|part| < 2^15), the
// high one after removing it.
template <int kOp>
struct EdgeOp {
    static constexpr int kRadius = 1;
    using State = HorizontalRing<1, int>;
    template <int S>
    static __device__ __forceinline__ void push(const RowsArgs&, const Extended<S>& x, State& st, int j) {
        int(&h)[16] = st.ring[j];
        int v[Extended<S>::kSpan];
        x.samples(v);
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            const int l = v[i], c = v[i + S], r = v[i + 2 * S];
            if constexpr (kOp == static_cast<int>(EdgeOperator::Laplacian)) h[i] = (l - 4 * c + r) * 65536 + c;
            else if constexpr (kOp == static_cast<int>(EdgeOperator::Scharr)) h[i] = (3 * l + 10 * c + 3 * r) * 65536 + (r - l);
            else h[i] = (l + 2 * c + r) * 65536 + (r - l);
        }
    }
    static __device__ __forceinline__ int low_part(std::uint32_t v) { return static_cast<int>(v << 16) >> 16; }
    static __device__ __forceinline__ std::uint32_t output_word(const RowsArgs&, const State& st, int j, int q) {
        int o[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int i = 4 * q + e;
            const std::uint32_t p0 = static_cast<std::uint32_t>(st.ring[(j + 1) % 3][i]);
            const std::uint32_t p1 = static_cast<std::uint32_t>(st.ring[(j + 2) % 3][i]);
            const std::uint32_t p2 = static_cast<std::uint32_t>(st.ring[j][i]);
            if constexpr (kOp == static_cast<int>(EdgeOperator::Laplacian)) {
                o[e] = laplacian_output(static_cast<int>(p0 & 0xFFFFu) + (static_cast<int>(p1) >> 16) +
                                        static_cast<int>(p2 & 0xFFFFu));
            } else {
                // gx: the differences smoothed down the column; gy: the
                // smoothings differenced (wrapping sums keep the low part).
                constexpr bool kScharr = kOp == static_cast<int>(EdgeOperator::Scharr);
                const std::uint32_t vx = kScharr ? 3u * p0 + 10u * p1 + 3u * p2 : p0 + 2u * p1 + p2;
                const int gx = low_part(vx);
                const int dy = static_cast<int>(p2 - p0);
                const int gy = (dy - low_part(static_cast<std::uint32_t>(dy))) >> 16;  // an exact multiple of 2^16
                o[e] = kScharr ? scharr_output(gx, gy) : sobel_output(gx, gy);
            }
        }
        return pack4(o[0], o[1], o[2], o[3]);
    }
};

// --- The kernel -----------------------------------------------------------------

template <int C, bool kLuma, class Op>
__global__ void __launch_bounds__(kThreads, 3) rows_kernel(const __grid_constant__ RowsArgs a) {
    constexpr int R = Op::kRadius;
    constexpr int K = 2 * R + 1;                 // the ring of horizontal rows
    constexpr int S = kLuma ? 1 : C;             // samples between horizontal neighbours
    constexpr int kStages = kAhead + R;          // unsharp reads row i - R back
    using St = Stage<C, kLuma>;
    constexpr int kStageBytes = 32 * St::kChunkBytes;
    extern __shared__ __align__(16) std::uint8_t smem[];
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const int lane = static_cast<int>(threadIdx.x) % 32;
    std::uint8_t* stages = smem + warp * kStages * kStageBytes;
    typename Op::State st;
    if constexpr (std::is_same_v<Op, CustomOp<R>>) {
        // The level bounds, for every warp (before any leaves).
        auto* bound = reinterpret_cast<std::int32_t*>(smem + kWarps * kStages * kStageBytes);
        for (int k = static_cast<int>(threadIdx.x); k < 257; k += kThreads) bound[k] = a.bound[k];
        __syncthreads();
        st.bound = bound;
    }

    const int span0 = (static_cast<int>(blockIdx.x) * kWarps + warp) * kWarpSpan;
    if (span0 >= a.samples) return;  // the whole warp
    const int x0 = span0 + kLaneSamples * (lane - 1);
    const int y0 = static_cast<int>(blockIdx.y) * a.strip_rows;
    const int rows_in = ::min(a.strip_rows, a.src.height - y0) + 2 * R;

    const auto issue = [&](int i) {
        if (i < rows_in) {
            const int yy = border_index(y0 - R + i, a.src.height, a.border.mode);
            load_chunk<C, kLuma>(a, stages + (i % kStages) * kStageBytes, lane, yy, x0);
        }
        cp_async_commit();
    };
#pragma unroll
    for (int i = 0; i < kAhead - 1; ++i) issue(i);

    const bool writes = lane >= 1 && lane <= 30 && x0 < a.samples;
    const int n_out = ::min(kLaneSamples, a.samples - x0);
    for (int base = 0; base < rows_in; base += K) {
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int i = base + j;
            if (i >= rows_in) break;
            issue(i + kAhead - 1);
            cp_async_wait<kAhead - 1>();
            std::uint32_t w[4];
            read_chunk<C, kLuma>(stages + (i % kStages) * kStageBytes, lane, w);
            Extended<S * R> x;
            x.fill(w);
            Op::template push<S>(a, x, st, j);
            if (i < 2 * R || !writes) continue;
            // Output row y0 + i - 2R: its window is input rows i - 2R .. i.
            std::uint32_t out[4];
#pragma unroll
            for (int q = 0; q < 4; ++q) out[q] = Op::output_word(a, st, j, q);
            if constexpr (!kLuma) {
                if (a.mode == SepMode::Unsharp) {
                    std::uint32_t src[4];
                    read_chunk<C, false>(stages + ((i - R) % kStages) * kStageBytes, lane, src);
#pragma unroll
                    for (int q = 0; q < 4; ++q) out[q] = separable_output_word(a.mode, a.unsharp, out[q], src[q]);
                }
            }
            std::uint8_t* d = row_ptr(a.dst, y0 + i - 2 * R) + x0;
            if (a.dst_vec && n_out == kLaneSamples) {
                *reinterpret_cast<uint4*>(d) = make_uint4(out[0], out[1], out[2], out[3]);
            } else {
#pragma unroll
                for (int b = 0; b < kLaneSamples; ++b)
                    if (b < n_out) d[b] = static_cast<std::uint8_t>(byte_of(out[b / 4], b % 4));
            }
        }
    }
    cp_async_wait<0>();
}

// Rows a warp slides down: IMGPAR_ROWS_STRIP where set (tuning runs), else
// as many as fill the device's resident blocks once: the blocks then run
// side by side and finish together, where strips of a fixed length leave a
// partial last wave (8K RGB in 64-row strips: 816 blocks for the 660 that
// the occupancy calculation gives an H200 for the edge kernels).
// Strips stay at least kMinStripRows long, so the 2R halo rows and the
// pipeline's start stay small beside them.
int strip_rows(int height, int grid_x, int resident_blocks) {
    const char* s = std::getenv("IMGPAR_ROWS_STRIP");
    const int v = s != nullptr ? std::atoi(s) : 0;
    if (v > 0) return v;
    const int strips = std::max(1, resident_blocks / std::max(1, grid_x));
    return std::max(std::min(kMinStripRows, height), ceil_div(height, strips));
}

template <int C, bool kLuma, class Op>
void launch_rows(RowsArgs a, cudaStream_t stream) {
    constexpr int kStages = kAhead + Op::kRadius;
    const std::size_t smem = static_cast<std::size_t>(kWarps) * kStages * 32 * Stage<C, kLuma>::kChunkBytes +
                             (std::is_same_v<Op, CustomOp<Op::kRadius>> ? 257 * sizeof(std::int32_t) : 0);
    const auto kernel = rows_kernel<C, kLuma, Op>;
    allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
    const int grid_x = ceil_div(a.samples, kWarps * kWarpSpan);
    a.strip_rows = strip_rows(a.src.height, grid_x,
                              co_resident_blocks(reinterpret_cast<const void*>(kernel), kThreads, smem));
    const dim3 grid(static_cast<unsigned>(grid_x), static_cast<unsigned>(ceil_div(a.src.height, a.strip_rows)));
    if (grid.y > 65535u) throw usage_error("filter", "the image is too tall for this GPU kernel");
    kernel<<<grid, kThreads, smem, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("rows_kernel");
}

RowsArgs rows_args(const FilterCall& call, bool luma) {
    RowsArgs a{};
    a.src = src_arg(call.src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(*call.plan);
    a.samples = call.src.width * (luma ? 1 : call.src.channels);
    a.src_vec = rows_aligned(call.src.data, call.src.pitch, 16) ? 1 : 0;
    a.dst_vec = rows_aligned(call.dst.data, call.dst.pitch, 16) ? 1 : 0;
    a.mode = SepMode::Blur;
    return a;
}

template <int C, bool kLuma>
void launch_edges_op(const RowsArgs& a, EdgeOperator op, cudaStream_t stream) {
    switch (op) {
        case EdgeOperator::Scharr: launch_rows<C, kLuma, EdgeOp<static_cast<int>(EdgeOperator::Scharr)>>(a, stream); break;
        case EdgeOperator::Laplacian:
            launch_rows<C, kLuma, EdgeOp<static_cast<int>(EdgeOperator::Laplacian)>>(a, stream);
            break;
        default: launch_rows<C, kLuma, EdgeOp<static_cast<int>(EdgeOperator::Sobel)>>(a, stream); break;
    }
}

// An operator of radius 1 to kSmallRadiusMax on gray or RGB rows.
template <template <int> class Op>
void launch_by_radius(const RowsArgs& a, int channels, int radius, cudaStream_t stream) {
    static_assert(kSmallRadiusMax == 3, "one case a radius");
    const auto run = [&](auto c) {
        constexpr int C = decltype(c)::value;
        switch (radius) {
            case 1: launch_rows<C, false, Op<1>>(a, stream); break;
            case 2: launch_rows<C, false, Op<2>>(a, stream); break;
            default: launch_rows<C, false, Op<3>>(a, stream); break;
        }
    };
    if (channels == 1) run(std::integral_constant<int, 1>{});
    else run(std::integral_constant<int, 3>{});
}

// The radius of the smallest odd square centred on a custom kernel's anchor
// that holds the kernel.
int custom_square_radius(const FilterPlan& plan) {
    return std::max({plan.anchor_x, plan.kernel_width - 1 - plan.anchor_x, plan.anchor_y,
                     plan.kernel_height - 1 - plan.anchor_y});
}

}  // namespace

bool custom_small_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    if (dev.compute_major < 8 || (channels != 1 && channels != 3) || plan.kind != FilterKind::Custom) return false;
    const int r = custom_square_radius(plan);
    return r >= 1 && r <= kSmallRadiusMax;
}

void launch_custom_small(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    if (!custom_small_supported(plan, call.src.channels, dev))
        throw device_error("custom filter", "the small-kernel path takes gray and RGB images and kernels that fit a " +
                                                std::to_string(kMaxSquare) + "x" + std::to_string(kMaxSquare) +
                                                " square centred on their anchor");
    const int r = custom_square_radius(plan);
    const int k = 2 * r + 1;
    RowsArgs a = rows_args(call, false);
    for (int j = 0; j < plan.kernel_height; ++j)
        for (int i = 0; i < plan.kernel_width; ++i)
            a.w[(j - plan.anchor_y + r) * k + (i - plan.anchor_x + r)] =
                static_cast<float>(plan.coeffs[static_cast<std::size_t>(j) * plan.kernel_width + i]);
    const CustomLevels levels = make_custom_levels(plan.scale * std::ldexp(1.0, plan.frac_bits), plan.offset);
    std::copy(std::begin(levels.bound), std::end(levels.bound), a.bound);
    a.level_negate = levels.negate;
    a.level_inverse = levels.inverse;
    a.level_offset = levels.offset;
    launch_by_radius<CustomOp>(a, call.src.channels, r, call.stream);
}

bool small_radius_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    if (dev.compute_major < 8 || (channels != 1 && channels != 3)) return false;
    if (plan.kind != FilterKind::Gaussian && plan.kind != FilterKind::Unsharp) return false;
    const TrimmedTaps tt = trim_taps(plan);
    return tt.radius >= 1 && tt.radius <= kSmallRadiusMax;
}

void launch_separable_small(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    if (!small_radius_supported(plan, call.src.channels, dev))
        throw device_error("gaussian filter", "the small-radius kernel takes gray and RGB images with a trimmed radius of "
                                              "1 to " + std::to_string(kSmallRadiusMax));
    const TrimmedTaps tt = trim_taps(plan);
    RowsArgs a = rows_args(call, false);
    a.mode = separable_mode(plan);
    a.unsharp = {plan.amount_q8, plan.threshold_level};
    for (int k = 0; k <= 2 * tt.radius; ++k) a.w[k] = static_cast<float>(tt.taps[k]);
    launch_by_radius<GaussianOp>(a, call.src.channels, tt.radius, call.stream);
}

void launch_edges_rows(const FilterCall& call, const DeviceLimits&) {
    const FilterPlan& plan = *call.plan;
    // Gray input is its own luma, so gray=true only changes RGB images.
    switch (call.src.channels) {
        case 1: launch_edges_op<1, false>(rows_args(call, false), plan.edge_op, call.stream); break;
        case 3:
            if (plan.edges_gray) launch_edges_op<3, true>(rows_args(call, true), plan.edge_op, call.stream);
            else launch_edges_op<3, false>(rows_args(call, false), plan.edge_op, call.stream);
            break;
        default: throw_not_gray_or_rgb("edge filter", call.src.channels);
    }
}

}  // namespace imgpar::cuda::filter_detail
