// SSIM on the device (cuda/compare.hpp): one kernel, one 32-sample x
// 32-row output tile per block, over 8-bit images or (--ssim-downsample)
// over the double-precision images shrink_kernel makes of them. The tile's bytes with a 5-pixel halo are
// staged in shared memory (rows and pixels outside the image reflected as
// the contract says), the five moments filtered along rows into shared
// memory, then along columns (each warp's four rows from registers), S from
// them, its quantized parts summed per channel (warp shuffles, the block's
// warps, one atomic per sum and block: integers, so the order is free) and,
// when asked, the map.
// Every operation is src/ops/ssim_math.hpp's, in the CPU's order, so each S
// equals the CPU's bit for bit (the kernels compile no contraction there:
// the helpers spell each rounding).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cuda/check.hpp"
#include "cuda/compare.hpp"
#include "src/error.hpp"
#include "src/ops/ssim.hpp"
#include "src/ops/ssim_math.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kTileSamples = SsimPolicy::tile_samples;
constexpr int kTileRows = SsimPolicy::tile_rows;
constexpr int kThreads = SsimPolicy::threads;
constexpr int kWarps = kThreads / 32;
constexpr int kRadius = kSsimRadius;
constexpr int kRows = kTileRows + 2 * kRadius;  // filtered rows a tile needs
constexpr int kMoments = 5;                      // a, b, a^2, b^2, ab

template <typename T>
struct SsimArgs {
    const T* a;
    std::size_t a_pitch;  // bytes
    const T* b;
    std::size_t b_pitch;
    std::uint8_t* map;  // or null
    std::size_t map_pitch;
    int width, height;
    int samples;  // width * channels
    SsimTaps taps;
    unsigned long long* totals;  // kSsimTotals
};

template <int C>
constexpr int staged_columns() {
    return kTileSamples + 2 * kRadius * C;
}

template <int C, typename T>
constexpr std::size_t shared_bytes() {
    return sizeof(double) * kMoments * kRows * kTileSamples + 2 * sizeof(T) * kRows * staged_columns<C>();
}

template <typename T>
__device__ __forceinline__ const T* row_of(const T* data, std::size_t pitch, int y) {
    return reinterpret_cast<const T*>(reinterpret_cast<const char*>(data) + static_cast<std::size_t>(y) * pitch);
}

