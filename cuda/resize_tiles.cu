// GPU resize in one kernel: each block makes a tile of output pixels, first
// the tile's rows of the intermediate (down the columns, for the input
// columns the tile's taps read) into shared memory, then the tile from them
// (along the rows). Without alpha the first pass reads 16-byte runs of the
// rows (a sample's channel does not change its arithmetic); the second reads
// a pixel's channels with one load a tap (RGB padded to 4 samples) and the
// tile's weights from shared memory, and leaves the tile's output in shared
// memory, which the block then writes out in 16-byte stores
// (cuda/resize_tile_store.cuh; a pixel's samples stored one by one took most
// of the L2's requests, an enlargement's above all). The arithmetic, the
// order and the roundings are the two passes' (src/ops/resize_math.hpp), so
// the bytes are the CPU's; the intermediate never goes through device
// memory, which halves the traffic of a shrink (cuda/resize.hpp).
#include "cuda/resize_tiles.hpp"

#include <algorithm>
#include <cstdlib>
#include <type_traits>

#include "cuda/check.hpp"
#include "cuda/histogram_launch.hpp"
#include "cuda/resize_first_pass_mma.cuh"
#include "cuda/resize_second_pass_mma.cuh"
#include "cuda/resize_tile_store.cuh"
#include "src/ops/resize_math.hpp"

