// The difference sums of two device images in one pass (cuda/compare.hpp),
// the comparison workspace, and the seam gpu::compare.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/check.hpp"
#include "cuda/compare.hpp"
#include "cuda/compare_totals.cuh"
#include "cuda/occupancy.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kThreads = ComparePolicy::threads;

// Bytes a thread takes at a time: 16 (one 16-byte load of each image), or 48
// for RGB, so that every group starts at channel 0 and holds whole pixels.
template <int C>
constexpr int group_bytes() {
    return C == 3 ? 48 : 16;
}

struct DiffArgs {
    const std::uint8_t* a;
    std::size_t a_pitch;
    const std::uint8_t* b;
    std::size_t b_pitch;
    std::uint8_t* d;  // the difference image, or null
    std::size_t d_pitch;
    unsigned groups_per_row;  // whole groups per row (0 when rows are not 16-byte aligned)
    unsigned groups;          // height * groups_per_row
    unsigned tail_start;      // first pixel after the groups
    unsigned tail_pixels;     // pixels per row after the groups
    unsigned tail_items;      // height * tail_pixels
    unsigned long long* totals;
};

// Bytes of word w (4 samples) that belong to channel c, as a byte mask.
template <int C>
__device__ __forceinline__ unsigned lane_mask(int w, int c) {
    unsigned m = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j)
        if ((4 * w + j) % C == c) m |= 0xFFu << (8 * j);
    return m;
}

// Words of a group whose bytes hold the same channels: every word for 1,
// 2 and 4 channels, every third for RGB.
template <int C>
constexpr int pattern_words() {
    return C == 3 ? 3 : 1;
}

template <int C>
struct Totals {
    static constexpr int P = pattern_words<C>();
    unsigned max[P];  // bytewise maxima per word position (channels resolved at the end)
    unsigned long long differ[C], sum_abs[C], sum_sq[C];
    unsigned long long pixels;

    __device__ void clear() {
#pragma unroll
        for (int p = 0; p < P; ++p) max[p] = 0;
#pragma unroll
        for (int c = 0; c < C; ++c) differ[c] = 0, sum_abs[c] = 0, sum_sq[c] = 0;
        pixels = 0;
    }

    // One group: W words of each image (16 or 48 bytes from a row start + k
    // groups), so byte 4w + j is sample 4w + j of whole pixels. Maxima and
    // the counts of differing bytes are kept per word position (one SIMD
    // operation a word), squares and sums per channel (dp4a under a mask).
    template <int W>
    __device__ void group(const unsigned (&aw)[W], const unsigned (&bw)[W], unsigned (&dw)[W]) {
        unsigned count[P];  // per byte lane: differing samples in this group (at most W / P < 256)
#pragma unroll
        for (int p = 0; p < P; ++p) count[p] = 0;
#pragma unroll
        for (int w = 0; w < W; ++w) {
            dw[w] = __vabsdiffu4(aw[w], bw[w]);
            max[w % P] = __vmaxu4(max[w % P], dw[w]);
            count[w % P] += __vcmpne4(dw[w], 0u) & 0x01010101u;  // lanes cannot carry: W / P <= 4
        }
#pragma unroll
        for (int c = 0; c < C; ++c) {
            unsigned sq = 0, ab = 0, nz = 0;  // at most 48 samples: no overflow
#pragma unroll
            for (int w = 0; w < W; ++w) {
                const unsigned m = lane_mask<C>(w, c);
                if (m == 0) continue;
                const unsigned dm = dw[w] & m;
                sq = __dp4a(dm, dw[w], sq);
                ab = __dp4a(dm, 0x01010101u, ab);
            }
#pragma unroll
            for (int p = 0; p < P; ++p) nz = __dp4a(count[p] & lane_mask<C>(p, c), 0x01010101u, nz);
            sum_sq[c] += sq;
            sum_abs[c] += ab;
            differ[c] += nz;
        }
        if constexpr (C == 2) {
#pragma unroll
            for (int w = 0; w < W; ++w) pixels += ((dw[w] & 0xFFFFu) != 0) + ((dw[w] >> 16) != 0);
        } else if constexpr (C == 4) {
#pragma unroll
            for (int w = 0; w < W; ++w) pixels += dw[w] != 0;
        } else if constexpr (C == 3) {
            // 16 pixels of 3 bytes across 12 words.
#pragma unroll
            for (int p = 0; p < 16; ++p) {
                const int o = 3 * p, w0 = o / 4;
                const unsigned hi = w0 + 1 < W ? dw[w0 + 1 < W ? w0 + 1 : 0] : 0u;
                pixels += (__funnelshift_r(dw[w0], hi, 8 * (o % 4)) & 0xFFFFFFu) != 0;
            }
        }
        // One channel: the pixels that differ are the samples (the host's).
    }