__device__ __forceinline__ int floor_div(int a, int b) {
    const int q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

// T: std::uint8_t, read as int (the row pass's terms exact integers),
// std::uint16_t or double (ssim_pair_terms rounds each product and sum;
// for 16-bit samples none is rounded).
template <int C, typename T>
__global__ void __launch_bounds__(kThreads) ssim_kernel(SsimArgs<T> g) {
    // 16-bit samples through the double terms, as the CPU's (exact: their
    // products and pair sums stay below 2^34).
    using Sample = std::conditional_t<std::is_same_v<T, std::uint8_t>, int, double>;
    constexpr int kCols = staged_columns<C>();
    extern __shared__ double smem[];
    double* h = smem;  // [moment][row][sample]
    T* sa = reinterpret_cast<T*>(smem + kMoments * kRows * kTileSamples);  // [row][column]
    T* sb = sa + kRows * kCols;
    const int s0 = blockIdx.x * kTileSamples, y0 = blockIdx.y * kTileRows;

    // 1. Both tiles' bytes, reflected beyond the image.
    for (int i = threadIdx.x; i < kRows * kCols; i += kThreads) {
        const int r = i / kCols, j = i - r * kCols;
        const int y = ssim_reflect(y0 - kRadius + r, g.height);
        const int vs = s0 - kRadius * C + j;  // a sample index of the row, maybe outside it
        const int x = floor_div(vs, C), c = vs - x * C;
        const std::size_t at = static_cast<std::size_t>(ssim_reflect(x, g.width)) * C + c;
        sa[i] = row_of(g.a, g.a_pitch, y)[at];
        sb[i] = row_of(g.b, g.b_pitch, y)[at];
    }
    __syncthreads();

    // 2. Along rows: every staged row's five moments at the tile's samples.
    for (int i = threadIdx.x; i < kRows * kTileSamples; i += kThreads) {
        const int r = i / kTileSamples, k = i - r * kTileSamples;
        const T* ra = sa + r * kCols + k + kRadius * C;
        const T* rb = sb + r * kCols + k + kRadius * C;
        double pairs[kMoments][kRadius];
#pragma unroll
        for (int d = 1; d <= kRadius; ++d) {
            double terms[kMoments];
            ssim_pair_terms(Sample(ra[-d * C]), Sample(ra[d * C]), Sample(rb[-d * C]), Sample(rb[d * C]), terms);
#pragma unroll
            for (int m = 0; m < kMoments; ++m) pairs[m][d - 1] = terms[m];
        }
        double centre[kMoments];
        ssim_centre_terms(Sample(ra[0]), Sample(rb[0]), centre);
#pragma unroll
        for (int m = 0; m < kMoments; ++m) h[(m * kRows + r) * kTileSamples + k] = ssim_window_sum(g.taps, centre[m], pairs[m]);
    }
    __syncthreads();

    // 3. Along columns, S, the map and the sums. Lane k keeps one sample
    // column, so one channel; warp w its rows 4w .. 4w + 3, in passes of
    // kPassRows rows whose windows need kPassRows + 10 filtered rows: each
    // moment's values are read from shared memory once a pass, into
    // registers. (Each output reading its own 11 took 2.96 ms for two
    // 7680x4320 RGB images on an H200; passes of 4 rows 2.47 ms, of 2 rows
    // 2.65. The pass loop is kept rolled: unrolled whole, the kernel took 120
    // registers instead of 72, two blocks a multiprocessor instead of three.)
    constexpr int kRowsPerWarp = kTileRows / kWarps, kPassRows = 4;
    constexpr int kSpan = kPassRows + 2 * kRadius;
    static_assert(kTileRows % kWarps == 0 && kRowsPerWarp % kPassRows == 0, "the warps share the tile's rows evenly");
    const int k = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int s = s0 + k;
    const int x = s / C, c = s - x * C;
    const bool counted_x = s < g.samples && x >= kRadius && x < g.width - kRadius;
    long long high = 0, low = 0;
#pragma unroll 1
    for (int r_first = kRowsPerWarp * warp; r_first < kRowsPerWarp * (warp + 1); r_first += kPassRows) {
        if (s >= g.samples || y0 + r_first >= g.height) break;
        double mom[kMoments][kPassRows];
#pragma unroll
        for (int m = 0; m < kMoments; ++m) {
            const double* col = h + (m * kRows + r_first) * kTileSamples + k;
            double v[kSpan];
#pragma unroll
            for (int i = 0; i < kSpan; ++i) v[i] = col[i * kTileSamples];
#pragma unroll
            for (int i = 0; i < kPassRows; ++i) {
                double pair[kRadius];
#pragma unroll
                for (int d = 1; d <= kRadius; ++d) pair[d - 1] = add_rn(v[i + kRadius - d], v[i + kRadius + d]);
                mom[m][i] = ssim_window_sum(g.taps, v[i + kRadius], pair);
            }
        }
#pragma unroll
        for (int i = 0; i < kPassRows; ++i) {
            const int y = y0 + r_first + i;
            if (y >= g.height) break;
            const double v = ssim_value(g.taps, mom[0][i], mom[1][i], mom[2][i], mom[3][i], mom[4][i]);
            if (g.map) g.map[static_cast<std::size_t>(y) * g.map_pitch + s] = static_cast<std::uint8_t>(ssim_map_value(v));
            if (counted_x && y >= kRadius && y < g.height - kRadius) {
                const long long q = ssim_quantize(v);
                high += ssim_high(q);
                low += ssim_low(q);
            }
        }
    }

    // 4. Per channel: the warp's lanes of that channel, the block's warps,
    // one atomic per sum (two's complement: the counters wrap as int64 adds).
    __shared__ long long part[kWarps][2 * C];
#pragma unroll
    for (int cc = 0; cc < C; ++cc) {
        long long vh = c == cc ? high : 0, vl = c == cc ? low : 0;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            vh += __shfl_down_sync(0xFFFFFFFFu, vh, off);
            vl += __shfl_down_sync(0xFFFFFFFFu, vl, off);
        }
        if (k == 0) part[warp][cc] = vh, part[warp][C + cc] = vl;
    }
    __syncthreads();
    if (threadIdx.x < 2 * C) {
        long long sum = 0;
        for (int w = 0; w < kWarps; ++w) sum += part[w][threadIdx.x];
        const int channel = threadIdx.x % C;
        const int slot = threadIdx.x < C ? channel : kSsimTotals / 2 + channel;
        if (sum != 0) atomicAdd(g.totals + slot, static_cast<unsigned long long>(sum));
    }
}

