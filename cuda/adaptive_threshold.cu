// GPU adaptive threshold (cuda/adaptive_threshold.hpp): dispatch -> thin
// kernels; the per-pixel arithmetic is src/ops/adaptive_math.hpp, shared
// with the CPU.
#include "cuda/adaptive_threshold.hpp"

#include <algorithm>

#include "cuda/adaptive_mma.cuh"
#include "cuda/adaptive_strips.cuh"
#include "cuda/check.hpp"
#include "cuda/occupancy.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/threshold.hpp"

namespace imgpar::cuda {
namespace {

using adaptive_detail::edge_index;

constexpr int kThreads = 256;

// --- Fused: window sums in shared memory, no tables -----------------------------

using Fused = AdaptiveFusedPolicy;
constexpr int kSpan = Fused::tile_width + 2 * Fused::max_radius;  // window columns a tile reads
constexpr int kRing = 64;                                          // intensity rows kept per window column
static_assert(kSpan <= kThreads, "a thread per window column");
static_assert(Fused::band_rows * (Fused::tile_width / Fused::run) == kThreads, "a thread per run of a band");
// The ring holds the rows entering and leaving a window (2r + 2 of them)
// and, after a band's column phase, the band's rows below the r rows written
// after them (band_rows + r).
static_assert(2 * Fused::max_radius + 2 <= kRing && Fused::max_radius + Fused::band_rows <= kRing,
              "the intensity ring must hold a window and a band");
// Every window sum of the fused kernel fits in 32 bits: 63^2 * 255^2 < 2^32.
static_assert(static_cast<long long>(2 * Fused::max_radius + 1) * (2 * Fused::max_radius + 1) * 255 * 255 < (1LL << 32),
              "fused window sums must fit in 32 bits");

__device__ __forceinline__ std::uint32_t intensity_at(const ConstDeviceViewU8& src, int x, int y) {
    return static_cast<std::uint32_t>(
        intensity_of(src.data + static_cast<std::size_t>(y) * src.pitch + static_cast<std::size_t>(x) * src.channels, src.channels));
}

// One block per tile of tile_width x tile_rows pixels, in bands of band_rows
// rows. Column phase: each thread keeps the running sums of v (and v^2 for
// Sauvola and Niblack) down one window column, adding the row entering the
// window and subtracting the one leaving; each intensity is computed once,
// from the pixel's bytes, into a ring of the column's last rows, where the
// leaving value and the decisions read it. Row phase: each thread slides the
// window along a run of `run` pixels of one band row over the column sums in
// shared memory and decides them; a gray output's run is one 8-byte store.
// The sums equal the tables' window sums (the same samples: the border
// positions read the samples axis_ranges counts), so the decisions are the
// CPU's: adaptive_mean_decision is adaptive_decision's mean test without its
// division, adaptive_decision_fast returns adaptive_decision's result.
template <bool kSquares>
__global__ void __launch_bounds__(kThreads, Fused::min_blocks) fused_kernel(ConstDeviceViewU8 src, AdaptiveParams p, int radius,
                                                         bool replicate, DeviceViewU8 dst) {
    __shared__ std::uint8_t ring[kRing][kSpan];
    __shared__ std::uint32_t band_sums[Fused::band_rows][kSpan];
    __shared__ std::uint32_t band_squares[kSquares ? Fused::band_rows : 1][kSquares ? kSpan : 1];
    const int x0 = static_cast<int>(blockIdx.x) * Fused::tile_width;
    const int y0 = static_cast<int>(blockIdx.y) * Fused::tile_rows;
    const int span = Fused::tile_width + 2 * radius;
    const int rows = min(Fused::tile_rows, src.height - y0);

    // This thread's window column: image column x0 - radius + j, read at its
    // border position (columns past the image's right border plus the radius
    // feed no output; they read the last column). Ring row of image row y:
    // (y - y0 + radius) mod kRing.
    const int j = static_cast<int>(threadIdx.x);
    const bool column_thread = j < span;
    const int cx = edge_index(min(x0 - radius + j, src.width - 1 + radius), src.width, replicate);
    const auto ring_row = [&](int y) { return (y - y0 + radius) & (kRing - 1); };
    std::uint32_t sum = 0, squares = 0;
    if (column_thread)
        for (int y = y0 - radius; y <= y0 + radius; ++y) {
            const std::uint32_t v = intensity_at(src, cx, edge_index(y, src.height, replicate));
            ring[ring_row(y)][j] = static_cast<std::uint8_t>(v);
            sum += v;
            if (kSquares) squares += v * v;
        }

    const int run_row = j / (Fused::tile_width / Fused::run);
    const int run_x = (j % (Fused::tile_width / Fused::run)) * Fused::run;
    const std::int32_t n = static_cast<std::int32_t>(p.n);
    for (int b0 = 0; b0 < rows; b0 += Fused::band_rows) {
        const int band = min(Fused::band_rows, rows - b0);
        if (column_thread) {
#pragma unroll 4
            for (int i = 0; i < band; ++i) {
                const int y = y0 + b0 + i;
                if (b0 + i > 0) {  // slide down one row
                    const std::uint32_t in = intensity_at(src, cx, edge_index(y + radius, src.height, replicate));
                    const std::uint32_t out = ring[ring_row(y - radius - 1)][j];
                    ring[ring_row(y + radius)][j] = static_cast<std::uint8_t>(in);
                    sum += in - out;
                    if (kSquares) squares += in * in - out * out;
                }
                band_sums[i][j] = sum;
                if (kSquares) band_squares[i][j] = squares;
            }
        }
        __syncthreads();
        const int y = y0 + b0 + run_row;
        if (run_row < band) {
            std::uint32_t s1 = 0, s2 = 0;
            for (int k = 0; k <= 2 * radius; ++k) {
                s1 += band_sums[run_row][run_x + k];
                if (kSquares) s2 += band_squares[run_row][run_x + k];
            }
            const std::uint8_t* v_row = ring[ring_row(y)] + radius;
            std::uint32_t packed[2] = {0, 0};
#pragma unroll
            for (int q = 0; q < Fused::run; ++q) {
                if (q > 0) {
                    s1 += band_sums[run_row][run_x + q + 2 * radius] - band_sums[run_row][run_x + q - 1];
                    if (kSquares) s2 += band_squares[run_row][run_x + q + 2 * radius] - band_squares[run_row][run_x + q - 1];
                }
                const int v = v_row[run_x + q];
                const std::uint32_t decision = kSquares ? static_cast<std::uint32_t>(adaptive_decision_fast(v, s1, s2, p))
                                                        : static_cast<std::uint32_t>(adaptive_mean_decision(s1, v, n, p.offset));
                packed[q / 4] |= decision << (8 * (q % 4));
            }
            const int x = x0 + run_x;
            std::uint8_t* d = dst.data + static_cast<std::size_t>(y) * dst.pitch;
            if (dst.channels == 1 && x + Fused::run <= src.width && (reinterpret_cast<std::uintptr_t>(d + x) & 7) == 0) {
                *reinterpret_cast<uint2*>(d + x) = make_uint2(packed[0], packed[1]);
            } else {
                const std::uint8_t* s = src.data + static_cast<std::size_t>(y) * src.pitch;
                for (int q = 0; q < Fused::run && x + q < src.width; ++q) {
                    d[static_cast<std::size_t>(x + q) * dst.channels] = static_cast<std::uint8_t>(packed[q / 4] >> (8 * (q % 4)));
                    if (dst.channels == 2)  // alpha unchanged
                        d[static_cast<std::size_t>(x + q) * 2 + 1] = s[static_cast<std::size_t>(x + q) * src.channels + src.channels - 1];
                }
            }
        }
        __syncthreads();
    }
}

// --- Tables: windows too wide for the fused kernel --------------------------------

__global__ void __launch_bounds__(kThreads) intensity_kernel(ConstDeviceViewU8 src, std::uint8_t* out) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    const std::size_t w = static_cast<std::size_t>(src.width);
    if (i >= w * src.height) return;
    const std::size_t y = i / w, x = i % w;
    out[i] = static_cast<std::uint8_t>(intensity_of(src.data + y * src.pitch + x * src.channels, src.channels));
}

// One thread per pixel: its window's sums from the tables, the decision, and
// the alpha copied when there is one.
__global__ void __launch_bounds__(kThreads) decide_kernel(ConstDeviceViewU8 src, const std::uint8_t* intensity,
                                                          PlaneTable sums, PlaneTable squares, AdaptiveParams p,
                                                          int radius, bool replicate, DeviceViewU8 dst) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    const std::size_t w = static_cast<std::size_t>(src.width);
    if (i >= w * src.height) return;
    const int y = static_cast<int>(i / w), x = static_cast<int>(i % w);
    const AxisRanges xs = axis_ranges(x, radius, src.width, replicate);
    const AxisRanges ys = axis_ranges(y, radius, src.height, replicate);
    std::uint8_t* d = dst.data + static_cast<std::size_t>(y) * dst.pitch + static_cast<std::size_t>(x) * dst.channels;
    d[0] = static_cast<std::uint8_t>(
        adaptive_decision_fast(intensity[i], window_sum(sums, xs, ys), window_sum(squares, xs, ys), p));
    if (dst.channels == 2)
        d[1] = src.data[static_cast<std::size_t>(y) * src.pitch + static_cast<std::size_t>(x) * src.channels + src.channels - 1];
}

