// GPU histogram of 16-bit images: the exact 65,536-value counts of
// cpu::histogram(ConstViewU16) (src/ops/histogram.hpp, 16-BIT CONTRACT).
//
// Privatized (the default, on devices with 128 KiB of shared memory a
// block): a block counts one plane of its share of the rows into 65,536
// 16-bit counters in shared memory, two to a 32-bit word, then writes them
// to its own slot of a partial table; a second kernel adds the slots of each
// plane into the 64-bit counts. A counter is updated by a plain atomicAdd on
// its word (one shared-memory round trip, no compare-and-swap retries), and
// the value it returns says exactly what the addition did: a low counter
// that wraps past 65,535 carries one into its high neighbour, a high counter
// that wraps carries out of the word. The thread that saw the wrap settles
// it in the 64-bit global counts, which are exact modulo 2^64 whatever the
// order: 65,536 to the counter that wrapped, and minus one to the high
// neighbour a carry went into (src/ops/packed_counters.hpp). A warp whose
// samples are all equal (flat or constant areas) adds them as one update.
// The planes of one block group read the same rows at about the same time
// (block b counts plane b % P), so an RGB image is read from memory about
// once, its other planes hitting L2.
//
// Global atomics (devices with less shared memory): each sample goes to the
// 64-bit global counters, one atomic per distinct value of a warp.
#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/ops/packed_counters.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kBlock16 = 256;
constexpr int kPrivateThreads = 1024;
constexpr int kPrivateItems = 8;  // pixels a thread reads per step: 16 KiB of gray loads in flight an SM
constexpr std::size_t kPrivateSmem = kHistogramValues16 * sizeof(std::uint16_t);  // 128 KiB

// The sample of plane `p` of a pixel: a channel, or luma (p == C, or plane 0
// without channels).
template <int C, bool kChannels>
__device__ __forceinline__ unsigned plane_sample(const std::uint16_t* px, int p) {
    if constexpr (C >= 3) {
        if (!kChannels || p == C)
            return static_cast<unsigned>(luma601(__ldg(px), __ldg(px + 1), __ldg(px + 2)));
    }
    return __ldg(px + p);
}

// --- privatized --------------------------------------------------------------

// Adds n (1..32) to 16-bit counter v of `words`, settling a wrap in the
// 64-bit counts (src/ops/packed_counters.hpp: exact in any order).
__device__ __forceinline__ void add_private(unsigned* words, unsigned v, unsigned n, unsigned long long* global) {
    const bool high = (v & 1u) != 0u;
    const unsigned old = atomicAdd(words + (v >> 1), packed_increment(high, n));
    const PackedSettlement s = settle_packed_add(old, high, n);
    if (s.own != 0ull) {  // once in 65,536 counts of v
        atomicAdd(global + v, s.own);
        if (s.neighbour != 0ull) atomicAdd(global + v + 1, s.neighbour);
    }
}

// Every lane of the warp calls it. A warp of one valid value adds 32 once
// (a constant area's 32 equal updates would be serialised on one word).
__device__ __forceinline__ void warp_add_private(unsigned* words, bool valid, unsigned v, unsigned long long* global) {
    const unsigned key = valid ? v : 0x10000u;
    if (__all_sync(0xffffffffu, key == __shfl_sync(0xffffffffu, key, 0))) {
        if (valid && (threadIdx.x & 31u) == 0u) add_private(words, v, 32u, global);
    } else if (valid) {
        add_private(words, v, 1u, global);
    }
}

// Block b counts plane b % P over rows b / P, b / P + groups, ...; its
// counters go to partial slot b.
template <int C, bool kChannels>
__global__ void __launch_bounds__(kPrivateThreads) histogram16_private_kernel(
    const unsigned char* __restrict__ data, std::size_t pitch, int width, int height, int planes,
    unsigned long long* __restrict__ out, std::uint16_t* __restrict__ partial) {
    extern __shared__ unsigned words[];  // 32,768 words: counters 2v, 2v+1
    for (int i = static_cast<int>(threadIdx.x); i < kHistogramValues16 / 2; i += kPrivateThreads) words[i] = 0u;
    __syncthreads();
    const int p = static_cast<int>(blockIdx.x) % planes;
    const int groups = static_cast<int>(gridDim.x) / planes;
    unsigned long long* global = out + static_cast<std::size_t>(p) * kHistogramValues16;
    for (int y = static_cast<int>(blockIdx.x) / planes; y < height; y += groups) {
        const std::uint16_t* row = reinterpret_cast<const std::uint16_t*>(data + static_cast<std::size_t>(y) * pitch);
        // x0 is block-uniform, so warps stay converged for the match.
        for (int x0 = 0; x0 < width; x0 += kPrivateThreads * kPrivateItems) {
            unsigned s[kPrivateItems];
            bool valid[kPrivateItems];
#pragma unroll
            for (int k = 0; k < kPrivateItems; ++k) {
                const int x = x0 + k * kPrivateThreads + static_cast<int>(threadIdx.x);
                valid[k] = x < width;
                s[k] = valid[k] ? plane_sample<C, kChannels>(row + static_cast<std::size_t>(x) * C, p) : 0u;
            }
#pragma unroll
            for (int k = 0; k < kPrivateItems; ++k) warp_add_private(words, valid[k], s[k], global);
        }
    }
    __syncthreads();
    unsigned* slot = reinterpret_cast<unsigned*>(partial + static_cast<std::size_t>(blockIdx.x) * kHistogramValues16);
    for (int i = static_cast<int>(threadIdx.x); i < kHistogramValues16 / 2; i += kPrivateThreads) slot[i] = words[i];
}