template <int C, typename T>
void launch(const SsimArgs<T>& g, cudaStream_t stream) {
    const auto kernel = ssim_kernel<C, T>;
    constexpr std::size_t smem = shared_bytes<C, T>();
    static_assert(smem <= 227 * 1024, "the SSIM tile must fit in shared memory");
    if (smem > 48 * 1024)
        IMGPAR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    const dim3 grid((g.samples + kTileSamples - 1) / kTileSamples, (g.height + kTileRows - 1) / kTileRows);
    kernel<<<grid, kThreads, smem, stream>>>(g);
    IMGPAR_CUDA_CHECK_LAUNCH("ssim_kernel");
}

// The shrinking of --ssim-downsample (src/ops/ssim.hpp, DOWNSAMPLING). A
// block takes one output row and a run of output pixels (kShrinkSpan bytes
// of input row, or one pixel's f C when wider) of both images: its threads
// first sum the f input rows of every byte of the run (neighbouring threads,
// neighbouring bytes: coalesced, each input byte read once) into shared
// memory, then each output sample sums its f columns there. The sums are
// integers, so exact in any order; one division by f^2 each
// (ssim_shrunk_value), as on the CPU.
constexpr int kShrinkThreads = 256;
constexpr int kShrinkSpan = 2048;
constexpr int kShrinkMaxSpan = 4 * kSsimMaxDownsample;
constexpr int kChunks = kShrinkSpan / kShrinkThreads;  // bytes of a pass a thread sums

template <typename T>
struct ShrinkArgs {
    const T* a;
    std::size_t a_pitch;
    const T* b;
    std::size_t b_pitch;
    double* out_a;
    double* out_b;
    int width, height, channels, f;
    int out_width, out_height;
    int block_pixels;  // output pixels a block covers
};

