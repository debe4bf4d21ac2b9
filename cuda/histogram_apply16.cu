// GPU equalize and threshold of 16-bit images: cpu::equalize and
// cpu::threshold on u16 (src/ops/equalize.hpp, src/ops/threshold.hpp,
// 16-BIT CONTRACT), byte for byte. The exact counts (cuda/histogram16.cu),
// 65,536-entry tables built on the device by one block a plane, and a
// streaming apply pass whose table look-ups go through the read-only cache
// (a 128 KiB table a plane does not fit the 8-bit path's shared-memory
// copy). The per-sample math is src/ops/histogram_math.hpp, shared with the CPU.
#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/histogram.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/ops/histogram_math.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kLutThreads = 1024;
constexpr int kBinsPerThread = kHistogramValues16 / kLutThreads;  // 64
constexpr int kApplyThreads = 256;

// Block p turns plane p's 65,536 counts into its table: each thread sums its
// 64 neighbouring counts, the block scans the sums (warp shuffles, then the
// 32 warps' totals), and each thread walks its counts again from its
// exclusive prefix, writing equalize_lut_value16. cdf_min is the count of
// the first non-zero bin (a block minimum of the threads' first ones).
__global__ void __launch_bounds__(kLutThreads) equalize_lut16_kernel(const unsigned long long* counts,
                                                                     std::uint16_t* luts) {
    __shared__ unsigned long long warp_sums[kLutThreads / 32];
    __shared__ int first;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned long long* h = counts + static_cast<std::size_t>(blockIdx.x) * kHistogramValues16;
    std::uint16_t* lut = luts + static_cast<std::size_t>(blockIdx.x) * kHistogramValues16;
    const int v0 = static_cast<int>(threadIdx.x) * kBinsPerThread;
    if (threadIdx.x == 0) first = kHistogramValues16;
    unsigned long long mine = 0;
    int my_first = kHistogramValues16;
    for (int i = 0; i < kBinsPerThread; ++i) {
        const unsigned long long c = h[v0 + i];
        mine += c;
        if (c != 0 && my_first == kHistogramValues16) my_first = v0 + i;
    }
    unsigned long long inc = mine;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned long long up = __shfl_up_sync(0xffffffffu, inc, d);
        if (lane >= d) inc += up;
    }
    if (lane == 31) warp_sums[warp] = inc;
    __syncthreads();  // also orders first's initial value before the atomics
    if (my_first < kHistogramValues16) atomicMin(&first, my_first);
    unsigned long long before = inc - mine, total = 0;
    for (int w = 0; w < kLutThreads / 32; ++w) {
        if (w < warp) before += warp_sums[w];
        total += warp_sums[w];
    }
    __syncthreads();
    const unsigned long long cdf_min = first < kHistogramValues16 ? h[first] : 0ull;
    unsigned long long cdf = before;
    for (int i = 0; i < kBinsPerThread; ++i) {
        cdf += h[v0 + i];
        lut[v0 + i] = static_cast<std::uint16_t>(equalize_lut_value16(v0 + i, cdf, cdf_min, total));
    }
}

struct Apply16 {
    const unsigned char* src;
    std::size_t src_pitch;
    unsigned char* dst;
    std::size_t dst_pitch;
    int width, height;
};

// One pixel a thread, neighbouring threads neighbouring pixels (coalesced
// reads and writes); rows stride over gridDim.y. src may equal dst: each
// pixel is read before it is written, by one thread.
template <int C, bool kLuma>
__global__ void __launch_bounds__(kApplyThreads) equalize_apply16_kernel(Apply16 a, const std::uint16_t* __restrict__ luts) {
    constexpr int kColour = has_alpha(C) ? C - 1 : C;
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        const std::uint16_t* s = reinterpret_cast<const std::uint16_t*>(a.src + static_cast<std::size_t>(y) * a.src_pitch);
        std::uint16_t* d = reinterpret_cast<std::uint16_t*>(a.dst + static_cast<std::size_t>(y) * a.dst_pitch);
        for (int x = blockIdx.x * kApplyThreads + threadIdx.x; x < a.width; x += gridDim.x * kApplyThreads) {
            std::uint16_t px[C];
#pragma unroll
            for (int c = 0; c < C; ++c) px[c] = s[static_cast<std::size_t>(x) * C + c];
            std::uint16_t out[C];
            if constexpr (kLuma) {
                int r = px[0], g = px[1], b = px[2];
                const int yv = luma601(r, g, b);
                const int delta = static_cast<int>(__ldg(luts + yv)) - yv;
                out[0] = static_cast<std::uint16_t>(clamp_u16(r + delta));
                out[1] = static_cast<std::uint16_t>(clamp_u16(g + delta));
                out[2] = static_cast<std::uint16_t>(clamp_u16(b + delta));
            } else {
#pragma unroll
                for (int c = 0; c < kColour; ++c)
                    out[c] = __ldg(luts + static_cast<std::size_t>(c) * kHistogramValues16 + px[c]);
            }
            if constexpr (kColour < C) out[C - 1] = px[C - 1];
#pragma unroll
            for (int c = 0; c < C; ++c) d[static_cast<std::size_t>(x) * C + c] = out[c];
        }
    }
}

