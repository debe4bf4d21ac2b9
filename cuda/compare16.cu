// GPU comparison of two 16-bit images: cpu::compare on u16 pairs
// (src/ops/compare.hpp, 16-BIT CONTRACT), the same integers. The difference
// sums: one pixel a thread, neighbouring threads neighbouring pixels (both
// images read once, coalesced; the u16 difference image written the same
// way), per-thread 64-bit sums, then warp shuffles, the block's warps and
// one atomic per total (integer sums and maxima: any order gives the same).
// SSIM: the 8-bit path's tiled kernel on 16-bit samples (cuda/ssim.cu).
#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/compare.hpp"
#include "cuda/compare_totals.cuh"
#include "cuda/histogram.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/gpu/session.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kThreads16 = 256;

struct Diff16 {
    const unsigned char* a;
    std::size_t a_pitch;
    const unsigned char* b;
    std::size_t b_pitch;
    unsigned char* d;  // or null
    std::size_t d_pitch;
    int width, height;
    unsigned long long* totals;
};

template <int C>
__global__ void __launch_bounds__(kThreads16) difference16_kernel(Diff16 g) {
    unsigned long long max_abs[C], differ[C], sum_abs[C], sum_sq[C], pixels = 0;
#pragma unroll
    for (int c = 0; c < C; ++c) max_abs[c] = differ[c] = sum_abs[c] = sum_sq[c] = 0;
    for (int y = blockIdx.y; y < g.height; y += gridDim.y) {
        const std::uint16_t* ra = reinterpret_cast<const std::uint16_t*>(g.a + static_cast<std::size_t>(y) * g.a_pitch);
        const std::uint16_t* rb = reinterpret_cast<const std::uint16_t*>(g.b + static_cast<std::size_t>(y) * g.b_pitch);
        std::uint16_t* rd = g.d ? reinterpret_cast<std::uint16_t*>(g.d + static_cast<std::size_t>(y) * g.d_pitch) : nullptr;
        for (int x = blockIdx.x * kThreads16 + threadIdx.x; x < g.width; x += gridDim.x * kThreads16) {
            bool any = false;
#pragma unroll
            for (int c = 0; c < C; ++c) {
                const std::size_t i = static_cast<std::size_t>(x) * C + c;
                const int va = __ldcs(ra + i), vb = __ldcs(rb + i);  // read once: stream past the caches
                const unsigned d = static_cast<unsigned>(va > vb ? va - vb : vb - va);
                max_abs[c] = d > max_abs[c] ? d : max_abs[c];
                differ[c] += d != 0;
                sum_abs[c] += d;
                sum_sq[c] += static_cast<unsigned long long>(d) * d;
                any = any || d != 0;
                if (rd) rd[i] = static_cast<std::uint16_t>(d);
            }
            pixels += any;
        }
    }
    unsigned long long v[4 * C + 1];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        v[4 * c] = max_abs[c];
        v[4 * c + 1] = differ[c];
        v[4 * c + 2] = sum_abs[c];
        v[4 * c + 3] = sum_sq[c];
    }
    v[4 * C] = pixels;
    compare_detail::add_block_totals<C, kThreads16>(v, g.totals);
}

dim3 grid16(int width, int height) {
    int device = 0, sms = 0;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int target = std::max(1, sms) * 8;
    const int gx = std::min((width + kThreads16 - 1) / kThreads16, target);
    const int gy = std::min({height, std::max(1, target / gx), 65535});
    return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
}

template <int C>
void launch16(const Diff16& g, cudaStream_t stream) {
    difference16_kernel<C><<<grid16(g.width, g.height), kThreads16, 0, stream>>>(g);
    IMGPAR_CUDA_CHECK_LAUNCH("difference16_kernel");
}

}  // namespace