// T: 8- or 16-bit samples (a column's f samples stay below 2^31; an output's
// f x f sum of 16-bit samples does not, and is summed in 64 bits).
template <typename T>
__global__ void __launch_bounds__(kShrinkThreads) shrink_kernel(ShrinkArgs<T> g) {
    __shared__ int column_a[kShrinkMaxSpan], column_b[kShrinkMaxSpan];
    const int ch = g.channels, f = g.f, before = (f - 1) / 2;
    const int x0 = blockIdx.x * g.block_pixels, x1 = min(x0 + g.block_pixels, g.out_width);
    // The input pixels the run's windows read, clipped to the image. Where a
    // window reaches past an edge, its reflection lands inside [p0, p1):
    // on the left in 0 .. before - 1 < f - before <= p1; on the right the
    // last output pixel starts at most f - 1 before W, so its window ends
    // at most f - before - 1 past W - 1 and reflects to at least
    // x_last f - before = p0 (f odd: before = (f - 1) / 2; even: f / 2 - 1).
    const int p0 = max(0, x0 * f - before), p1 = min(g.width, x1 * f - before);
    const int run = (p1 - p0) * ch;
    const int outputs = (x1 - x0) * ch;
    for (int y = blockIdx.y; y < g.out_height; y += gridDim.y) {
        // Passes of kShrinkSpan bytes (one, unless one pixel's f C is
        // wider). A thread's bytes i = threadIdx.x + k kShrinkThreads are
        // all loaded for a row before the next row: 2 kChunks loads in
        // flight a thread, the warp's 32 bytes one sector each. The index is
        // clamped rather than the load skipped, so that no branch sits
        // between the loads (in-order issue would then wait for each one).
        for (int base = 0; base < run; base += kShrinkSpan) {
            const int last = min(run - base, kShrinkSpan) - 1;
            int acc_a[kChunks] = {}, acc_b[kChunks] = {};
            for (int dy = 0; dy < f; ++dy) {
                const int sy = ssim_reflect(y * f + dy - before, g.height);
                const T* ra = row_of(g.a, g.a_pitch, sy) + static_cast<std::size_t>(p0) * ch + base;
                const T* rb = row_of(g.b, g.b_pitch, sy) + static_cast<std::size_t>(p0) * ch + base;
#pragma unroll
                for (int k = 0; k < kChunks; ++k) {
                    const int i = min(static_cast<int>(threadIdx.x) + k * kShrinkThreads, last);
                    acc_a[k] += __ldg(ra + i);
                    acc_b[k] += __ldg(rb + i);
                }
            }
#pragma unroll
            for (int k = 0; k < kChunks; ++k) {
                const int i = threadIdx.x + k * kShrinkThreads;
                if (i <= last) {
                    column_a[base + i] = acc_a[k];
                    column_b[base + i] = acc_b[k];
                }
            }
        }
        __syncthreads();
        for (int o = threadIdx.x; o < outputs; o += kShrinkThreads) {
            const int x = x0 + o / ch, c = o % ch;
            long long sum_a = 0, sum_b = 0;
            for (int dx = 0; dx < f; ++dx) {
                const int at = (ssim_reflect(x * f + dx - before, g.width) - p0) * ch + c;
                sum_a += column_a[at];
                sum_b += column_b[at];
            }
            const std::size_t out = (static_cast<std::size_t>(y) * g.out_width + x0) * ch + o;
            g.out_a[out] = ssim_shrunk_value(sum_a, f);
            g.out_b[out] = ssim_shrunk_value(sum_b, f);
        }
        __syncthreads();
    }
}

template <typename T>
void run_ssim(const SsimArgs<T>& g, int channels, cudaStream_t stream) {
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(g.totals, 0, kSsimTotals * sizeof(unsigned long long), stream));
    switch (channels) {
        case 1: launch<1>(g, stream); break;
        case 2: launch<2>(g, stream); break;
        case 3: launch<3>(g, stream); break;
        default: launch<4>(g, stream); break;
    }
}

// a and b: device views or shrunk planes, of one shape.
template <typename A, typename B>
void check_ssim_shapes(const A& a, const B& b, const DeviceViewU8* map) {
    const int width = a.width, height = a.height, channels = a.channels;
    check_image_shape(width, height, channels);
    if (b.width != width || b.height != height || b.channels != channels)
        throw usage_error("ssim", "the device images differ in shape");
    if (map && (map->width != width || map->height != height || map->channels != channels))
        throw usage_error("ssim", "the map's shape differs from the images'");
    if (!ssim_fits(width, height))
        throw usage_error("ssim", std::to_string(width) + "x" + std::to_string(height) +
                                      " is smaller than the 11x11 window");
    if (height > 65535 * kTileRows)
        throw usage_error("ssim", "images taller than " + std::to_string(65535 * kTileRows) + " rows are not supported");
}

template <typename T>
SsimArgs<T> ssim_args(const T* a, std::size_t a_pitch, const T* b, std::size_t b_pitch, int width, int height,
                      int channels, const DeviceViewU8* map, unsigned long long* d_totals) {
    SsimArgs<T> g{};
    g.a = a, g.a_pitch = a_pitch, g.b = b, g.b_pitch = b_pitch;
    g.map = map ? map->data : nullptr, g.map_pitch = map ? map->pitch : 0;
    g.width = width, g.height = height;
    g.samples = width * channels;
    g.taps = ssim_taps();
    g.totals = d_totals;
    return g;
}

}  // namespace

