// GPU equalize and threshold: dispatch -> thin kernels (lookup tables from the
// counts; streaming apply passes) -> chunk helpers in cuda/histogram_block.cuh.
// The per-sample math is src/ops/histogram_math.hpp, shared with the CPU.
#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/histogram.hpp"
#include "cuda/histogram_block.cuh"
#include "cuda/histogram_launch.hpp"
#include "cuda/occupancy.hpp"
#include "cuda/session.hpp"
#include "cuda/histogram_policy.hpp"
#include "src/ops/histogram_math.hpp"

namespace imgpar::cuda {
namespace {

// --- Thin kernels -----------------------------------------------------------

// Block p turns the 256 counts of plane p into its equalization table:
// inclusive scan (cumulative counts) in shared memory, then
// equalize_lut_value. 256 threads, one per value.
__global__ void __launch_bounds__(256) equalize_lut_kernel(const unsigned long long* counts, std::uint8_t* luts) {
    __shared__ unsigned long long cdf[256];
    __shared__ unsigned long long cdf_min;
    const int v = threadIdx.x;
    const unsigned long long h = counts[blockIdx.x * 256 + v];
    cdf[v] = h;
    if (v == 0) cdf_min = 0;
    __syncthreads();
    for (int offset = 1; offset < 256; offset <<= 1) {
        const unsigned long long add = v >= offset ? cdf[v - offset] : 0ull;
        __syncthreads();
        cdf[v] += add;
        __syncthreads();
    }
    // The smallest value present is the one whose cumulative count is its own.
    if (h != 0 && (v == 0 || cdf[v - 1] == 0)) cdf_min = h;
    __syncthreads();
    luts[blockIdx.x * 256 + v] = static_cast<std::uint8_t>(equalize_lut_value(v, cdf[v], cdf_min, cdf[255]));
}

// Applies the tables: per colour channel (kLuma false) or through luma
// (kLuma true, colour images); alpha is copied. src may equal dst: each chunk
// is read and written by one thread, read first.
template <int C, bool kLuma>
__global__ void equalize_apply_kernel(hist::ApplyArgs a, const std::uint8_t* luts) {
    constexpr int kTables = kLuma ? 1 : C;
    constexpr int kColour = has_alpha(C) ? C - 1 : C;
    __shared__ std::uint8_t lut[kTables * 256];
    for (int i = threadIdx.x; i < kTables * 256; i += blockDim.x) lut[i] = luts[i];
    __syncthreads();
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < a.grid.total; k += stride) {
        int y, x0, n;
        hist::locate_chunk(a.grid, k, y, x0, n);
        hist::Chunk<C> in, out;
        hist::load_chunk<C>(a.src + static_cast<std::size_t>(y) * a.src_pitch + static_cast<std::size_t>(x0) * C, n,
                            a.vec, in);
        out.clear();
#pragma unroll
        for (int i = 0; i < hist::kChunkPixels; ++i) {
            if constexpr (kLuma) {
                int r = in.byte(i * C), g = in.byte(i * C + 1), b = in.byte(i * C + 2);
                equalize_luma_pixel(lut, r, g, b);
                out.put(i * C, r);
                out.put(i * C + 1, g);
                out.put(i * C + 2, b);
            } else {
#pragma unroll
                for (int c = 0; c < kColour; ++c) out.put(i * C + c, lut[c * 256 + in.byte(i * C + c)]);
            }
            if constexpr (kColour < C) out.put(i * C + C - 1, in.byte(i * C + C - 1));
        }
        hist::store_chunk<C>(a.dst + static_cast<std::size_t>(y) * a.dst_pitch + static_cast<std::size_t>(x0) * C, n,
                             a.vec, out);
    }
}

// Binary output from the intensity; alpha copied into the second channel.
template <int C>
__global__ void threshold_apply_kernel(hist::ApplyArgs a, int t) {
    constexpr int CO = has_alpha(C) ? 2 : 1;
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < a.grid.total; k += stride) {
        int y, x0, n;
        hist::locate_chunk(a.grid, k, y, x0, n);
        hist::Chunk<C> in;
        hist::Chunk<CO> out;
        hist::load_chunk<C>(a.src + static_cast<std::size_t>(y) * a.src_pitch + static_cast<std::size_t>(x0) * C, n,
                            a.vec, in);
        out.clear();
#pragma unroll
        for (int i = 0; i < hist::kChunkPixels; ++i) {
            const int v = C >= 3 ? luma601(in.byte(i * C), in.byte(i * C + 1), in.byte(i * C + 2)) : in.byte(i * C);
            out.put(i * CO, threshold_value(v, t));
            if constexpr (CO == 2) out.put(i * CO + 1, in.byte(i * C + C - 1));
        }
        hist::store_chunk<CO>(a.dst + static_cast<std::size_t>(y) * a.dst_pitch + static_cast<std::size_t>(x0) * CO, n,
                              a.vec, out);
    }
}

// --- Dispatch ---------------------------------------------------------------

hist::ApplyArgs apply_args(const ConstDeviceViewU8& src, const DeviceViewU8& dst) {
    hist::ApplyArgs a;
    a.src = src.data;
    a.src_pitch = src.pitch;
    a.dst = dst.data;
    a.dst_pitch = dst.pitch;
    a.grid = hist::chunk_grid(src);
    a.vec = hist::vector_ok(src.data, src.pitch) && hist::vector_ok(dst.data, dst.pitch);
    return a;
}