void through_tables(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const AdaptiveSpec& spec,
                    AdaptiveWorkspace& ws, IntegralWorkspace& integrals, cudaStream_t stream) {
    const std::size_t pixels = static_cast<std::size_t>(src.width) * src.height;
    ws.intensity.reserve(pixels, stream);
    const SumTableView t0 = sum_table_view(nullptr, SumType::U64, src.width, src.height, 1, true);
    ws.tables.reserve(t0.row_bytes() / 8 * t0.height * 2, stream);
    const unsigned blocks = static_cast<unsigned>((pixels + kThreads - 1) / kThreads);
    intensity_kernel<<<blocks, kThreads, 0, stream>>>(src, ws.intensity.get());
    IMGPAR_CUDA_CHECK_LAUNCH("intensity_kernel");
    const ConstDeviceViewU8 plane{ws.intensity.get(), src.width, src.height, 1, static_cast<std::size_t>(src.width)};
    const SumTableView table = sum_table_view(ws.tables.get(), SumType::U64, src.width, src.height, 1, true);
    integral(plane, table, integrals, stream);
    const PlaneTable sums{ws.tables.get(), table.pitch};
    const PlaneTable squares{ws.tables.get() + table.row_bytes() / 8 * table.height, table.pitch};
    decide_kernel<<<blocks, kThreads, 0, stream>>>(src, ws.intensity.get(), sums, squares, adaptive_params(spec),
                                                    spec.window / 2, spec.method == AdaptiveMethod::Mean, dst);
    IMGPAR_CUDA_CHECK_LAUNCH("decide_kernel");
}