    // One pixel of a row's tail (which starts at a group's end, so at word
    // position 0), sample by sample: sample c goes to lane c of position 0.
    __device__ void pixel(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* d) {
        bool any = false;
        unsigned lanes = 0;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const int x = a[c], y = b[c];
            const unsigned v = static_cast<unsigned>(x > y ? x - y : y - x);
            lanes |= v << (8 * c);
            differ[c] += v != 0;
            sum_abs[c] += v;
            sum_sq[c] += v * v;
            any = any || v != 0;
            if (d) d[c] = static_cast<std::uint8_t>(v);
        }
        max[0] = __vmaxu4(max[0], lanes);
        pixels += any;
    }

    // The largest difference of channel c.
    __device__ unsigned channel_max(int c) const;
};

__device__ __forceinline__ unsigned byte_max(unsigned v) {
    const unsigned m = __vmaxu4(v, v >> 16);
    const unsigned lo = m & 0xFFu, hi = (m >> 8) & 0xFFu;
    return lo > hi ? lo : hi;
}

template <int C>
__device__ unsigned Totals<C>::channel_max(int c) const {
    unsigned m = 0;
#pragma unroll
    for (int p = 0; p < P; ++p) {
        const unsigned v = byte_max(max[p] & lane_mask<C>(p, c));
        m = v > m ? v : m;
    }
    return m;
}

template <int C>
__global__ void __launch_bounds__(kThreads) difference_kernel(DiffArgs g) {
    constexpr int kBytes = group_bytes<C>();
    constexpr int kWords = kBytes / 4;
    Totals<C> t;
    t.clear();
    const unsigned stride = gridDim.x * kThreads;
    for (unsigned i = blockIdx.x * kThreads + threadIdx.x; i < g.groups; i += stride) {
        const unsigned row = i / g.groups_per_row, k = i - row * g.groups_per_row;
        const uint4* pa = reinterpret_cast<const uint4*>(g.a + row * g.a_pitch + static_cast<std::size_t>(k) * kBytes);
        const uint4* pb = reinterpret_cast<const uint4*>(g.b + row * g.b_pitch + static_cast<std::size_t>(k) * kBytes);
        unsigned aw[kWords], bw[kWords], dw[kWords];
#pragma unroll
        for (int q = 0; q < kWords / 4; ++q) {
            const uint4 va = __ldcs(pa + q), vb = __ldcs(pb + q);  // read once: stream past the caches
            aw[4 * q] = va.x, aw[4 * q + 1] = va.y, aw[4 * q + 2] = va.z, aw[4 * q + 3] = va.w;
            bw[4 * q] = vb.x, bw[4 * q + 1] = vb.y, bw[4 * q + 2] = vb.z, bw[4 * q + 3] = vb.w;
        }
        t.group(aw, bw, dw);
        if (g.d) {
            uint4* pd = reinterpret_cast<uint4*>(g.d + row * g.d_pitch + static_cast<std::size_t>(k) * kBytes);
#pragma unroll
            for (int q = 0; q < kWords / 4; ++q)
                __stcs(pd + q, make_uint4(dw[4 * q], dw[4 * q + 1], dw[4 * q + 2], dw[4 * q + 3]));
        }
    }
    for (unsigned i = blockIdx.x * kThreads + threadIdx.x; i < g.tail_items; i += stride) {
        const unsigned row = i / g.tail_pixels, x = g.tail_start + (i - row * g.tail_pixels);
        const std::size_t at = static_cast<std::size_t>(x) * C;
        t.pixel(g.a + row * g.a_pitch + at, g.b + row * g.b_pitch + at, g.d ? g.d + row * g.d_pitch + at : nullptr);
    }

    unsigned long long v[4 * C + 1];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        v[4 * c] = t.channel_max(c);
        v[4 * c + 1] = t.differ[c];
        v[4 * c + 2] = t.sum_abs[c];
        v[4 * c + 3] = t.sum_sq[c];
    }
    v[4 * C] = t.pixels;
    compare_detail::add_block_totals<C, kThreads>(v, g.totals);
}