// out[p][v] += the partial counters of plane p's blocks (slots p, p + P, ...).
__global__ void __launch_bounds__(256) histogram16_gather_kernel(const std::uint16_t* __restrict__ partial, int planes,
                                                                 int blocks, unsigned long long* __restrict__ out) {
    const int p = static_cast<int>(blockIdx.y);
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);  // word: values 2i, 2i + 1
    if (i >= kHistogramValues16 / 2) return;
    // The slots are independent loads: eight in flight a thread, where one
    // at a time made the gather a long chain of memory round trips.
    unsigned lo = 0, hi = 0;
#pragma unroll 8
    for (int b = p; b < blocks; b += planes) {
        const unsigned w = __ldg(reinterpret_cast<const unsigned*>(partial + static_cast<std::size_t>(b) * kHistogramValues16) + i);
        lo += w & 0xFFFFu;
        hi += w >> 16;
    }
    unsigned long long* o = out + static_cast<std::size_t>(p) * kHistogramValues16 + 2 * i;
    o[0] += lo;
    o[1] += hi;
}

// --- global atomics ------------------------------------------------------------

// Adds one to plane[v] for every lane with `valid`, one atomic per distinct
// value of the warp. Every lane of the warp must call it.
__device__ __forceinline__ void warp_count(unsigned long long* plane, bool valid, unsigned v) {
    const unsigned key = valid ? v : 0x10000u;
    const unsigned peers = __match_any_sync(0xffffffffu, key);
    const int lane = static_cast<int>(threadIdx.x & 31u);
    if (valid && lane == __ffs(peers) - 1) atomicAdd(plane + v, static_cast<unsigned long long>(__popc(peers)));
}

// Rows stride over gridDim.y, pixels over the x blocks (block-uniform x0).
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

struct Device16 {
    int sms = 1;
    int smem_optin = 0;
};

Device16 device16() {
    int device = 0;
    Device16 d;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&d.smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    d.sms = std::max(1, d.sms);
    return d;
}

bool takes_private(const Device16& d) { return static_cast<std::size_t>(d.smem_optin) >= kPrivateSmem; }

// Enough blocks to fill the device a few times over, spread over rows so a
// 1xN or Nx1 image still gets many.
dim3 grid16(int width, int height, int sms) {
    const int target = sms * 8;
    const int gx = std::min((width + kBlock16 - 1) / kBlock16, target);
    const int gy = std::min(height, std::max(1, target / gx));
    return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(std::min(gy, 65535)));
}

template <int C, bool kChannels, bool kLuma>
void launch_global(const ConstDeviceViewU16& image, unsigned long long* out, int sms, cudaStream_t stream) {
    histogram16_kernel<C, kChannels, kLuma><<<grid16(image.width, image.height, sms), kBlock16, 0, stream>>>(
        reinterpret_cast<const unsigned char*>(image.data), image.pitch, image.width, image.height, out);
    IMGPAR_CUDA_CHECK_LAUNCH("histogram16_kernel");
}

// Blocks a plane: one block an SM in all (the 128 KiB counters leave room
// for one), fewer for small images (each block clears and writes 128 KiB).
int private_groups(const ConstDeviceViewU16& image, int planes, int sms) {
    const long long pixels = static_cast<long long>(image.width) * image.height;
    const long long by_size = std::max(1LL, pixels / kHistogramValues16);
    return static_cast<int>(std::min<long long>({by_size, std::max(1, sms / planes), image.height}));
}