// Rows start 8-byte aligned and the pitch keeps them so: the gray mean
// kernels then read a row's bytes 8 at a time.
bool rows_aligned8(const ConstDeviceViewU8& src) {
    return reinterpret_cast<std::uintptr_t>(src.data) % 8 == 0 && src.pitch % 8 == 0;
}

// Gray images under the mean method, windows 19 to 63: the warp-strip
// kernel (cuda/adaptive_strips.cuh), with bands sized to the device.
void gray_mean_strips(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const AdaptiveSpec& spec, int band_rows,
                      cudaStream_t stream) {
    using namespace adaptive_detail;
    const int radius = spec.window / 2;
    const bool aligned = rows_aligned8(src);
    const auto kernel = aligned ? gray_mean_strip_kernel<true> : gray_mean_strip_kernel<false>;
    const int halo_lanes = (radius + kLanePixels - 1) / kLanePixels;
    const int out_columns = kStripColumns - 2 * halo_lanes * kLanePixels;
    const int strips = (src.width + out_columns - 1) / out_columns;
    if (band_rows <= 0) {
        // Bands short enough for four waves of the warps the device holds at
        // once, at least 16 rows. Measured on an H200 (bench/lab/adaptive_sweep.cu,
        // 8192^2): at window 15, 16-24 rows were the fastest, 10-15% ahead of
        // 48 and 30% of 128; at window 31, 24 rows and this choice, with 16
        // and 32 within 4%, 48 9% and 128 28% slower. A band's first rows,
        // read before its first output row, are mostly L2 hits of the band
        // above.
        const int warps_wanted = co_resident_blocks(reinterpret_cast<const void*>(kernel), kStripThreads, 0) * Strips::warps * 4;
        const int bands_wanted = std::max(1, (warps_wanted + strips - 1) / strips);
        band_rows = std::clamp((src.height + bands_wanted - 1) / bands_wanted, Strips::min_band_rows, Strips::max_band_rows);
    }
    const dim3 grid((strips + Strips::warps - 1) / Strips::warps, (src.height + band_rows - 1) / band_rows);
    kernel<<<grid, kStripThreads, 0, stream>>>(src, adaptive_params(spec), radius, halo_lanes, band_rows, dst);
    IMGPAR_CUDA_CHECK_LAUNCH("gray_mean_strip_kernel");
}