template <int C>
void launch(const DiffArgs& g, cudaStream_t stream) {
    const auto kernel = difference_kernel<C>;
    const unsigned long long items = static_cast<unsigned long long>(g.groups) + g.tail_items;
    const unsigned long long wanted = (items + kThreads - 1) / kThreads;
    const int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), kThreads, 0);
    const unsigned blocks = static_cast<unsigned>(wanted < static_cast<unsigned long long>(resident) ? wanted : resident);
    kernel<<<blocks > 0 ? blocks : 1, kThreads, 0, stream>>>(g);
    IMGPAR_CUDA_CHECK_LAUNCH("difference_kernel");
}

bool aligned16(const void* p, std::size_t pitch) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && pitch % 16 == 0; }

}  // namespace

void CompareWorkspace::reserve() {
    if (totals_.size() == 0) {
        totals_ = DeviceBuffer<unsigned long long>(kDifferenceTotals + kSsimTotals);
        host_ = PinnedBuffer<unsigned long long>(kDifferenceTotals + kSsimTotals);
    }
}

double* CompareWorkspace::shrunk(std::size_t count, cudaStream_t stream) {
    shrunk_.reserve(count, stream);
    return shrunk_.get();
}

DeviceViewU8 CompareWorkspace::image(int slot, int width, int height, int channels, cudaStream_t stream) {
    check_image_shape(width, height, channels);
    const std::size_t row = static_cast<std::size_t>(width) * channels;
    const std::size_t pitch = (row + 255) / 256 * 256;
    images_[slot].reserve(pitch * static_cast<std::size_t>(height), stream);
    return {images_[slot].get(), width, height, channels, pitch};
}

void difference_sums(const ConstDeviceViewU8& a, const ConstDeviceViewU8& b, const DeviceViewU8* diff,
                     unsigned long long* d_totals, cudaStream_t stream) {
    check_image_shape(a.width, a.height, a.channels);
    if (a.width != b.width || a.height != b.height || a.channels != b.channels ||
        (diff && (diff->width != a.width || diff->height != a.height || diff->channels != a.channels)))
        throw usage_error("compare", "the device images differ in shape");
    const int ch = a.channels;
    const int bytes = ch == 3 ? 48 : 16;
    const bool vec = aligned16(a.data, a.pitch) && aligned16(b.data, b.pitch) && (!diff || aligned16(diff->data, diff->pitch));
    DiffArgs g{};
    g.a = a.data, g.a_pitch = a.pitch, g.b = b.data, g.b_pitch = b.pitch;
    g.d = diff ? diff->data : nullptr, g.d_pitch = diff ? diff->pitch : 0;
    const std::size_t row_bytes = a.row_bytes();
    g.groups_per_row = vec ? static_cast<unsigned>(row_bytes / bytes) : 0;
    const unsigned long long groups = static_cast<unsigned long long>(g.groups_per_row) * a.height;
    g.tail_start = g.groups_per_row * static_cast<unsigned>(bytes / ch);
    g.tail_pixels = static_cast<unsigned>(a.width) - g.tail_start;
    const unsigned long long tail = static_cast<unsigned long long>(g.tail_pixels) * a.height;
    if (groups >= (1ull << 32) || tail >= (1ull << 32))
        throw usage_error("compare", "the images are too large for the GPU's difference pass (2^32 groups)");
    g.groups = static_cast<unsigned>(groups);
    g.tail_items = static_cast<unsigned>(tail);
    g.totals = d_totals;
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(d_totals, 0, kDifferenceTotals * sizeof(unsigned long long), stream));
    switch (ch) {
        case 1: launch<1>(g, stream); break;
        case 2: launch<2>(g, stream); break;
        case 3: launch<3>(g, stream); break;
        default: launch<4>(g, stream); break;
    }
}