namespace imgpar::cuda {

namespace {

template <bool Wide>
using Sum = std::conditional_t<Wide, long long, int>;

struct TileArgs {
    const std::uint8_t* src;
    std::size_t src_pitch;
    int in_width, in_height;
    ResizeTables t;
    int x_taps, y_taps, count_x, count_y;
    std::uint8_t* dst;
    std::size_t dst_pitch;
    ExactDivider divider;
    int tile_w, tile_h, max_cols;  // max_cols: the most input columns a tile reads
    bool vec;                      // the source's rows 16-byte aligned (first_pass_vectors)
    int weights_at;                // >= 0: the tile's row weights in shared memory from this byte
    resize_detail::MmaFirstPassLayout mma;  // the tensor cores' first pass (kernels with KS > 0)
    int out_at = -1;  // >= 0: the CUDA cores' second pass stages the tile's output from this byte (store_staged_rows)
};

// An intermediate pixel in shared memory: RGB padded to 4 samples, so the
// second pass reads a pixel's channels with one load per tap.
template <int C>
constexpr int mid_stride() {
    return C == 3 ? 4 : C;
}
template <int C, typename Mid>
struct alignas(mid_stride<C>() * sizeof(Mid)) MidPixel {
    Mid v[mid_stride<C>()];
};

// Byte e of a 16-byte vector.
__device__ __forceinline__ std::uint32_t byte_of(const uint4& q, int e) {
    const std::uint32_t w = e < 4 ? q.x : e < 8 ? q.y : e < 12 ? q.z : q.w;
    return (w >> (8 * (e & 3))) & 0xffu;
}

// The first pass without alpha treats a row's samples alike whatever the
// channel, so a thread takes 16 bytes of the tile's input run (one 16-byte
// load per tap instead of one load per sample: the pass was bound by the
// cache's requests) and scatters its 16 intermediate samples to their pixels.
// Area's exact sums stay 32-bit: check_resize_range keeps an 8-bit
// image's below 2^31 (its weights are positive, so every partial sum too).
template <int C, AxisKind KY, typename Mid>
__device__ __forceinline__ void first_pass_vectors(const TileArgs& a, Mid* mid, int k0, int k1, int c0, int cols) {
    using Acc = int;
    constexpr int S = mid_stride<C>();
    const int b0 = c0 * C, b1 = (c0 + cols) * C;  // the run's bytes in each row
    const int v0 = b0 >> 4, nv = ((b1 + 15) >> 4) - v0;
    const int row = a.max_cols * S;
    for (int i = threadIdx.x; i < (k1 - k0) * nv; i += blockDim.x) {
        const int kk = i / nv, v = v0 + i % nv, k = k0 + kk;
        const int first = a.t.y_start[k];
        const int live = min(a.y_taps, a.in_height - first);
        const std::int32_t* w = a.t.y_weight + static_cast<std::size_t>(k) * a.y_taps;
        // Bytes past the row's end that share its last vector lie within the
        // pitch (a multiple of 16): read, never stored.
        const uint4* p = reinterpret_cast<const uint4*>(a.src + static_cast<std::size_t>(first) * a.src_pitch) + v;
        const std::size_t step = a.src_pitch / 16;
        Acc sum[16];
        IMGPAR_UNROLL
        for (int e = 0; e < 16; ++e) sum[e] = 0;
        for (int t = 0; t < live; ++t, p += step) {
            const Acc wt = __ldg(w + t);
            const uint4 q = __ldg(p);
            IMGPAR_UNROLL
            for (int e = 0; e < 16; ++e) sum[e] += wt * static_cast<Acc>(byte_of(q, e));
        }
        Mid* m = mid + kk * row;
        IMGPAR_UNROLL
        for (int e = 0; e < 16; ++e) {
            const int b = v * 16 + e - b0;  // the sample's place in the run
            if (b >= 0 && b < b1 - b0) m[(b / C) * S + b % C] = static_cast<Mid>(first_pass_value(KY, sum[e]));
        }
    }
}

// The same for 16-bit samples: a thread takes 16 bytes (8 samples) of the
// run, its sums 64-bit (a sample times a 22-bit weight leaves 32 bits).
template <int C, AxisKind KY, typename Mid>
__device__ __forceinline__ void first_pass_vectors16(const TileArgs& a, Mid* mid, int k0, int k1, int c0, int cols) {
    constexpr int S = mid_stride<C>();
    const int s0 = c0 * C, s1 = (c0 + cols) * C;  // the run's samples in each row
    const int v0 = s0 >> 3, nv = ((s1 + 7) >> 3) - v0;
    const int row = a.max_cols * S;
    for (int i = threadIdx.x; i < (k1 - k0) * nv; i += blockDim.x) {
        const int kk = i / nv, v = v0 + i % nv, k = k0 + kk;
        const int first = a.t.y_start[k];
        const int live = min(a.y_taps, a.in_height - first);
        const std::int32_t* w = a.t.y_weight + static_cast<std::size_t>(k) * a.y_taps;
        // Samples past the row's end that share its last vector lie within
        // the pitch (a multiple of 16): read, never stored.
        const uint4* p = reinterpret_cast<const uint4*>(a.src + static_cast<std::size_t>(first) * a.src_pitch) + v;
        const std::size_t step = a.src_pitch / 16;
        long long sum[8];
        IMGPAR_UNROLL
        for (int e = 0; e < 8; ++e) sum[e] = 0;
        for (int t = 0; t < live; ++t, p += step) {
            const long long wt = __ldg(w + t);
            const uint4 q = __ldg(p);
            const std::uint32_t words[4] = {q.x, q.y, q.z, q.w};
            IMGPAR_UNROLL
            for (int e = 0; e < 8; ++e) sum[e] += wt * static_cast<long long>((words[e >> 1] >> (16 * (e & 1))) & 0xffffu);
        }
        Mid* m = mid + kk * row;
        IMGPAR_UNROLL
        for (int e = 0; e < 8; ++e) {
            const int sidx = v * 8 + e - s0;  // the sample's place in the run
            if (sidx >= 0 && sidx < s1 - s0) m[(sidx / C) * S + sidx % C] = static_cast<Mid>(first_pass_value16(KY, sum[e]));
        }
    }
}

// T: the sample type. 16-bit samples (src/ops/resize.hpp, 16 BITS) sum in
// 64 bits in both passes; without alpha their first pass reads 16-byte runs
// (first_pass_vectors16), premultiplied pixel by pixel; a and its pointers
// stay byte-addressed.
// KS > 0: the first pass on the tensor cores, K = 32 KS input rows a group
// of 16 intermediate rows (8-bit samples, a filter, no alpha); KX > 0 (with
// KS > 0): the second too, K = 32 KX intermediate columns a group of 8
// output pixels (a filter along the rows as well).
template <int C, AxisKind KY, bool Premul, typename Mid, bool Wide, typename T = std::uint8_t, int KS = 0, int KX = 0>
__global__ void __launch_bounds__(ResizeTilePolicy::threads) resize_tile_kernel(TileArgs a) {
    constexpr bool kWide = sizeof(T) == 2;
    constexpr int kTop = kWide ? 65535 : 255;
    using Acc1 = Sum<Premul || kWide>;  // 8-bit area: below 2^31 (first_pass_vectors)
    using Acc2 = Sum<Wide>;
    constexpr int S = mid_stride<C>();
    extern __shared__ __align__(16) unsigned char smem[];
    Mid* mid = reinterpret_cast<Mid*>(smem);  // [tile_h][max_cols][S]
    const int j0 = blockIdx.x * a.tile_w, k0 = blockIdx.y * a.tile_h;
    const int j1 = min(j0 + a.tile_w, a.count_x), k1 = min(k0 + a.tile_h, a.count_y);
    const int c0 = a.t.x_start[j0];
    const int cols = min(a.in_width, a.t.x_start[j1 - 1] + a.x_taps) - c0;
    const int row = a.max_cols * S;

    // Down the columns: the tile's rows of the intermediate, neighbouring
    // threads on neighbouring input columns (or 16-byte runs of them).
    if constexpr (KS > 0 && KY == AxisKind::Filter && !Premul && !kWide && std::is_same_v<Mid, std::int16_t>) {
        resize_detail::first_pass_mma<C, S, KS>(a, a.mma, smem, mid, k0, k1, c0, cols);
    } else if (!Premul && !kWide && a.vec) {
        first_pass_vectors<C, KY, Mid>(a, mid, k0, k1, c0, cols);
    } else if (!Premul && kWide && a.vec) {
        first_pass_vectors16<C, KY, Mid>(a, mid, k0, k1, c0, cols);
    } else {
        for (int i = threadIdx.x; i < (k1 - k0) * cols; i += blockDim.x) {
            const int kk = i / cols, x = c0 + i % cols, k = k0 + kk;
            const int first = a.t.y_start[k];
            const int live = min(a.y_taps, a.in_height - first);
            const std::int32_t* w = a.t.y_weight + static_cast<std::size_t>(k) * a.y_taps;
            const std::uint8_t* p =
                a.src + static_cast<std::size_t>(first) * a.src_pitch + static_cast<std::size_t>(x) * C * sizeof(T);
            Acc1 sum[C];
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) sum[c] = 0;
            for (int t = 0; t < live; ++t, p += a.src_pitch) {
                const T* q = reinterpret_cast<const T*>(p);
                const Acc1 wt = w[t];
                IMGPAR_UNROLL
                for (int c = 0; c < C; ++c)
                    sum[c] += wt * (Premul && c != C - 1 ? static_cast<Acc1>(q[c]) * q[C - 1] : static_cast<Acc1>(q[c]));
            }
            Mid* m = mid + kk * row + (x - c0) * S;
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) {
                if constexpr (kWide)
                    m[c] = static_cast<Mid>(first_pass_value16(KY, sum[c], Premul && c == C - 1));
                else
                    m[c] = static_cast<Mid>(first_pass_value(KY, sum[c]));
            }
        }
    }