// Gray and RGB images under the mean method, windows up to 17: the
// tensor-core kernel (cuda/adaptive_mma.cuh).
void mean_mma(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const AdaptiveSpec& spec, cudaStream_t stream) {
    using namespace adaptive_detail;
    const bool aligned = rows_aligned8(src);
    const auto kernel = src.channels == 3 ? mean_mma_kernel<3, false>
                                          : (aligned ? mean_mma_kernel<1, true> : mean_mma_kernel<1, false>);
    const dim3 grid((src.width + kMmaTileColumns - 1) / kMmaTileColumns,
                    (src.height + AdaptiveMmaPolicy::band_rows - 1) / AdaptiveMmaPolicy::band_rows);
    kernel<<<grid, kMmaThreads, 0, stream>>>(src, adaptive_params(spec), spec.window / 2, dst);
    IMGPAR_CUDA_CHECK_LAUNCH("mean_mma_kernel");
}

}  // namespace

AdaptiveKernel adaptive_threshold_kernel(const AdaptiveSpec& spec, int channels) {
    if (spec.window / 2 > AdaptiveFusedPolicy::max_radius) return AdaptiveKernel::Tables;
    if (spec.method == AdaptiveMethod::Mean && spec.window / 2 <= AdaptiveMmaPolicy::max_radius &&
        (channels == 1 || channels == 3))
        return AdaptiveKernel::MeanMma;
    return spec.method == AdaptiveMethod::Mean && channels == 1 ? AdaptiveKernel::GrayMeanStrips : AdaptiveKernel::Fused;
}

void adaptive_threshold(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const AdaptiveSpec& spec,
                        AdaptiveWorkspace& ws, IntegralWorkspace& integrals, cudaStream_t stream, int band_rows) {
    check_image_shape(src.width, src.height, src.channels);
    if (dst.width != src.width || dst.height != src.height || dst.channels != threshold_output_channels(src.channels))
        throw usage_error("threshold", "the output must have the input's size and its threshold channels");
    check_adaptive_spec(spec);
    check_adaptive_window(spec, src.width, src.height);
    const int radius = spec.window / 2;
    switch (adaptive_threshold_kernel(spec, src.channels)) {
        case AdaptiveKernel::Tables: return through_tables(src, dst, spec, ws, integrals, stream);
        case AdaptiveKernel::MeanMma: return mean_mma(src, dst, spec, stream);
        case AdaptiveKernel::GrayMeanStrips: return gray_mean_strips(src, dst, spec, band_rows, stream);
        case AdaptiveKernel::Fused: break;
    }
    const dim3 grid((src.width + AdaptiveFusedPolicy::tile_width - 1) / AdaptiveFusedPolicy::tile_width,
                    (src.height + AdaptiveFusedPolicy::tile_rows - 1) / AdaptiveFusedPolicy::tile_rows);
    if (spec.method == AdaptiveMethod::Mean)
        fused_kernel<false><<<grid, kThreads, 0, stream>>>(src, adaptive_params(spec), radius, true, dst);
    else
        fused_kernel<true><<<grid, kThreads, 0, stream>>>(src, adaptive_params(spec), radius, false, dst);
    IMGPAR_CUDA_CHECK_LAUNCH("fused_kernel");
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void adaptive_threshold(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const AdaptiveSpec& spec,
                        std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::adaptive_threshold(src, dst, spec, session.impl().adaptive, session.impl().integrals, stream);
    if (!kernel) return;
    switch (cuda::adaptive_threshold_kernel(spec, src.channels)) {
        case cuda::AdaptiveKernel::MeanMma:
            *kernel = "tensor cores: window sums along rows, then down columns, as exact u8 matrix products with "
                      "0/1 band matrices, no tables; integer mean test";
            break;
        case cuda::AdaptiveKernel::GrayMeanStrips:
            *kernel = "fused warp strips: window sums slid down columns in registers, along rows as differences of "
                      "a warp's prefix sums, no tables; integer mean test";
            break;
        case cuda::AdaptiveKernel::Fused:
            *kernel = spec.method == AdaptiveMethod::Mean
                          ? "fused: window sums slid down columns and along rows in shared memory, no tables; "
                            "integer mean test"
                          : "fused: window sums of v and v^2 slid down columns and along rows in shared memory, "
                            "no tables";
            break;
        case cuda::AdaptiveKernel::Tables:
            *kernel = "intensity plane, its tables of sums and squares (2-D tiled scan, u64), one pixel per thread "
                      "from its window's sums";
            break;
    }
}

}  // namespace imgpar::gpu