DifferenceSums difference_sums_from(const unsigned long long* totals, int width, int height, int channels) {
    DifferenceSums s;
    s.channels = channels;
    s.pixels = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
    for (int c = 0; c < channels; ++c) {
        s.channel[c].max_abs = static_cast<int>(totals[4 * c]);
        s.channel[c].differ = totals[4 * c + 1];
        s.channel[c].sum_abs = totals[4 * c + 2];
        s.channel[c].sum_sq = totals[4 * c + 3];
    }
    // One channel: every differing sample is a differing pixel (the kernel
    // does not count them twice).
    s.pixels_differ = channels == 1 ? s.channel[0].differ : totals[kDifferenceTotals - 1];
    return s;
}

std::string compare_kernel_name(const CompareOptions& options) {
    std::string s = "difference_kernel (one pass, 16-byte loads, dp4a)";
    if (options.ssim && options.ssim_downsample != 1) s += ", shrink_kernel (f x f integer sums)";
    if (options.ssim) s += ", ssim_kernel (32x32 tiles, moments in shared memory, fp64)";
    return s;
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

Comparison compare(Session& session, ConstDeviceViewU8 a, ConstDeviceViewU8 b, const CompareOptions& options,
                   std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::CompareWorkspace& ws = session.impl().compare;
    ws.reserve();
    const SsimPlan plan = ssim_plan(options, a.width, a.height);
    if (options.ssim_map && !plan.fits)
        throw usage_error("--ssim-map", std::to_string(a.width) + "x" + std::to_string(a.height) + " " + plan.shortfall());
    const bool with_ssim = (options.ssim || options.ssim_map) && plan.fits;
    DeviceViewU8 diff, map;
    if (options.diff) diff = ws.image(0, a.width, a.height, a.channels, stream);
    if (options.ssim_map) map = ws.image(1, plan.width, plan.height, a.channels, stream);
    cuda::difference_sums(a, b, options.diff ? &diff : nullptr, ws.totals(), stream);
    const DeviceViewU8* map_out = options.ssim_map ? &map : nullptr;
    unsigned long long* ssim_totals = ws.totals() + cuda::kDifferenceTotals;
    if (with_ssim && plan.downsample == 1) cuda::ssim(a, b, map_out, ssim_totals, stream);
    if (with_ssim && plan.downsample > 1) {
        const std::size_t row = static_cast<std::size_t>(plan.width) * a.channels;
        const std::size_t count = row * static_cast<std::size_t>(plan.height);
        double* shrunk = ws.shrunk(2 * count, stream);
        cuda::ssim_shrink(a, b, plan.downsample, shrunk, shrunk + count, stream);
        cuda::ssim(SsimPlanes<double>{shrunk, plan.width, plan.height, a.channels, row},
                   SsimPlanes<double>{shrunk + count, plan.width, plan.height, a.channels, row}, map_out, ssim_totals,
                   stream);
    }
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_totals(), ws.totals(),
                                      (cuda::kDifferenceTotals + cuda::kSsimTotals) * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream));
    Comparison r;
    if (options.diff) {
        r.diff = ImageU8(a.width, a.height, a.channels);
        session.download(ConstDeviceViewU8(diff), r.diff.view());
    }
    if (options.ssim_map) {
        r.ssim_map = ImageU8(plan.width, plan.height, a.channels);
        session.download(ConstDeviceViewU8(map), r.ssim_map.view());
    }
    session.synchronize();
    r.sums = cuda::difference_sums_from(ws.host_totals(), a.width, a.height, a.channels);
    if (with_ssim)
        r.ssim = ssim_from_sums(cuda::ssim_sums_from(ws.host_totals() + cuda::kDifferenceTotals), plan.width,
                                plan.height, a.channels, plan.downsample);
    if (kernel) {
        CompareOptions ran = options;
        ran.ssim_downsample = plan.downsample;
        *kernel = cuda::compare_kernel_name(ran);
    }
    return r;
}

}  // namespace imgpar::gpu