    if constexpr (KX > 0 && KS > 0) {
        resize_detail::second_pass_mma<C, KX>(a, a.mma, smem, k0, k1, j0, j1, c0);
        return;
    }

    // The tile's row weights tap by tap ([t][j - j0]), where they fit: a
    // warp's 32 pixels then read 32 neighbouring words a tap, where the
    // tables' pixel-major layout spread them over x_taps times the sectors.
    const int tw = j1 - j0;
    std::int32_t* ws = reinterpret_cast<std::int32_t*>(smem + (a.weights_at > 0 ? a.weights_at : 0));
    if (a.weights_at >= 0)
        for (int i = threadIdx.x; i < tw * a.x_taps; i += blockDim.x)
            ws[(i % a.x_taps) * a.tile_w + i / a.x_taps] = a.t.x_weight[static_cast<std::size_t>(j0) * a.x_taps + i];
    __syncthreads();

    // Along the rows: the tile's output pixels, a pixel's channels one load a
    // tap, into the staged tile where there is one (else to the image).
    const int out_row = a.tile_w * C * static_cast<int>(sizeof(T));
    unsigned char* const staged = a.out_at >= 0 ? smem + a.out_at : nullptr;
    for (int i = threadIdx.x; i < (k1 - k0) * tw; i += blockDim.x) {
        const int kk = i / tw, j = j0 + i % tw;
        const int first = a.t.x_start[j];
        const int live = min(a.x_taps, a.in_width - first);
        const std::int32_t* w = a.t.x_weight + static_cast<std::size_t>(j) * a.x_taps;
        const MidPixel<C, Mid>* m = reinterpret_cast<const MidPixel<C, Mid>*>(mid + kk * row) + (first - c0);
        Acc2 sum[C];
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) sum[c] = 0;
        for (int t = 0; t < live; ++t, ++m) {
            const Acc2 wt = a.weights_at >= 0 ? ws[t * a.tile_w + (j - j0)] : __ldg(w + t);
            const MidPixel<C, Mid> px = *m;
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) sum[c] += wt * static_cast<Acc2>(px.v[c]);
        }
        T* o = staged ? reinterpret_cast<T*>(staged + kk * out_row) + (j - j0) * C
                      : reinterpret_cast<T*>(a.dst + static_cast<std::size_t>(k0 + kk) * a.dst_pitch) +
                            static_cast<std::size_t>(j) * C;
        if (!Premul) {
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) o[c] = static_cast<T>(resize_output(sum[c], a.divider, kTop));
            continue;
        }
        if constexpr (kWide) {  // premultiplied alpha finer by premultiplied_alpha_shift16 bits
            constexpr int k = premultiplied_alpha_shift16(KY);
            o[C - 1] = static_cast<T>(resize_alpha16(sum[C - 1], a.divider.d, k));
            IMGPAR_UNROLL
            for (int c = 0; c < C - 1; ++c) o[c] = static_cast<T>(resize_unpremultiply16(sum[c], sum[C - 1], k));
        } else {
            o[C - 1] = static_cast<T>(resize_output(sum[C - 1], a.divider));
            IMGPAR_UNROLL
            for (int c = 0; c < C - 1; ++c) o[c] = static_cast<T>(resize_unpremultiply(sum[c], sum[C - 1]));
        }
    }
    if (staged) {  // block-uniform
        __syncthreads();
        resize_detail::store_staged_rows(a, staged, out_row, k0, k1, static_cast<std::size_t>(j0) * C * sizeof(T),
                                         (j1 - j0) * C * static_cast<int>(sizeof(T)));
    }
}