template <int C, bool kChannels>
void launch_private(const ConstDeviceViewU16& image, int planes, unsigned long long* out, std::uint16_t* partial,
                    int groups, cudaStream_t stream) {
    const auto kernel = histogram16_private_kernel<C, kChannels>;
    IMGPAR_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kPrivateSmem)));
    const int blocks = groups * planes;
    kernel<<<blocks, kPrivateThreads, kPrivateSmem, stream>>>(reinterpret_cast<const unsigned char*>(image.data),
                                                              image.pitch, image.width, image.height, planes, out, partial);
    IMGPAR_CUDA_CHECK_LAUNCH("histogram16_private_kernel");
    const dim3 grid((kHistogramValues16 / 2 + 255) / 256, static_cast<unsigned>(planes));
    histogram16_gather_kernel<<<grid, 256, 0, stream>>>(partial, planes, blocks, out);
    IMGPAR_CUDA_CHECK_LAUNCH("histogram16_gather_kernel");
}

template <int C>
void launch_private_layout(const ConstDeviceViewU16& image, HistogramPlanes planes, int P, unsigned long long* out,
                           std::uint16_t* partial, int groups, cudaStream_t stream) {
    if (planes.channels)
        launch_private<C, true>(image, P, out, partial, groups, stream);
    else
        launch_private<C, false>(image, P, out, partial, groups, stream);
}

}  // namespace

void check_device_view16(const ConstDeviceViewU16& v, const char* what) {
    check_device_view(ConstDeviceViewU8{reinterpret_cast<const std::uint8_t*>(v.data), v.width, v.height, v.channels, v.pitch},
                      what);
    if (v.pitch < v.row_bytes() || v.pitch % 2 != 0 || reinterpret_cast<std::uintptr_t>(v.data) % 2 != 0)
        throw usage_error(what, "a 16-bit device image needs 2-byte aligned rows and a pitch of at least its row");
}

std::string histogram16_kernel_name() {
    if (takes_private(device16()))
        return "privatized 16-bit counters in shared memory (65536 values, a plane a block), partials gathered";
    return "warp-merged global atomics, 65536 values per plane, all planes in one pass";
}

void HistogramWorkspace::reserve16() {
    counts16_.reserve(static_cast<std::size_t>(kMaxHistogramPlanes) * kHistogramValues16);
    luts16_.reserve(static_cast<std::size_t>(kMaxChannels) * kHistogramValues16);
    // One partial slot a block: at most one block an SM per plane group.
    const Device16 d = device16();
    if (takes_private(d))
        partials16_.reserve(static_cast<std::size_t>(std::max(d.sms, kMaxHistogramPlanes)) * kHistogramValues16);
    if (!host16_.get())
        host16_ = PinnedBuffer<unsigned long long>(static_cast<std::size_t>(kMaxHistogramPlanes) * kHistogramValues16);
}

void histogram(const ConstDeviceViewU16& image, HistogramPlanes planes, unsigned long long* d_counts,
               HistogramWorkspace& ws, cudaStream_t stream) {
    check_device_view16(image, "histogram");
    if (!d_counts) throw usage_error("histogram", "no device buffer for the counts");
    const int P = planes.count(image.channels);
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(d_counts, 0, static_cast<std::size_t>(P) * kHistogramValues16 * sizeof(unsigned long long), stream));
    const Device16 d = device16();
    if (takes_private(d)) {
        ws.reserve16();
        const int groups = private_groups(image, P, d.sms);
        switch (image.channels) {
            case 1: launch_private_layout<1>(image, planes, P, d_counts, ws.partials16(), groups, stream); break;
            case 2: launch_private_layout<2>(image, planes, P, d_counts, ws.partials16(), groups, stream); break;
            case 3: launch_private_layout<3>(image, planes, P, d_counts, ws.partials16(), groups, stream); break;
            default: launch_private_layout<4>(image, planes, P, d_counts, ws.partials16(), groups, stream); break;
        }
        return;
    }
    const bool luma = planes.luma && image.channels >= 3;
    switch (image.channels) {
        case 1: launch_global<1, true, false>(image, d_counts, d.sms, stream); break;
        case 2: launch_global<2, true, false>(image, d_counts, d.sms, stream); break;
        case 3:
            if (!planes.channels) launch_global<3, false, true>(image, d_counts, d.sms, stream);
            else if (luma) launch_global<3, true, true>(image, d_counts, d.sms, stream);
            else launch_global<3, true, false>(image, d_counts, d.sms, stream);
            break;
        default:
            if (!planes.channels) launch_global<4, false, true>(image, d_counts, d.sms, stream);
            else if (luma) launch_global<4, true, true>(image, d_counts, d.sms, stream);
            else launch_global<4, true, false>(image, d_counts, d.sms, stream);
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
    histogram(image, planes, ws.counts16(), ws, stream);
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
