// GPU statistics: dispatch (validate, size the grid, launch, check) -> the
// kernel and its helpers (cuda/stats_kernel.cuh).
#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/occupancy.hpp"
#include "cuda/session.hpp"
#include "cuda/stats.hpp"
#include "cuda/stats_kernel.cuh"

namespace imgpar::cuda {

namespace {

using stats_detail::Args;
using stats_detail::kFields;
using stats_detail::kNoKey;

bool aligned16(const void* data, std::size_t pitch) {
    return reinterpret_cast<std::uintptr_t>(data) % 16 == 0 && pitch % 16 == 0;
}

template <int C, bool kMasked, bool kVector>
const void* kernel_of() {
    return reinterpret_cast<const void*>(&stats_detail::stats_kernel<C, kMasked, kVector>);
}

// The kernel instance for this image, by channels, mask and alignment.
const void* choose_kernel(int channels, bool masked, bool vector) {
    const int variant = (channels - 1) * 4 + (masked ? 2 : 0) + (vector ? 1 : 0);
    switch (variant) {
        case 0: return kernel_of<1, false, false>();
        case 1: return kernel_of<1, false, true>();
        case 2: return kernel_of<1, true, false>();
        case 3: return kernel_of<1, true, true>();
        case 4: return kernel_of<2, false, false>();
        case 5: return kernel_of<2, false, true>();
        case 6: return kernel_of<2, true, false>();
        case 7: return kernel_of<2, true, true>();
        case 8: return kernel_of<3, false, false>();
        case 9: return kernel_of<3, false, true>();
        case 10: return kernel_of<3, true, false>();
        case 11: return kernel_of<3, true, true>();
        case 12: return kernel_of<4, false, false>();
        case 13: return kernel_of<4, false, true>();
        case 14: return kernel_of<4, true, false>();
        default: return kernel_of<4, true, true>();
    }
}

int tile_pixels(int channels) {
    switch (channels) {
        case 1: return stats_detail::tile_pixels<1>();
        case 2: return stats_detail::tile_pixels<2>();
        case 3: return stats_detail::tile_pixels<3>();
        default: return stats_detail::tile_pixels<4>();
    }
}

}  // namespace

void StatsWorkspace::reserve(cudaStream_t stream) {
    if (accum_.reserve(kFields, stream)) {  // identities: zero sums, then all-ones keys
        IMGPAR_CUDA_CHECK(cudaMemsetAsync(accum_.get(), 0, kFields * sizeof(unsigned long long), stream));
        IMGPAR_CUDA_CHECK(cudaMemsetAsync(accum_.get() + 3 * kMaxChannels, 0xFF,
                                          2 * kMaxChannels * sizeof(unsigned long long), stream));
    }
    result_.reserve(kFields, stream);
    if (counter_.reserve(1, stream)) IMGPAR_CUDA_CHECK(cudaMemsetAsync(counter_.get(), 0, sizeof(unsigned), stream));
    if (!host_.get()) host_ = PinnedBuffer<unsigned long long>(kFields);
}

void stats(const ConstDeviceViewU8& image, const ConstDeviceViewU8* mask, StatsWorkspace& ws, cudaStream_t stream) {
    check_device_view(image, "stats");
    if (mask) {
        check_device_view(*mask, "stats mask");
        if (mask->width != image.width || mask->height != image.height || mask->channels != 1)
            throw usage_error("stats", "the mask is " + std::to_string(mask->width) + "x" +
                                           std::to_string(mask->height) + " with " + std::to_string(mask->channels) +
                                           " channels; the image is " + std::to_string(image.width) + "x" +
                                           std::to_string(image.height) + " and a mask has one channel");
    }
    const int P = tile_pixels(image.channels);
    Args a{};
    a.data = image.data;
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
    const bool vector = aligned16(image.data, image.pitch) && (!mask || aligned16(mask->data, mask->pitch));
    const void* kernel = choose_kernel(image.channels, mask != nullptr, vector);
    const int threads = StatsPolicy::threads;
    // As many blocks as are co-resident (each combines once), more when a
    // thread would otherwise walk more tiles than its 32-bit sums hold.
    const unsigned needed = (a.total + threads - 1) / threads;
    const unsigned per_thread = stats_detail::kMaxTilesPerThread * threads;
    const unsigned at_least = (a.total + per_thread - 1) / per_thread;
    const unsigned resident = static_cast<unsigned>(co_resident_blocks(kernel, threads, 0));
    const int blocks = static_cast<int>(std::min(needed, std::max(resident, at_least)));
    ws.reserve(stream);
    a.accum = ws.accum();
    a.result = ws.result();
    a.counter = ws.counter();
    void* params[] = {&a};
    IMGPAR_CUDA_CHECK(cudaLaunchKernel(kernel, dim3(static_cast<unsigned>(blocks)), dim3(threads), params, 0, stream));
    IMGPAR_CUDA_CHECK_LAUNCH("stats_kernel");
}

ImageStats stats_result(const ConstDeviceViewU8& image, bool masked, StatsWorkspace& ws, cudaStream_t stream) {
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_result(), ws.result(), kFields * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    const unsigned long long* v = ws.host_result();
    ImageStats st;
    st.width = image.width;
    st.height = image.height;
    st.channels = image.channels;
    st.masked = masked;
    st.selected = masked ? v[5 * kMaxChannels]
                         : static_cast<std::uint64_t>(image.width) * static_cast<std::uint64_t>(image.height);
    constexpr unsigned long long kIndexMask = (1ull << stats_detail::kIndexBits) - 1;
    for (int c = 0; c < image.channels; ++c) {
        ChannelSums& s = st.channel[static_cast<std::size_t>(c)];
        s.sum = v[0 * kMaxChannels + c];
        s.sum_squares = v[1 * kMaxChannels + c];
        s.nonzero = v[2 * kMaxChannels + c];
        const unsigned long long min_key = v[3 * kMaxChannels + c], max_key = v[4 * kMaxChannels + c];
        s.count = st.selected;
        if (s.count == 0 || min_key == kNoKey || max_key == kNoKey) continue;  // no extremes
        s.min = static_cast<int>(min_key >> stats_detail::kIndexBits);
        s.min_index = min_key & kIndexMask;
        s.max = 255 - static_cast<int>(max_key >> stats_detail::kIndexBits);
        s.max_index = max_key & kIndexMask;
    }
    return st;
}

std::string stats_kernel_name(int channels, bool masked) {
    const int P = tile_pixels(channels);
    return std::string("one-pass reduction of all channels") + (masked ? " under a mask" : "") + " (tiles of " +
           std::to_string(P) + " pixels, 16-byte loads, dp4a sums, warp shuffles, 64-bit atomics across blocks, " +
           std::to_string(StatsPolicy::threads) + " threads a block)";
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

ImageStats stats(Session& session, ConstDeviceViewU8 image, const ConstDeviceViewU8* mask, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    if (kernel) *kernel = cuda::stats_kernel_name(image.channels, mask != nullptr);
    cuda::stats(image, mask, session.impl().statistics, stream);
    return cuda::stats_result(image, mask != nullptr, session.impl().statistics, stream);
}

}  // namespace imgpar::gpu