void difference_sums(const ConstDeviceViewU16& a, const ConstDeviceViewU16& b, const DeviceViewU16* diff,
                     unsigned long long* d_totals, cudaStream_t stream) {
    check_device_view16(a, "compare");
    check_device_view16(b, "compare");
    if (a.width != b.width || a.height != b.height || a.channels != b.channels)
        throw usage_error("compare", "the two images differ in size or channel count");
    if (diff && (diff->width != a.width || diff->height != a.height || diff->channels != a.channels))
        throw usage_error("compare", "the difference image's shape differs");
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(d_totals, 0, kDifferenceTotals * sizeof(unsigned long long), stream));
    Diff16 g{reinterpret_cast<const unsigned char*>(a.data), a.pitch, reinterpret_cast<const unsigned char*>(b.data),
             b.pitch, diff ? reinterpret_cast<unsigned char*>(diff->data) : nullptr, diff ? diff->pitch : 0,
             a.width, a.height, d_totals};
    switch (a.channels) {
        case 1: launch16<1>(g, stream); break;
        case 2: launch16<2>(g, stream); break;
        case 3: launch16<3>(g, stream); break;
        default: launch16<4>(g, stream); break;
    }
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

Comparison16 compare(Session& session, ConstDeviceViewU16 a, ConstDeviceViewU16 b, const CompareOptions& options,
                     std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::CompareWorkspace& ws = session.impl().compare;
    ws.reserve();
    const SsimPlan plan = ssim_plan(options, a.width, a.height);
    if (options.ssim_map && !plan.fits)
        throw usage_error("--ssim-map", std::to_string(a.width) + "x" + std::to_string(a.height) + " " + plan.shortfall());
    const bool with_ssim = (options.ssim || options.ssim_map) && plan.fits;
    DeviceViewU16 diff;
    DeviceViewU8 map;
    if (options.diff) {
        // The workspace's first image as bytes: a row of W * C samples of 2 bytes.
        const DeviceViewU8 bytes = ws.image(0, a.width * a.channels * 2, a.height, 1, stream);
        diff = {reinterpret_cast<std::uint16_t*>(bytes.data), a.width, a.height, a.channels, bytes.pitch};
    }
    if (options.ssim_map) map = ws.image(1, plan.width, plan.height, a.channels, stream);
    cuda::difference_sums(a, b, options.diff ? &diff : nullptr, ws.totals(), stream);
    unsigned long long* ssim_totals = ws.totals() + cuda::kDifferenceTotals;
    const DeviceViewU8* map_out = options.ssim_map ? &map : nullptr;
    if (with_ssim && plan.downsample == 1) cuda::ssim(a, b, map_out, ssim_totals, stream);
    if (with_ssim && plan.downsample > 1) {
        const std::size_t row = static_cast<std::size_t>(plan.width) * a.channels;
        const std::size_t count = row * static_cast<std::size_t>(plan.height);
        double* shrunk = ws.shrunk(2 * count, stream);
        cuda::ssim_shrink(a, b, plan.downsample, shrunk, shrunk + count, stream);
        cuda::ssim(SsimPlanes<double>{shrunk, plan.width, plan.height, a.channels, row},
                   SsimPlanes<double>{shrunk + count, plan.width, plan.height, a.channels, row}, map_out, ssim_totals,
                   stream, true);
    }
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_totals(), ws.totals(),
                                      (cuda::kDifferenceTotals + cuda::kSsimTotals) * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream));
    Comparison16 r;
    if (options.diff) {
        r.diff = ImageU16(a.width, a.height, a.channels);
        session.download(ConstDeviceViewU16(diff), r.diff.view());
    }
    if (options.ssim_map) {
        r.ssim_map = ImageU8(plan.width, plan.height, a.channels);
        session.download(ConstDeviceViewU8(map), r.ssim_map.view());
    }
    session.synchronize();
    r.sums = cuda::difference_sums_from(ws.host_totals(), a.width, a.height, a.channels);
    r.sums.data_range = 65535;
    if (with_ssim)
        r.ssim = ssim_from_sums(cuda::ssim_sums_from(ws.host_totals() + cuda::kDifferenceTotals), plan.width,
                                plan.height, a.channels, plan.downsample);
    if (kernel)
        *kernel = std::string("16-bit difference sums (a pixel a thread, 64-bit sums)") +
                  (with_ssim && plan.downsample > 1 ? ", shrink_kernel (f x f integer sums)" : "") +
                  (with_ssim ? ", SSIM of 16-bit samples (11x11 Gaussian moments, L = 65535)" : "");
    return r;
}

}  // namespace imgpar::gpu
