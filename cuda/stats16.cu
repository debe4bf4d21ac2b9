// GPU statistics of 16-bit images: cpu::stats(ConstViewU16) (src/ops/stats.hpp,
// 16-BIT CONTRACT) in one pass, the 8-bit kernel's plan (cuda/stats.hpp) with
// 16-bit samples:
//   - each thread walks tiles of 8-32 pixels (64 bytes at most; 48 for RGB),
//     read with 16-byte loads where the rows allow, summing in 64-bit
//     registers (a square of a 16-bit sample already takes 32 bits, so the
//     8-bit path's dp4a byte sums do not carry over);
//   - the block's combine (Totals, block_combine of cuda/stats_kernel.cuh)
//     with tile keys (value << 32 | tile; 65535 - value for maxima), one
//     thread per channel and extreme reading its tile again for the first
//     pixel; pixel keys are value << 40 | index (indices below 2^40);
//   - 64-bit atomics into the shared workspace's accumulators, the last
//     block handing the totals over (the same workspace as 8 bits: one
//     reduction at a time per stream).
#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/occupancy.hpp"
#include "cuda/session.hpp"
#include "cuda/stats.hpp"
#include "cuda/stats_kernel.cuh"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace stats16_detail {

using stats_detail::kFields;
using stats_detail::kNoKey;
using stats_detail::Totals;

constexpr int kIndexBits16 = 40;

template <int C>
constexpr int tile_pixels16() {
    return C <= 2 ? 32 / C : 8;
}

struct Args16 {
    const unsigned char* data;
    std::size_t pitch;
    const std::uint8_t* mask;  // null: every pixel counts
    std::size_t mask_pitch;
    int width;
    unsigned tiles_per_row;
    unsigned full_tiles_per_row;
    unsigned total;  // below 2^31
    unsigned long long* accum;
    unsigned long long* result;
    unsigned* counter;
};

template <int C>
struct Running16 {
    unsigned long long sum[C], squares[C];
    unsigned nonzero[C];
    unsigned selected;
    int min[C], max[C];  // 65536 / -1 until a sample counts
    unsigned min_tile[C], max_tile[C];

    __device__ void init() {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            sum[c] = squares[c] = 0;
            nonzero[c] = 0;
            min[c] = 65536;
            max[c] = -1;
            min_tile[c] = max_tile[c] = 0;
        }
        selected = 0;
    }
    __device__ __forceinline__ void sample(int c, unsigned v) {
        sum[c] += v;
        squares[c] += static_cast<unsigned long long>(v * v);  // v * v < 2^32
        nonzero[c] += v != 0;
    }
    __device__ __forceinline__ void extremes(int c, int lo, int hi, unsigned tile) {
        if (lo < min[c]) {
            min[c] = lo;
            min_tile[c] = tile;
        }
        if (hi > max[c]) {
            max[c] = hi;
            max_tile[c] = tile;
        }
    }
};

// A whole tile from 16-byte loads: sample s of the tile is half s % 2 of
// word s / 2, channel s % C, pixel s / C.
template <int C, bool kMasked>
__device__ __forceinline__ void add_tile_vector16(const unsigned char* p, const std::uint8_t* m, unsigned tile,
                                                  Running16<C>& r) {
    constexpr int P = tile_pixels16<C>();
    constexpr int S = P * C;  // samples
    unsigned w[S / 2];
#pragma unroll
    for (int v = 0; v < S / 8; ++v) {
        const uint4 q = __ldg(reinterpret_cast<const uint4*>(p) + v);
        w[4 * v] = q.x;
        w[4 * v + 1] = q.y;
        w[4 * v + 2] = q.z;
        w[4 * v + 3] = q.w;
    }
    bool keep[P];
    int selected = P;
    if constexpr (kMasked) {
        selected = 0;
#pragma unroll
        for (int x = 0; x < P; ++x) {
            keep[x] = __ldg(m + x) != 0;
            selected += keep[x];
        }
        r.selected += static_cast<unsigned>(selected);
        if (selected == 0) return;
    }
    int lo[C], hi[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        lo[c] = 65535;
        hi[c] = 0;
    }
#pragma unroll
    for (int s = 0; s < S; ++s) {
        const int c = s % C;
        if (kMasked && !keep[s / C]) continue;
        const unsigned v = (w[s / 2] >> (16 * (s % 2))) & 0xFFFFu;
        r.sample(c, v);
        lo[c] = min(lo[c], static_cast<int>(v));
        hi[c] = max(hi[c], static_cast<int>(v));
    }
#pragma unroll
    for (int c = 0; c < C; ++c) r.extremes(c, lo[c], hi[c], tile);
}

