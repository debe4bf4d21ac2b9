// GPU adaptive thresholding of 16-bit images: cpu::adaptive_threshold on u16
// (src/ops/adaptive_threshold.hpp, 16-BIT CONTRACT), byte for byte, in the
// contract's own form (the 8-bit path's "tables" kernel, for 16 bits):
//   1. the intensity plane (gray, or luma601 of the 16-bit samples), one
//      pixel a thread, coalesced;
//   2. its u64 summed-area tables of v and v^2 (cuda/integral.cu, the tiled scan);
//   3. one pixel a thread: the window's sums from the tables (window_sum
//      over axis_ranges: the border rules), adaptive_decision16, alpha
//      copied. Neighbouring threads read neighbouring table entries, so the
//      four corners of each rectangle are coalesced reads through L2.
#include <algorithm>
#include <string>

#include "cuda/adaptive_threshold.hpp"
#include "cuda/check.hpp"
#include "cuda/histogram.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/ops/adaptive_math.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/threshold.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kThreads16 = 256;

template <int C>
__global__ void __launch_bounds__(kThreads16) intensity16_kernel(const unsigned char* src, std::size_t pitch, int width,
                                                                 int height, std::uint16_t* plane) {
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const std::uint16_t* s = reinterpret_cast<const std::uint16_t*>(src + static_cast<std::size_t>(y) * pitch);
        for (int x = blockIdx.x * kThreads16 + threadIdx.x; x < width; x += gridDim.x * kThreads16) {
            std::uint16_t px[C];
#pragma unroll
            for (int c = 0; c < C; ++c) px[c] = s[static_cast<std::size_t>(x) * C + c];
            plane[static_cast<std::size_t>(y) * width + x] = static_cast<std::uint16_t>(intensity_of16(px, C));
        }
    }
}

template <int C, bool kMean>
__global__ void __launch_bounds__(kThreads16) decide16_kernel(const unsigned char* src, std::size_t src_pitch,
                                                              const std::uint16_t* plane, PlaneTable sums,
                                                              PlaneTable squares, int width, int height, int radius,
                                                              AdaptiveParams p, unsigned char* dst, std::size_t dst_pitch) {
    constexpr int CO = has_alpha(C) ? 2 : 1;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const AxisRanges ys = axis_ranges(y, radius, height, kMean);
        const std::uint16_t* s = reinterpret_cast<const std::uint16_t*>(src + static_cast<std::size_t>(y) * src_pitch);
        std::uint16_t* d = reinterpret_cast<std::uint16_t*>(dst + static_cast<std::size_t>(y) * dst_pitch);
        for (int x = blockIdx.x * kThreads16 + threadIdx.x; x < width; x += gridDim.x * kThreads16) {
            const AxisRanges xs = axis_ranges(x, radius, width, kMean);
            const unsigned long long sum = window_sum(sums, xs, ys);
            const unsigned long long sq = kMean ? 0ull : window_sum(squares, xs, ys);
            const int v = plane[static_cast<std::size_t>(y) * width + x];
            const std::uint16_t alpha = CO == 2 ? s[static_cast<std::size_t>(x) * C + C - 1] : 0;
            d[static_cast<std::size_t>(x) * CO] = static_cast<std::uint16_t>(adaptive_decision16(v, sum, sq, p));
            if constexpr (CO == 2) d[static_cast<std::size_t>(x) * CO + 1] = alpha;
        }
    }
}

dim3 grid_for16(int width, int height) {
    int device = 0, sms = 0;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int target = std::max(1, sms) * 16;
    const int gx = std::min((width + kThreads16 - 1) / kThreads16, target);
    const int gy = std::min({height, std::max(1, target / gx), 65535});
    return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
}

template <int C>
void plane16(const ConstDeviceViewU16& src, std::uint16_t* plane, cudaStream_t stream) {
    const dim3 grid = grid_for16(src.width, src.height);
    const auto* data = reinterpret_cast<const unsigned char*>(src.data);
    intensity16_kernel<C><<<grid, kThreads16, 0, stream>>>(data, src.pitch, src.width, src.height, plane);
    IMGPAR_CUDA_CHECK_LAUNCH("intensity16_kernel");
}