template <int C>
__global__ void __launch_bounds__(kApplyThreads) threshold_apply16_kernel(Apply16 a, int t) {
    constexpr int CO = has_alpha(C) ? 2 : 1;
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        const std::uint16_t* s = reinterpret_cast<const std::uint16_t*>(a.src + static_cast<std::size_t>(y) * a.src_pitch);
        std::uint16_t* d = reinterpret_cast<std::uint16_t*>(a.dst + static_cast<std::size_t>(y) * a.dst_pitch);
        for (int x = blockIdx.x * kApplyThreads + threadIdx.x; x < a.width; x += gridDim.x * kApplyThreads) {
            std::uint16_t px[C];
#pragma unroll
            for (int c = 0; c < C; ++c) px[c] = s[static_cast<std::size_t>(x) * C + c];
            const int v = C >= 3 ? luma601(px[0], px[1], px[2]) : px[0];
            d[static_cast<std::size_t>(x) * CO] = static_cast<std::uint16_t>(threshold_value16(v, t));
            if constexpr (CO == 2) d[static_cast<std::size_t>(x) * CO + 1] = px[C - 1];
        }
    }
}

dim3 apply_grid16(int width, int height) {
    int device = 0, sms = 0;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int target = std::max(1, sms) * 16;
    const int gx = std::min((width + kApplyThreads - 1) / kApplyThreads, target);
    const int gy = std::min({height, std::max(1, target / gx), 65535});
    return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
}

Apply16 apply16(const ConstDeviceViewU16& src, const DeviceViewU16& dst) {
    return {reinterpret_cast<const unsigned char*>(src.data), src.pitch, reinterpret_cast<unsigned char*>(dst.data),
            dst.pitch, src.width, src.height};
}

template <int C, bool kLuma>
void launch_equalize16(const Apply16& a, const std::uint16_t* luts, cudaStream_t stream) {
    equalize_apply16_kernel<C, kLuma><<<apply_grid16(a.width, a.height), kApplyThreads, 0, stream>>>(a, luts);
    IMGPAR_CUDA_CHECK_LAUNCH("equalize_apply16_kernel");
}

template <int C>
void launch_threshold16(const Apply16& a, int t, cudaStream_t stream) {
    threshold_apply16_kernel<C><<<apply_grid16(a.width, a.height), kApplyThreads, 0, stream>>>(a, t);
    IMGPAR_CUDA_CHECK_LAUNCH("threshold_apply16_kernel");
}

}  // namespace

void equalize(const ConstDeviceViewU16& src, const DeviceViewU16& dst, EqualizeMode mode, HistogramWorkspace& ws,
              cudaStream_t stream) {
    check_device_view16(src, "equalize");
    check_device_view16(dst, "equalize");
    if (dst.width != src.width || dst.height != src.height || dst.channels != src.channels)
        throw usage_error("equalize", "the output must have the input's size and channel count");
    ws.reserve16();
    const int C = src.channels;
    const bool luma_mode = mode == EqualizeMode::Luma && C >= 3;
    HistogramPlanes planes;
    planes.channels = !luma_mode;
    planes.luma = luma_mode;
    // Tables for the colour channels only (alpha is copied).
    const int tables = luma_mode ? 1 : (has_alpha(C) ? C - 1 : C);
    histogram(src, planes, ws.counts16(), ws, stream);
    equalize_lut16_kernel<<<tables, kLutThreads, 0, stream>>>(ws.counts16(), ws.luts16());
    IMGPAR_CUDA_CHECK_LAUNCH("equalize_lut16_kernel");
    const Apply16 a = apply16(src, dst);
    switch (C) {
        case 1: launch_equalize16<1, false>(a, ws.luts16(), stream); break;
        case 2: launch_equalize16<2, false>(a, ws.luts16(), stream); break;
        case 3:
            if (luma_mode) launch_equalize16<3, true>(a, ws.luts16(), stream);
            else launch_equalize16<3, false>(a, ws.luts16(), stream);
            break;
        default:
            if (luma_mode) launch_equalize16<4, true>(a, ws.luts16(), stream);
            else launch_equalize16<4, false>(a, ws.luts16(), stream);
            break;
    }
}

int threshold(const ConstDeviceViewU16& src, const DeviceViewU16& dst, const ThresholdSpec& spec,
              HistogramWorkspace& ws, cudaStream_t stream) {
    check_device_view16(src, "threshold");
    check_device_view16(dst, "threshold");
    const int C = src.channels;
    const int out_c = threshold_output_channels(C);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("threshold", "the output must have the input's size and " + std::to_string(out_c) +
                                           " channel(s)");
    int t = spec.value;
    if (spec.otsu) {
        ws.reserve16();
        HistogramPlanes planes;  // the intensity plane comes first
        planes.channels = C < 3;
        planes.luma = C >= 3;
        histogram(src, planes, ws.counts16(), ws, stream);
        IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_counts16(), ws.counts16(), kHistogramValues16 * sizeof(unsigned long long),
                                          cudaMemcpyDeviceToHost, stream));
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
        static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t), "64-bit counts");
        t = otsu_threshold(reinterpret_cast<const std::uint64_t*>(ws.host_counts16()), kHistogramValues16);
    } else {
        threshold_at_any_depth(t);  // validates 0..65535
    }
    const Apply16 a = apply16(src, dst);
    switch (C) {
        case 1: launch_threshold16<1>(a, t, stream); break;
        case 2: launch_threshold16<2>(a, t, stream); break;
        case 3: launch_threshold16<3>(a, t, stream); break;
        default: launch_threshold16<4>(a, t, stream); break;
    }
    return t;
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void equalize(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, EqualizeMode mode, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::equalize(src, dst, mode, session.impl().histograms, stream);
    if (kernel)
        *kernel = "16-bit histogram, cumulative counts and 65536-entry tables on the device, then one apply pass (" +
                  cuda::histogram16_kernel_name() + ")";
}

int threshold(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const ThresholdSpec& spec,
              std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    const int level = cuda::threshold(src, dst, spec, session.impl().histograms, stream);
    if (kernel)
        *kernel = spec.otsu ? "16-bit intensity histogram on the device, Otsu's level on the host, one apply pass"
                            : "one 16-bit apply pass";
    return level;
}

}  // namespace imgpar::gpu
