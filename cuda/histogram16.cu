// GPU histogram of 16-bit images: the exact 65,536-value counts of
// cpu::histogram(ConstViewU16) (src/ops/histogram.hpp, 16-BIT CONTRACT).
//
// 65,536 32-bit counters per plane (256 KiB) do not fit a block's shared
// memory, so the 8-bit path's privatized sub-histograms do not carry over.
// Each sample goes to the 64-bit global counters with one atomic, after the
// warp has merged equal samples (__match_any_sync: the lanes holding one
// value add once, their count): flat areas and constant images then cost an
// atomic per distinct value per warp instead of 32 same-address atomics,
// and photos (neighbours mostly different in 16 bits) spread their atomics
// over L2.
#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kBlock16 = 256;

// Adds one to plane[v] for every lane with `valid`, one atomic per distinct
// value of the warp. Every lane of the warp must call it (the match is over
// the full warp); invalid lanes take a key no sample has.
__device__ __forceinline__ void warp_count(unsigned long long* plane, bool valid, unsigned v) {
    const unsigned key = valid ? v : 0x10000u;
    const unsigned peers = __match_any_sync(0xffffffffu, key);
    const int lane = static_cast<int>(threadIdx.x & 31u);
    if (valid && lane == __ffs(peers) - 1) atomicAdd(plane + v, static_cast<unsigned long long>(__popc(peers)));
}

// Rows stride over gridDim.y, pixels over the x blocks; the x loop is
// block-uniform (x0 the same for every thread), so warps stay converged
// for the match. Each thread reads one pixel's C samples; neighbouring
// threads read neighbouring pixels (coalesced).
// kChannels: the C channels' planes first; kLuma: then luma (colour only),
// plane 0 when it is the only one.
template <int C, bool kChannels, bool kLuma>
__global__ void __launch_bounds__(kBlock16) histogram16_kernel(const unsigned char* __restrict__ data,
                                                                 std::size_t pitch, int width, int height,
                                                                 unsigned long long* __restrict__ out) {
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const std::uint16_t* row = reinterpret_cast<const std::uint16_t*>(data + static_cast<std::size_t>(y) * pitch);
        for (int x0 = blockIdx.x * kBlock16; x0 < width; x0 += gridDim.x * kBlock16) {
            const int x = x0 + static_cast<int>(threadIdx.x);
            const bool valid = x < width;
            unsigned s[C];
#pragma unroll
            for (int c = 0; c < C; ++c) s[c] = valid ? __ldg(row + static_cast<std::size_t>(x) * C + c) : 0u;
            if constexpr (kChannels) {
#pragma unroll
                for (int c = 0; c < C; ++c) warp_count(out + static_cast<std::size_t>(c) * kHistogramValues16, valid, s[c]);
            }
            if constexpr (kLuma)
                warp_count(out + static_cast<std::size_t>(kChannels ? C : 0) * kHistogramValues16, valid,
                           static_cast<unsigned>(luma601(static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2]))));
        }
    }
}

// Enough blocks to fill the device a few times over, spread over rows so a
// 1xN or Nx1 image still gets many.
dim3 grid16(int width, int height) {
    int device = 0, sms = 0;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int target = std::max(1, sms) * 8;
    const int gx = std::min((width + kBlock16 - 1) / kBlock16, target);
    const int gy = std::min(height, std::max(1, target / gx));
    return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(std::min(gy, 65535)));
}

template <int C, bool kChannels, bool kLuma>
void launch16(const ConstDeviceViewU16& image, unsigned long long* out, cudaStream_t stream) {
    histogram16_kernel<C, kChannels, kLuma><<<grid16(image.width, image.height), kBlock16, 0, stream>>>(
        reinterpret_cast<const unsigned char*>(image.data), image.pitch, image.width, image.height, out);
    IMGPAR_CUDA_CHECK_LAUNCH("histogram16_kernel");
}

}  // namespace

void check_device_view16(const ConstDeviceViewU16& v, const char* what) {
    check_device_view(ConstDeviceViewU8{reinterpret_cast<const std::uint8_t*>(v.data), v.width, v.height, v.channels, v.pitch},
                      what);
    if (v.pitch < v.row_bytes() || v.pitch % 2 != 0 || reinterpret_cast<std::uintptr_t>(v.data) % 2 != 0)
        throw usage_error(what, "a 16-bit device image needs 2-byte aligned rows and a pitch of at least its row");
}

std::string histogram16_kernel_name() {
    return "warp-merged global atomics, 65536 values per plane, all planes in one pass";
}

void HistogramWorkspace::reserve16() {
    counts16_.reserve(static_cast<std::size_t>(kMaxHistogramPlanes) * kHistogramValues16);
    luts16_.reserve(static_cast<std::size_t>(kMaxChannels) * kHistogramValues16);
    if (!host16_.get())
        host16_ = PinnedBuffer<unsigned long long>(static_cast<std::size_t>(kMaxHistogramPlanes) * kHistogramValues16);
}

void histogram(const ConstDeviceViewU16& image, HistogramPlanes planes, unsigned long long* d_counts,
               cudaStream_t stream) {
    check_device_view16(image, "histogram");
    if (!d_counts) throw usage_error("histogram", "no device buffer for the counts");
    const int P = planes.count(image.channels);
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(d_counts, 0, static_cast<std::size_t>(P) * kHistogramValues16 * sizeof(unsigned long long), stream));
    const bool luma = planes.luma && image.channels >= 3;
    switch (image.channels) {
        case 1: launch16<1, true, false>(image, d_counts, stream); break;
        case 2: launch16<2, true, false>(image, d_counts, stream); break;
        case 3:
            if (!planes.channels) launch16<3, false, true>(image, d_counts, stream);
            else if (luma) launch16<3, true, true>(image, d_counts, stream);
            else launch16<3, true, false>(image, d_counts, stream);
            break;
        default:
            if (!planes.channels) launch16<4, false, true>(image, d_counts, stream);
            else if (luma) launch16<4, true, true>(image, d_counts, stream);
            else launch16<4, true, false>(image, d_counts, stream);
            break;
    }
}

Histogram16 histogram(const ConstDeviceViewU16& image, bool with_luma, HistogramWorkspace& ws, cudaStream_t stream) {
    check_device_view16(image, "histogram");
    ws.reserve16();
    HistogramPlanes planes;
    planes.channels = true;
    planes.luma = with_luma && image.channels >= 3;
    const int P = planes.count(image.channels);
    histogram(image, planes, ws.counts16(), stream);
    const std::size_t n = static_cast<std::size_t>(P) * kHistogramValues16;
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_counts16(), ws.counts16(), n * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    Histogram16 h;
    h.channels = image.channels;
    h.luma = planes.luma;
    h.pixels = static_cast<std::uint64_t>(image.width) * static_cast<std::uint64_t>(image.height);
    h.counts.assign(ws.host_counts16(), ws.host_counts16() + n);
    return h;
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

Histogram16 histogram(Session& session, ConstDeviceViewU16 image, bool with_luma, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    if (kernel) *kernel = cuda::histogram16_kernel_name();
    return cuda::histogram(image, with_luma, session.impl().histograms, stream);
}

}  // namespace imgpar::gpu