// The first n pixels of a tile, one sample at a time.
template <int C, bool kMasked>
__device__ __forceinline__ void add_tile_scalar16(const std::uint16_t* p, const std::uint8_t* m, int n, unsigned tile,
                                                  Running16<C>& r) {
    int lo[C], hi[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        lo[c] = 65535;
        hi[c] = 0;
    }
    int selected = 0;
    for (int x = 0; x < n; ++x) {
        if (kMasked && m[x] == 0) continue;
        ++selected;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const unsigned v = p[x * C + c];
            r.sample(c, v);
            lo[c] = min(lo[c], static_cast<int>(v));
            hi[c] = max(hi[c], static_cast<int>(v));
        }
    }
    if (kMasked) r.selected += static_cast<unsigned>(selected);
    if (selected == 0) return;
#pragma unroll
    for (int c = 0; c < C; ++c) r.extremes(c, lo[c], hi[c], tile);
}

__device__ __forceinline__ unsigned long long tile_key16(int v, unsigned tile) {
    return static_cast<unsigned long long>(static_cast<unsigned>(v)) << 32 | tile;
}

// The pixel key of the first pixel of `tile` that counts and has `value` in
// channel c (kNoKey for no value).
template <int C, bool kMasked>
__device__ unsigned long long first_key16(const Args16& a, unsigned tile, int c, int value, bool maximum) {
    if (value < 0 || value > 65535) return kNoKey;
    const unsigned y = tile / a.tiles_per_row;
    const unsigned tx = tile - y * a.tiles_per_row;
    const int x0 = static_cast<int>(tx) * tile_pixels16<C>();
    const int n = min(tile_pixels16<C>(), a.width - x0);
    const std::uint16_t* p =
        reinterpret_cast<const std::uint16_t*>(a.data + y * a.pitch) + static_cast<std::size_t>(x0) * C;
    const std::uint8_t* m = kMasked ? a.mask + y * a.mask_pitch + x0 : nullptr;
    int x = -1;
    for (int i = 0; i < n && x < 0; ++i)
        if ((!kMasked || m[i] != 0) && p[i * C + c] == value) x = i;
    if (x < 0) return kNoKey;  // not reached: the value came from this tile
    const unsigned long long index =
        static_cast<unsigned long long>(y) * static_cast<unsigned>(a.width) + static_cast<unsigned>(x0 + x);
    const unsigned long long v = static_cast<unsigned>(maximum ? 65535 - value : value);
    return (v << kIndexBits16) | index;
}