template <int C, AxisKind KY, bool Premul, typename Mid, bool Wide, typename T, int KS = 0, int KX = 0>
void launch(const TileArgs& a, std::size_t smem, cudaStream_t stream) {
    const dim3 grid(static_cast<unsigned>((a.count_x + a.tile_w - 1) / a.tile_w),
                    static_cast<unsigned>((a.count_y + a.tile_h - 1) / a.tile_h));
    const auto kernel = resize_tile_kernel<C, KY, Premul, Mid, Wide, T, KS, KX>;
    if (smem > 48 * 1024)
        IMGPAR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    kernel<<<grid, ResizeTilePolicy::threads, smem, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("resize_tile_kernel");
}

template <int C, bool Premul, typename Mid, typename T>
void launch_kinds(const TileArgs& a, AxisKind ky, AxisKind kx, std::size_t smem, cudaStream_t stream) {
    // 32-bit sums along the rows where the intermediate is 16-bit and the
    // weights' magnitudes sum to at most 2^15: as the CPU.
    const bool narrow = std::is_same_v<Mid, std::int16_t> && kx != AxisKind::Area;
    switch (ky) {
        case AxisKind::Gather:
            return narrow ? launch<C, AxisKind::Gather, Premul, Mid, false, T>(a, smem, stream)
                          : launch<C, AxisKind::Gather, Premul, Mid, true, T>(a, smem, stream);
        case AxisKind::Filter:
            return narrow ? launch<C, AxisKind::Filter, Premul, Mid, false, T>(a, smem, stream)
                          : launch<C, AxisKind::Filter, Premul, Mid, true, T>(a, smem, stream);
        case AxisKind::Area:
            return narrow ? launch<C, AxisKind::Area, Premul, Mid, false, T>(a, smem, stream)
                          : launch<C, AxisKind::Area, Premul, Mid, true, T>(a, smem, stream);
    }
}