void ssim(const ConstDeviceViewU8& a, const ConstDeviceViewU8& b, const DeviceViewU8* map, unsigned long long* d_totals,
          cudaStream_t stream) {
    check_ssim_shapes(a, b, map);
    run_ssim(ssim_args(a.data, a.pitch, b.data, b.pitch, a.width, a.height, a.channels, map, d_totals), a.channels,
             stream);
}

void ssim(const ConstDeviceViewU16& a, const ConstDeviceViewU16& b, const DeviceViewU8* map,
          unsigned long long* d_totals, cudaStream_t stream) {
    check_ssim_shapes(a, b, map);
    SsimArgs<std::uint16_t> g = ssim_args(a.data, a.pitch, b.data, b.pitch, a.width, a.height, a.channels, map, d_totals);
    g.taps = ssim_taps16();  // c1, c2 of L = 65535
    run_ssim(g, a.channels, stream);
}

void ssim(const SsimPlanes<double>& a, const SsimPlanes<double>& b, const DeviceViewU8* map,
          unsigned long long* d_totals, cudaStream_t stream, bool sixteen_bit) {
    check_ssim_shapes(a, b, map);
    SsimArgs<double> g = ssim_args(a.data, a.row_samples * sizeof(double), b.data, b.row_samples * sizeof(double),
                                   a.width, a.height, a.channels, map, d_totals);
    if (sixteen_bit) g.taps = ssim_taps16();  // shrunk 16-bit images: c1, c2 of L = 65535
    run_ssim(g, a.channels, stream);
}

namespace {

template <typename T>
void shrink(const DeviceView<const T>& a, const DeviceView<const T>& b, int f, double* out_a, double* out_b,
            cudaStream_t stream) {
    check_image_shape(a.width, a.height, a.channels);
    if (a.width != b.width || a.height != b.height || a.channels != b.channels)
        throw usage_error("ssim", "the device images differ in shape");
    if (f < 2 || f > kSsimMaxDownsample) throw usage_error("ssim", "a shrink factor outside 2.." + std::to_string(kSsimMaxDownsample));
    ShrinkArgs<T> g{};
    g.a = a.data, g.a_pitch = a.pitch, g.b = b.data, g.b_pitch = b.pitch;
    g.out_a = out_a, g.out_b = out_b;
    g.width = a.width, g.height = a.height, g.channels = a.channels, g.f = f;
    g.out_width = ssim_shrunk_side(a.width, f);
    g.out_height = ssim_shrunk_side(a.height, f);
    g.block_pixels = std::max(1, kShrinkSpan / (f * a.channels));
    const dim3 grid((g.out_width + g.block_pixels - 1) / g.block_pixels, std::min(g.out_height, 65535));
    shrink_kernel<T><<<grid, kShrinkThreads, 0, stream>>>(g);
    IMGPAR_CUDA_CHECK_LAUNCH("shrink_kernel");
}

}  // namespace

void ssim_shrink(const ConstDeviceViewU8& a, const ConstDeviceViewU8& b, int f, double* out_a, double* out_b,
                 cudaStream_t stream) {
    shrink(a, b, f, out_a, out_b, stream);
}

void ssim_shrink(const ConstDeviceViewU16& a, const ConstDeviceViewU16& b, int f, double* out_a, double* out_b,
                 cudaStream_t stream) {
    shrink(a, b, f, out_a, out_b, stream);
}

SsimSums ssim_sums_from(const unsigned long long* totals) {
    SsimSums s;
    for (int c = 0; c < kMaxChannels; ++c) {
        s.high[c] = static_cast<std::int64_t>(totals[c]);
        s.low[c] = static_cast<std::int64_t>(totals[kSsimTotals / 2 + c]);
    }
    return s;
}

}  // namespace imgpar::cuda
