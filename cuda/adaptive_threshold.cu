// GPU adaptive threshold (cuda/adaptive_threshold.hpp): dispatch -> thin
// kernels; the per-pixel arithmetic is src/ops/adaptive_math.hpp, shared
// with the CPU.
#include "cuda/adaptive_threshold.hpp"
#include "cuda/check.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/threshold.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kThreads = 256;

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
    d[0] = static_cast<std::uint8_t>(adaptive_decision(intensity[i], window_sum(sums, xs, ys), window_sum(squares, xs, ys), p));
    if (dst.channels == 2)
        d[1] = src.data[static_cast<std::size_t>(y) * src.pitch + static_cast<std::size_t>(x) * src.channels + src.channels - 1];
}

}  // namespace

void adaptive_threshold(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const AdaptiveSpec& spec,
                        AdaptiveWorkspace& ws, IntegralWorkspace& integrals, cudaStream_t stream) {
    check_image_shape(src.width, src.height, src.channels);
    if (dst.width != src.width || dst.height != src.height || dst.channels != threshold_output_channels(src.channels))
        throw usage_error("threshold", "the output must have the input's size and its threshold channels");
    check_adaptive_spec(spec);
    check_adaptive_window(spec, src.width, src.height);
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

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void adaptive_threshold(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const AdaptiveSpec& spec,
                        std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::adaptive_threshold(src, dst, spec, session.impl().adaptive, session.impl().integrals, stream);
    if (kernel)
        *kernel = "intensity plane, its tables of sums and squares (2-D tiled scan, u64), one pixel per thread from "
                  "its window's sums";
}

}  // namespace imgpar::gpu
