// SSIM on the device (cuda/compare.hpp): one kernel, one 32-sample x
// 32-row output tile per block. The tile's bytes with a 5-pixel halo are
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

#include <cstdint>

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

struct SsimArgs {
    const std::uint8_t* a;
    std::size_t a_pitch;
    const std::uint8_t* b;
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

template <int C>
constexpr std::size_t shared_bytes() {
    return sizeof(double) * kMoments * kRows * kTileSamples + 2 * kRows * staged_columns<C>();
}

__device__ __forceinline__ int floor_div(int a, int b) {
    const int q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

// v as a double, exactly, for 0 <= v < 2^31: the bits of 2^52 + v, less
// 2^52; the value static_cast<double>(v) gives. One fp64 subtraction where a
// conversion instruction runs at a quarter of the fp64 rate (the pass makes
// 30 of them an entry). Measured alone it changed little (2.91 against 2.96
// ms below); the kernel as measured and tested uses it.
__device__ __forceinline__ double exact_double(int v) {
    return __dsub_rn(__hiloint2double(0x43300000, v), 4503599627370496.0);
}

template <int C>
__global__ void __launch_bounds__(kThreads) ssim_kernel(SsimArgs g) {
    constexpr int kCols = staged_columns<C>();
    extern __shared__ double smem[];
    double* h = smem;  // [moment][row][sample]
    std::uint8_t* sa = reinterpret_cast<std::uint8_t*>(smem + kMoments * kRows * kTileSamples);  // [row][column]
    std::uint8_t* sb = sa + kRows * kCols;
    const int s0 = blockIdx.x * kTileSamples, y0 = blockIdx.y * kTileRows;

    // 1. Both tiles' bytes, reflected beyond the image.
    for (int i = threadIdx.x; i < kRows * kCols; i += kThreads) {
        const int r = i / kCols, j = i - r * kCols;
        const int y = ssim_reflect(y0 - kRadius + r, g.height);
        const int vs = s0 - kRadius * C + j;  // a sample index of the row, maybe outside it
        const int x = floor_div(vs, C), c = vs - x * C;
        const std::size_t at = static_cast<std::size_t>(ssim_reflect(x, g.width)) * C + c;
        sa[i] = g.a[static_cast<std::size_t>(y) * g.a_pitch + at];
        sb[i] = g.b[static_cast<std::size_t>(y) * g.b_pitch + at];
    }
    __syncthreads();

    // 2. Along rows: every staged row's five moments at the tile's samples.
    for (int i = threadIdx.x; i < kRows * kTileSamples; i += kThreads) {
        const int r = i / kTileSamples, k = i - r * kTileSamples;
        const std::uint8_t* ra = sa + r * kCols + k + kRadius * C;
        const std::uint8_t* rb = sb + r * kCols + k + kRadius * C;
        double pairs[kMoments][kRadius];
#pragma unroll
        for (int d = 1; d <= kRadius; ++d) {
            const int al = ra[-d * C], ar = ra[d * C], bl = rb[-d * C], br = rb[d * C];
            pairs[0][d - 1] = exact_double(al + ar);
            pairs[1][d - 1] = exact_double(bl + br);
            pairs[2][d - 1] = exact_double(al * al + ar * ar);
            pairs[3][d - 1] = exact_double(bl * bl + br * br);
            pairs[4][d - 1] = exact_double(al * bl + ar * br);
        }
        const int a0 = ra[0], b0 = rb[0];
        const double centre[kMoments] = {exact_double(a0), exact_double(b0), exact_double(a0 * a0),
                                         exact_double(b0 * b0), exact_double(a0 * b0)};
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

template <int C>
void launch(const SsimArgs& g, cudaStream_t stream) {
    const auto kernel = ssim_kernel<C>;
    constexpr std::size_t smem = shared_bytes<C>();
    static_assert(smem <= 227 * 1024, "the SSIM tile must fit in shared memory");
    if (smem > 48 * 1024)
        IMGPAR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    const dim3 grid((g.samples + kTileSamples - 1) / kTileSamples, (g.height + kTileRows - 1) / kTileRows);
    kernel<<<grid, kThreads, smem, stream>>>(g);
    IMGPAR_CUDA_CHECK_LAUNCH("ssim_kernel");
}

}  // namespace

void ssim(const ConstDeviceViewU8& a, const ConstDeviceViewU8& b, const DeviceViewU8* map, unsigned long long* d_totals,
          cudaStream_t stream) {
    check_image_shape(a.width, a.height, a.channels);
    if (a.width != b.width || a.height != b.height || a.channels != b.channels ||
        (map && (map->width != a.width || map->height != a.height || map->channels != a.channels)))
        throw usage_error("ssim", "the device images differ in shape");
    if (!ssim_fits(a.width, a.height))
        throw usage_error("ssim", std::to_string(a.width) + "x" + std::to_string(a.height) +
                                      " is smaller than the 11x11 window");
    if (a.height > 65535 * kTileRows)
        throw usage_error("ssim", "images taller than " + std::to_string(65535 * kTileRows) + " rows are not supported");
    SsimArgs g{};
    g.a = a.data, g.a_pitch = a.pitch, g.b = b.data, g.b_pitch = b.pitch;
    g.map = map ? map->data : nullptr, g.map_pitch = map ? map->pitch : 0;
    g.width = a.width, g.height = a.height;
    g.samples = a.width * a.channels;
    g.taps = ssim_taps();
    g.totals = d_totals;
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(d_totals, 0, kSsimTotals * sizeof(unsigned long long), stream));
    switch (a.channels) {
        case 1: launch<1>(g, stream); break;
        case 2: launch<2>(g, stream); break;
        case 3: launch<3>(g, stream); break;
        default: launch<4>(g, stream); break;
    }
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