template <int C>
void launch_channels(const TileArgs& a, AxisKind ky, AxisKind kx, bool premultiply, std::size_t mid_bytes,
                     std::size_t smem, cudaStream_t stream, std::uint8_t) {
    if (premultiply) return launch_kinds<C, true, std::int32_t, std::uint8_t>(a, ky, kx, smem, stream);
    if (mid_bytes == 2) return launch_kinds<C, false, std::int16_t, std::uint8_t>(a, ky, kx, smem, stream);
    launch_kinds<C, false, std::int32_t, std::uint8_t>(a, ky, kx, smem, stream);
}

// 16-bit samples: a 32-bit intermediate (mid_bytes 4: a filter's or a
// copy's plain samples) or 64-bit (premultiplied colour, area's sums); the
// row sums always 64-bit (Mid is never 16-bit here).
template <int C>
void launch_channels(const TileArgs& a, AxisKind ky, AxisKind kx, bool premultiply, std::size_t mid_bytes,
                     std::size_t smem, cudaStream_t stream, std::uint16_t) {
    if (premultiply) return launch_kinds<C, true, std::int64_t, std::uint16_t>(a, ky, kx, smem, stream);
    if (mid_bytes == 4) return launch_kinds<C, false, std::int32_t, std::uint16_t>(a, ky, kx, smem, stream);
    launch_kinds<C, false, std::int64_t, std::uint16_t>(a, ky, kx, smem, stream);
}

// The most input columns any tile of `tile_w` output columns reads.
int max_columns(const ResizeAxis& x, int tile_w) {
    int most = 0;
    for (int j0 = 0; j0 < x.count; j0 += tile_w) {
        const int j1 = std::min(j0 + tile_w, x.count);
        most = std::max(most, std::min(x.in, x.start[static_cast<std::size_t>(j1 - 1)] + x.taps) -
                                  x.start[static_cast<std::size_t>(j0)]);
    }
    return most;
}

// The tile's output rows where the tensor cores take the first pass: 16
// for RGB, 32 for gray, as they measured fastest (bench/TUNING.md);
// IMGPAR_RESIZE_MMA_ROWS=16 or 32 sets them for timing (docs/development.md).
int mma_tile_rows(int channels) {
    const char* v = std::getenv("IMGPAR_RESIZE_MMA_ROWS");
    const int asked = v ? std::atoi(v) : 0;
    if (asked == 16 || asked == ResizeTilePolicy::max_tile_h) return asked;
    return channels == 3 ? 16 : ResizeTilePolicy::max_tile_h;
}