template <int C>
void decide16(const ConstDeviceViewU16& src, const DeviceViewU16& dst, const AdaptiveSpec& spec,
              const std::uint16_t* plane, const PlaneTable& sums, const PlaneTable& squares, cudaStream_t stream) {
    const dim3 grid = grid_for16(src.width, src.height);
    const auto* data = reinterpret_cast<const unsigned char*>(src.data);
    auto* out = reinterpret_cast<unsigned char*>(dst.data);
    const AdaptiveParams p = adaptive_params16(spec);
    const int radius = spec.window / 2;
    if (spec.method == AdaptiveMethod::Mean)
        decide16_kernel<C, true><<<grid, kThreads16, 0, stream>>>(data, src.pitch, plane, sums, squares, src.width,
                                                                  src.height, radius, p, out, dst.pitch);
    else
        decide16_kernel<C, false><<<grid, kThreads16, 0, stream>>>(data, src.pitch, plane, sums, squares, src.width,
                                                                   src.height, radius, p, out, dst.pitch);
    IMGPAR_CUDA_CHECK_LAUNCH("decide16_kernel");
}

}  // namespace

void adaptive_threshold(const ConstDeviceViewU16& src, const DeviceViewU16& dst, const AdaptiveSpec& spec,
                        AdaptiveWorkspace& ws, IntegralWorkspace& integrals, cudaStream_t stream) {
    check_device_view16(src, "threshold");
    check_device_view16(dst, "threshold");
    const int C = src.channels, out_c = threshold_output_channels(C);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("threshold", "the output must have the input's size and " + std::to_string(out_c) +
                                           " channel(s)");
    check_adaptive_spec(spec);
    check_adaptive_window(spec, src.width, src.height);
    const bool mean = spec.method == AdaptiveMethod::Mean;
    const std::size_t W = static_cast<std::size_t>(src.width), H = static_cast<std::size_t>(src.height);
    ws.intensity16.reserve(W * H, stream);
    const std::size_t entries = (W + 1) * (H + 1);
    ws.tables.reserve(entries * (mean ? 1 : 2), stream);
    std::uint16_t* plane = ws.intensity16.get();
    switch (C) {
        case 1: plane16<1>(src, plane, stream); break;
        case 2: plane16<2>(src, plane, stream); break;
        case 3: plane16<3>(src, plane, stream); break;
        default: plane16<4>(src, plane, stream); break;
    }
    const SumTableView t = sum_table_view(ws.tables.get(), SumType::U64, src.width, src.height, 1, !mean);
    const ConstDeviceViewU16 v{plane, src.width, src.height, 1, W * sizeof(std::uint16_t)};
    integral(v, t, integrals, stream);
    const PlaneTable sums{ws.tables.get(), t.pitch};
    const PlaneTable squares{ws.tables.get() + entries, t.pitch};
    switch (C) {
        case 1: decide16<1>(src, dst, spec, plane, sums, squares, stream); break;
        case 2: decide16<2>(src, dst, spec, plane, sums, squares, stream); break;
        case 3: decide16<3>(src, dst, spec, plane, sums, squares, stream); break;
        default: decide16<4>(src, dst, spec, plane, sums, squares, stream); break;
    }
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void adaptive_threshold(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const AdaptiveSpec& spec,
                        std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::adaptive_threshold(src, dst, spec, session.impl().adaptive, session.impl().integrals, stream);
    if (kernel)
        *kernel = "16-bit intensity plane, u64 summed-area tables (" + cuda::integral16_kernel_name(
                      sum_table_view(nullptr, SumType::U64, src.width, src.height, 1, spec.method != AdaptiveMethod::Mean)) +
                  "), a level per pixel from its window's sums";
}

}  // namespace imgpar::gpu