template <int C, bool kMasked, bool kVector>
__global__ void __launch_bounds__(StatsPolicy::threads, StatsPolicy::min_blocks_per_sm) stats16_kernel(Args16 a) {
    constexpr int P = tile_pixels16<C>();
    Running16<C> r;
    r.init();
    const unsigned stride = gridDim.x * blockDim.x;
    unsigned tile = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = tile / a.tiles_per_row, tx = tile - y * a.tiles_per_row;
    const unsigned step_y = stride / a.tiles_per_row, step_x = stride - step_y * a.tiles_per_row;
    while (tile < a.total) {
        const int x0 = static_cast<int>(tx) * P;
        const unsigned char* row = a.data + y * a.pitch;
        const std::uint8_t* m = kMasked ? a.mask + y * a.mask_pitch + x0 : nullptr;
        if (kVector && tx < a.full_tiles_per_row)
            add_tile_vector16<C, kMasked>(row + static_cast<std::size_t>(x0) * C * 2, m, tile, r);
        else
            add_tile_scalar16<C, kMasked>(reinterpret_cast<const std::uint16_t*>(row) + static_cast<std::size_t>(x0) * C,
                                          m, min(P, a.width - x0), tile, r);
        tile += stride;
        tx += step_x;
        y += step_y;
        if (tx >= a.tiles_per_row) {
            tx -= a.tiles_per_row;
            ++y;
        }
    }

    Totals<C> t;
#pragma unroll
    for (int c = 0; c < C; ++c) {
        t.sum[c] = r.sum[c];
        t.squares[c] = r.squares[c];
        t.nonzero[c] = r.nonzero[c];
        t.min_key[c] = tile_key16(r.min[c], r.min_tile[c]);
        t.max_key[c] = tile_key16(65535 - r.max[c], r.max_tile[c]);
    }
    t.selected = r.selected;
    stats_detail::block_combine(t);
    __shared__ unsigned long long keys[2 * C];
    if (threadIdx.x == 0)
#pragma unroll
        for (int c = 0; c < C; ++c) {
            keys[2 * c] = t.min_key[c];
            keys[2 * c + 1] = t.max_key[c];
        }
    __syncthreads();
    if (threadIdx.x < 2 * C) {
        const int c = static_cast<int>(threadIdx.x) / 2;
        const bool maximum = threadIdx.x % 2 != 0;
        const unsigned long long key = keys[threadIdx.x];
        const int v = static_cast<int>(key >> 32);  // 65536: no sample counted
        keys[threadIdx.x] = first_key16<C, kMasked>(a, static_cast<unsigned>(key), c, maximum ? 65535 - v : v, maximum);
    }
    __syncthreads();
    if (threadIdx.x == 0)
#pragma unroll
        for (int c = 0; c < C; ++c) {
            t.min_key[c] = keys[2 * c];
            t.max_key[c] = keys[2 * c + 1];
        }

    // The grid's combine, as the 8-bit kernel's (cuda/stats_kernel.cuh).
    __shared__ unsigned long long fields[kFields];
    if (threadIdx.x == 0) t.store(fields);
    __syncthreads();
    if (threadIdx.x < kFields && stats_detail::field_used(static_cast<int>(threadIdx.x), C)) {
        const unsigned long long v = fields[threadIdx.x];
        if (stats_detail::is_key_field(static_cast<int>(threadIdx.x))) {
            if (v != kNoKey) atomicMin(a.accum + threadIdx.x, v);
        } else if (v != 0) {
            atomicAdd(a.accum + threadIdx.x, v);
        }
    }
    __threadfence();
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0) last = atomicAdd(a.counter, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last) return;
    __threadfence();
    if (threadIdx.x < kFields) {
        const int f = static_cast<int>(threadIdx.x);
        a.result[f] = atomicExch(a.accum + f, stats_detail::is_key_field(f) ? kNoKey : 0ull);
    }
    if (threadIdx.x == 0) *a.counter = 0;
}

template <int C, bool kMasked, bool kVector>
const void* kernel16_of() {
    return reinterpret_cast<const void*>(&stats16_kernel<C, kMasked, kVector>);
}

template <int C>
const void* choose16(bool masked, bool vector) {
    if (masked) return vector ? kernel16_of<C, true, true>() : kernel16_of<C, true, false>();
    return vector ? kernel16_of<C, false, true>() : kernel16_of<C, false, false>();
}

int tile_pixels16_of(int channels) {
    switch (channels) {
        case 1: return tile_pixels16<1>();
        case 2: return tile_pixels16<2>();
        case 3: return tile_pixels16<3>();
        default: return tile_pixels16<4>();
    }
}

}  // namespace stats16_detail