// The tiled kernel with the tensor cores' first pass, for 8-bit samples
// without alpha under a filter down the columns, and their second where
// `second_pass` and the plan has its fragments: false (nothing launched)
// where it does not apply or its tiles do not fit.
bool tiled_mma(const ResizePlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst, const ResizeTables& t,
               const ExactDivider& divider, bool second_pass, bool& second, cudaStream_t stream) {
    using Policy = ResizeTilePolicy;
    const int C = src.channels;
    const int K = t.y_frag_k;
    // Gray and RGB: the layouts without alpha.
    if (K == 0 || (C != 1 && C != 3) || !hist::vector_ok(src.data, src.pitch)) return false;
    // Along the rows too where the plan has their fragments (a filter there, short windows).
    const int KX = second_pass ? t.x_frag_k : 0;  // 32 or 64, or 0
    const int quads = (t.y_rows_window + 3) / 4;
    const bool only_16_rows = mma_tile_rows(C) == 16;
    for (int tile_w = Policy::tile_w; tile_w >= Policy::min_tile_w; tile_w /= 2) {
        const int cols = max_columns(plan.x, tile_w);
        const std::size_t row_bytes = static_cast<std::size_t>(cols) * (C == 3 ? 4 : C) * 2;  // mid_stride, 16-bit
        // The CUDA cores' second pass keeps the tile's row weights in shared memory.
        const std::size_t weight_bytes =
            KX > 0 ? 0 : static_cast<std::size_t>(tile_w) * plan.x.taps * sizeof(std::int32_t);
        // The staged byte columns: the run's bytes out to 16-byte boundaries;
        // a quad's row of them 8 banks past the last's.
        const int stage_cols = (cols * C + 15) / 16 * 16 + 16;
        const int stride = stage_cols + (stage_cols % 32 == 0 ? 8 : 24);
        const std::size_t stage_bytes = static_cast<std::size_t>(quads) * stride * 4;
        // Byte planes for the second pass, a row from the tile's first input
        // column rounded down to 4: it reads up to K columns past its group's
        // first; rows 4 banks apart mod 8.
        int plane = (cols + 3 + KX + 4 + 15) / 16 * 16;
        if (plane % 32 == 0) plane += 16;
        for (const int tile_h : {Policy::max_tile_h, 16}) {
            if (tile_h != 16 && only_16_rows) continue;
            const std::size_t mid_bytes =
                KX > 0 ? 2 * static_cast<std::size_t>(C) * tile_h * plane : static_cast<std::size_t>(tile_h) * row_bytes;
            const std::size_t mid_end = (mid_bytes + 15) / 16 * 16;
            const std::size_t stage_at = (mid_end + weight_bytes + 15) / 16 * 16;
            // Either second pass leaves the tile's output bytes there (the
            // first pass is done with its stage by then).
            const std::size_t out_bytes = static_cast<std::size_t>(tile_h) * tile_w * C;
            const std::size_t smem = stage_at + std::max(stage_bytes, out_bytes);
            if (smem > Policy::mma_shared_bytes) continue;
            TileArgs a{src.data,     src.pitch,    plan.x.in,   plan.y.in, t,     plan.x.taps,
                       plan.y.taps,  plan.x.count, plan.y.count, dst.data, dst.pitch, divider,
                       tile_w,       tile_h,       cols,         true,     static_cast<int>(mid_end), {}};
            a.mma = {quads, stride, static_cast<int>(stage_at), KX > 0 ? plane : 0};
            a.out_at = static_cast<int>(stage_at);
            const auto go = [&](auto c) {
                constexpr int kC = decltype(c)::value;
                const AxisKind kx = axis_kind(plan.x.filter);
                const auto ks = [&](auto k) {
                    constexpr int kKS = decltype(k)::value;
                    if (KX == 32)
                        launch<kC, AxisKind::Filter, false, std::int16_t, false, std::uint8_t, kKS, 1>(a, smem, stream);
                    else if (KX == 64)
                        launch<kC, AxisKind::Filter, false, std::int16_t, false, std::uint8_t, kKS, 2>(a, smem, stream);
                    else if (kx == AxisKind::Area)
                        launch<kC, AxisKind::Filter, false, std::int16_t, true, std::uint8_t, kKS>(a, smem, stream);
                    else
                        launch<kC, AxisKind::Filter, false, std::int16_t, false, std::uint8_t, kKS>(a, smem, stream);
                };
                switch (K / 32) {
                    case 1: return ks(std::integral_constant<int, 1>{});
                    case 2: return ks(std::integral_constant<int, 2>{});
                    case 3: return ks(std::integral_constant<int, 3>{});
                    default: return ks(std::integral_constant<int, 4>{});
                }
            };
            second = KX > 0;
            if (C == 1)
                go(std::integral_constant<int, 1>{});
            else
                go(std::integral_constant<int, 3>{});
            return true;
        }
    }
    return false;
}