// Grid for a streaming pass: enough co-resident blocks to cover the chunks.
template <typename Kernel>
unsigned apply_blocks(Kernel kernel, const hist::ApplyArgs& a, const ApplyPolicy& policy) {
    const int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), policy.block_threads, 0);
    const unsigned long long needed = (a.grid.total + policy.block_threads - 1ull) / policy.block_threads;
    return static_cast<unsigned>(std::max(1ull, std::min<unsigned long long>(needed, static_cast<unsigned long long>(std::max(1, resident)))));
}

template <int C, bool kLuma>
void launch_equalize_apply(const hist::ApplyArgs& a, const std::uint8_t* luts, cudaStream_t stream) {
    const ApplyPolicy policy;
    auto kernel = equalize_apply_kernel<C, kLuma>;
    kernel<<<apply_blocks(kernel, a, policy), policy.block_threads, 0, stream>>>(a, luts);
    IMGPAR_CUDA_CHECK_LAUNCH("equalize_apply_kernel");
}

template <int C>
void launch_threshold_apply(const hist::ApplyArgs& a, int t, cudaStream_t stream) {
    const ApplyPolicy policy;
    auto kernel = threshold_apply_kernel<C>;
    kernel<<<apply_blocks(kernel, a, policy), policy.block_threads, 0, stream>>>(a, t);
    IMGPAR_CUDA_CHECK_LAUNCH("threshold_apply_kernel");
}

}  // namespace

void equalize(const ConstDeviceViewU8& src, const DeviceViewU8& dst, EqualizeMode mode, HistogramWorkspace& ws,
              cudaStream_t stream) {
    hist::check_device_image(src, "equalize");
    hist::check_device_image(dst, "equalize");
    if (dst.width != src.width || dst.height != src.height || dst.channels != src.channels)
        throw usage_error("equalize", "the output must have the input's size and channel count");
    ws.reserve();
    const int C = src.channels;
    const bool luma_mode = mode == EqualizeMode::Luma && C >= 3;
    HistogramPlanes planes;
    planes.channels = !luma_mode;
    planes.luma = luma_mode;
    const int P = planes.count(C);
    histogram(src, planes, ws.counts(), stream);
    equalize_lut_kernel<<<P, 256, 0, stream>>>(ws.counts(), ws.luts());
    IMGPAR_CUDA_CHECK_LAUNCH("equalize_lut_kernel");
    const hist::ApplyArgs a = apply_args(src, dst);
    switch (C) {
        case 1: launch_equalize_apply<1, false>(a, ws.luts(), stream); break;
        case 2: launch_equalize_apply<2, false>(a, ws.luts(), stream); break;
        case 3:
            if (luma_mode) launch_equalize_apply<3, true>(a, ws.luts(), stream);
            else launch_equalize_apply<3, false>(a, ws.luts(), stream);
            break;
        default:
            if (luma_mode) launch_equalize_apply<4, true>(a, ws.luts(), stream);
            else launch_equalize_apply<4, false>(a, ws.luts(), stream);
            break;
    }
}

int threshold(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const ThresholdSpec& spec, HistogramWorkspace& ws,
              cudaStream_t stream) {
    hist::check_device_image(src, "threshold");
    hist::check_device_image(dst, "threshold");
    const int C = src.channels;
    const int out_c = threshold_output_channels(C);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("threshold", "the output must have the input's size and " + std::to_string(out_c) +
                                           " channel(s)");
    int t = spec.value;
    if (spec.otsu) {
        ws.reserve();
        HistogramPlanes planes;  // the intensity plane comes first
        planes.channels = C < 3;
        planes.luma = C >= 3;
        histogram(src, planes, ws.counts(), stream);
        IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_counts(), ws.counts(), 256 * sizeof(unsigned long long),
                                          cudaMemcpyDeviceToHost, stream));
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
        HistogramCounts counts;
        for (int v = 0; v < kHistogramValues; ++v) counts[static_cast<std::size_t>(v)] = ws.host_counts()[v];
        t = otsu_threshold(counts);
    } else {
        threshold_at(t);  // validates the range
    }
    const hist::ApplyArgs a = apply_args(src, dst);
    switch (C) {
        case 1: launch_threshold_apply<1>(a, t, stream); break;
        case 2: launch_threshold_apply<2>(a, t, stream); break;
        case 3: launch_threshold_apply<3>(a, t, stream); break;
        default: launch_threshold_apply<4>(a, t, stream); break;
    }
    return t;
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void equalize(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, EqualizeMode mode, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::equalize(src, dst, mode, session.impl().histograms, stream);
    if (kernel)
        *kernel = "histogram, cumulative counts and lookup tables on the device, then one apply pass (" +
                  cuda::histogram_kernel_name(src.channels) + ")";
}

int threshold(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const ThresholdSpec& spec,
              std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    const int level = cuda::threshold(src, dst, spec, session.impl().histograms, stream);
    if (kernel)
        *kernel = spec.otsu ? "intensity histogram on the device, Otsu's level on the host, one apply pass"
                            : "one apply pass";
    return level;
}

}  // namespace imgpar::gpu