void stats(const ConstDeviceViewU16& image, const ConstDeviceViewU8* mask, StatsWorkspace& ws, cudaStream_t stream) {
    using namespace stats16_detail;
    check_device_view16(image, "stats");
    if (mask) {
        check_device_view(*mask, "stats mask");
        if (mask->width != image.width || mask->height != image.height || mask->channels != 1)
            throw usage_error("stats", "the mask is " + std::to_string(mask->width) + "x" +
                                           std::to_string(mask->height) + " with " + std::to_string(mask->channels) +
                                           " channels; the image is " + std::to_string(image.width) + "x" +
                                           std::to_string(image.height) + " and a mask has one channel");
    }
    if (static_cast<std::uint64_t>(image.width) * static_cast<std::uint64_t>(image.height) > (std::uint64_t{1} << 32))
        throw input_error("stats", "a 16-bit image of more than 2^32 pixels: its sums of squares would pass 64 bits");
    const int P = tile_pixels16_of(image.channels);
    Args16 a{};
    a.data = reinterpret_cast<const unsigned char*>(image.data);
    a.pitch = image.pitch;
    a.mask = mask ? mask->data : nullptr;
    a.mask_pitch = mask ? mask->pitch : 0;
    a.width = image.width;
    a.tiles_per_row = static_cast<unsigned>((image.width + P - 1) / P);
    a.full_tiles_per_row = static_cast<unsigned>(image.width / P);
    const unsigned long long total = static_cast<unsigned long long>(a.tiles_per_row) * static_cast<unsigned>(image.height);
    if (total >= (1ull << 31))
        throw usage_error("stats", "the image is too large for the GPU path (at most 2^31 tiles of " +
                                       std::to_string(P) + " pixels)");
    a.total = static_cast<unsigned>(total);
    // 16-byte loads need 16-byte aligned rows (the mask is read a byte at a time).
    const bool vector = reinterpret_cast<std::uintptr_t>(image.data) % 16 == 0 && image.pitch % 16 == 0;
    const bool masked = mask != nullptr;
    const void* kernel = nullptr;
    switch (image.channels) {
        case 1: kernel = choose16<1>(masked, vector); break;
        case 2: kernel = choose16<2>(masked, vector); break;
        case 3: kernel = choose16<3>(masked, vector); break;
        default: kernel = choose16<4>(masked, vector); break;
    }
    const int threads = StatsPolicy::threads;
    // As many blocks as are co-resident (each combines once): the thread
    // sums are 64-bit, so no tile count per thread limits them.
    const unsigned needed = (a.total + threads - 1) / threads;
    const unsigned resident = static_cast<unsigned>(co_resident_blocks(kernel, threads, 0));
    const int blocks = static_cast<int>(std::max(1u, std::min(needed, resident)));
    ws.reserve(stream);
    a.accum = ws.accum();
    a.result = ws.result();
    a.counter = ws.counter();
    void* params[] = {&a};
    IMGPAR_CUDA_CHECK(cudaLaunchKernel(kernel, dim3(static_cast<unsigned>(blocks)), dim3(threads), params, 0, stream));
    IMGPAR_CUDA_CHECK_LAUNCH("stats16_kernel");
}

ImageStats stats_result(const ConstDeviceViewU16& image, bool masked, StatsWorkspace& ws, cudaStream_t stream) {
    using namespace stats16_detail;
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_result(), ws.result(), kFields * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    const unsigned long long* v = ws.host_result();
    ImageStats st;
    st.width = image.width;
    st.height = image.height;
    st.channels = image.channels;
    st.masked = masked;
    st.type = SampleType::U16;
    st.selected = masked ? v[5 * kMaxChannels]
                         : static_cast<std::uint64_t>(image.width) * static_cast<std::uint64_t>(image.height);
    constexpr unsigned long long kIndexMask = (1ull << kIndexBits16) - 1;
    for (int c = 0; c < image.channels; ++c) {
        ChannelSums& s = st.channel[static_cast<std::size_t>(c)];
        s.sum = v[0 * kMaxChannels + c];
        s.sum_squares = v[1 * kMaxChannels + c];
        s.nonzero = v[2 * kMaxChannels + c];
        const unsigned long long min_key = v[3 * kMaxChannels + c], max_key = v[4 * kMaxChannels + c];
        s.count = st.selected;
        if (s.count == 0 || min_key == kNoKey || max_key == kNoKey) continue;  // no extremes
        s.min = static_cast<int>(min_key >> kIndexBits16);
        s.min_index = min_key & kIndexMask;
        s.max = 65535 - static_cast<int>(max_key >> kIndexBits16);
        s.max_index = max_key & kIndexMask;
    }
    return st;
}

std::string stats16_kernel_name(int channels, bool masked) {
    return std::string("one-pass reduction of all 16-bit channels") + (masked ? " under a mask" : "") + " (tiles of " +
           std::to_string(stats16_detail::tile_pixels16_of(channels)) +
           " pixels, 16-byte loads, 64-bit sums, warp shuffles, 64-bit atomics across blocks, " +
           std::to_string(StatsPolicy::threads) + " threads a block)";
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

ImageStats stats(Session& session, ConstDeviceViewU16 image, const ConstDeviceViewU8* mask, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    if (kernel) *kernel = cuda::stats16_kernel_name(image.channels, mask != nullptr);
    cuda::stats(image, mask, session.impl().statistics, stream);
    return cuda::stats_result(image, mask != nullptr, session.impl().statistics, stream);
}

}  // namespace imgpar::gpu