template <typename T>
bool tiled_any(const ResizePlan& plan, const DeviceView<const T>& src, const DeviceView<T>& dst, const ResizeTables& t,
               bool premultiply, std::size_t mid_bytes, const ExactDivider& divider, cudaStream_t stream) {
    const int C = src.channels;
    // The widest tile whose intermediate rows fit: at least ResizeTilePolicy::min_rows of them.
    for (int tile_w = ResizeTilePolicy::tile_w; tile_w >= ResizeTilePolicy::min_tile_w; tile_w /= 2) {
        const int cols = max_columns(plan.x, tile_w);
        const std::size_t row_bytes = static_cast<std::size_t>(cols) * (C == 3 ? 4 : C) * mid_bytes;  // mid_stride
        // The row weights take shared memory where they are at most a
        // quarter of it (not a thumbnail's hundreds of taps).
        const std::size_t weight_bytes = static_cast<std::size_t>(tile_w) * plan.x.taps * sizeof(std::int32_t);
        const bool shared_weights = 4 * weight_bytes <= ResizeTilePolicy::shared_bytes;
        // Each row of the tile also takes its output row, staged
        // (store_staged_rows); 32 bytes for the two regions' alignment.
        const std::size_t out_row = static_cast<std::size_t>(tile_w) * C * sizeof(T);
        const std::size_t room = ResizeTilePolicy::shared_bytes - (shared_weights ? weight_bytes : 0) - 32;
        const int tile_h =
            static_cast<int>(std::min<std::size_t>(ResizeTilePolicy::max_tile_h, room / (row_bytes + out_row)));
        if (tile_h < ResizeTilePolicy::min_rows) continue;
        const std::size_t mid_end = (static_cast<std::size_t>(tile_h) * row_bytes + 15) / 16 * 16;
        const std::size_t out_at = ((shared_weights ? mid_end + weight_bytes : mid_end) + 15) / 16 * 16;
        TileArgs a{reinterpret_cast<const std::uint8_t*>(src.data),
                         src.pitch,    plan.x.in,    plan.y.in,    t,      plan.x.taps,
                         plan.y.taps,  plan.x.count, plan.y.count, reinterpret_cast<std::uint8_t*>(dst.data),
                         dst.pitch, divider,
                         tile_w,       tile_h,       cols,         hist::vector_ok(src.data, src.pitch),
                         shared_weights ? static_cast<int>(mid_end) : -1,
                         {}};
        a.out_at = static_cast<int>(out_at);
        const std::size_t smem = out_at + static_cast<std::size_t>(tile_h) * out_row;
        const AxisKind ky = axis_kind(plan.y.filter), kx = axis_kind(plan.x.filter);
        switch (C) {
            case 1: launch_channels<1>(a, ky, kx, premultiply, mid_bytes, smem, stream, T{}); break;
            case 2: launch_channels<2>(a, ky, kx, premultiply, mid_bytes, smem, stream, T{}); break;
            case 3: launch_channels<3>(a, ky, kx, premultiply, mid_bytes, smem, stream, T{}); break;
            default: launch_channels<4>(a, ky, kx, premultiply, mid_bytes, smem, stream, T{}); break;
        }
        return true;
    }
    return false;
}

}  // namespace

TilePasses resize_tiled(const ResizePlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst,
                        const ResizeTables& t, bool premultiply, std::size_t mid_bytes, const ExactDivider& divider,
                        cudaStream_t stream, TilePasses tensor_cores) {
    // The tables carry fragments only for an 8-bit filter down the columns
    // (under Best, only where both passes have them: tensor_core_shape);
    // tiled_mma takes gray and RGB (no alpha, so nothing premultiplied).
    bool second = false;
    const bool both = tensor_cores == TilePasses::TensorCores || tensor_cores == TilePasses::Best;
    if (tensor_cores != TilePasses::Cores && tiled_mma(plan, src, dst, t, divider, both, second, stream))
        return second ? TilePasses::TensorCores : TilePasses::FirstOnTensorCores;
    return tiled_any(plan, src, dst, t, premultiply, mid_bytes, divider, stream) ? TilePasses::Cores : TilePasses::None;
}

bool resize_tiled(const ResizePlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst,
                  const ResizeTables& t, bool premultiply, std::size_t mid_bytes, const ExactDivider& divider,
                  cudaStream_t stream) {
    return tiled_any(plan, src, dst, t, premultiply, mid_bytes, divider, stream);
}

}  // namespace imgpar::cuda
