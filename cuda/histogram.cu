// GPU histogram: dispatch (validate, choose the launch shape and counting
// strategy from the policy, launch, check) -> thin sweep kernel -> the walk
// and counters in cuda/histogram_count.cuh -> block helpers in
// cuda/histogram_block.cuh.
#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/histogram.hpp"
#include "cuda/histogram_block.cuh"
#include "cuda/histogram_count.cuh"
#include "cuda/histogram_launch.hpp"
#include "cuda/occupancy.hpp"
#include "cuda/histogram_policy.hpp"
#include "cuda/session.hpp"

namespace imgpar::cuda {

// --- Shared host helpers (cuda/histogram_launch.hpp) ------------------------

namespace hist {

void check_device_image(const ConstDeviceViewU8& ref, const char* what) {
    check_image_shape(ref.width, ref.height, ref.channels);
    if (!ref.data) throw usage_error(what, "the device image has no pixels (null pointer)");
    const std::size_t row = static_cast<std::size_t>(ref.width) * ref.channels;
    if (ref.pitch < row)
        throw usage_error(what, "the device image's pitch " + std::to_string(ref.pitch) + " is below its row size " +
                                    std::to_string(row));
    const unsigned long long cpr = (static_cast<unsigned long long>(ref.width) + kChunkPixels - 1) / kChunkPixels;
    if (cpr * static_cast<unsigned long long>(ref.height) >= (1ull << 31))
        throw usage_error(what, "the image is too large for the GPU path (at most 2^31 chunks of 16 pixels)");
}

ChunkGrid chunk_grid(const ConstDeviceViewU8& ref) {
    ChunkGrid g;
    g.width = ref.width;
    g.chunks_per_row = static_cast<unsigned>((ref.width + kChunkPixels - 1) / kChunkPixels);
    g.total = g.chunks_per_row * static_cast<unsigned>(ref.height);
    return g;
}

}  // namespace hist

// --- Thin kernel ------------------------------------------------------------

namespace {

// One block: zero its sub-histogram copies, sweep its share of the chunks
// into its thread's copy, merge the copies.
template <int C, bool kChannels, bool kLuma, HistogramMerge M, int U>
__global__ void histogram_sweep_kernel(hist::SweepArgs a, int copies, bool copy_by_lane) {
    extern __shared__ unsigned smem[];
    constexpr int P = hist::sweep_planes<C, kChannels, kLuma>();
    hist::block_zero(smem, copies * hist::copy_stride(P));
    __syncthreads();
    const int copy = static_cast<int>(copy_by_lane ? threadIdx.x : threadIdx.x >> 5) % copies;
    hist::sweep_chunks<C, kChannels, kLuma, M, U>(a, smem + copy * hist::copy_stride(P));
    __syncthreads();
    hist::block_merge(smem, copies, P, a.out);
}

// --- Dispatch ---------------------------------------------------------------

void check_policy(const HistogramPolicy& p) {
    if (p.block_threads < 32 || p.block_threads > 1024 || p.block_threads % 32 != 0)
        throw usage_error("histogram policy", "block_threads must be a multiple of 32 from 32 to 1024");
    switch (p.copy_by) {
        case HistogramCopyBy::Warp:
            if (p.copies < 1 || p.copies > p.block_threads / 32)
                throw usage_error("histogram policy", "copies by warp must be from 1 to the number of warps per block");
            break;
        case HistogramCopyBy::Lane:
            if (p.copies < 1 || p.copies > 32)
                throw usage_error("histogram policy", "copies by lane must be from 1 to 32");
            break;
        default: throw usage_error("histogram policy", "copy_by must be Warp or Lane");
    }
    switch (p.merge) {
        case HistogramMerge::Runs:
        case HistogramMerge::Plain:
        case HistogramMerge::Uniform:
        case HistogramMerge::Match: break;
        default: throw usage_error("histogram policy", "merge must be Runs, Plain, Uniform or Match");
    }
    if (p.chunks_per_step != 1 && p.chunks_per_step != 2 && p.chunks_per_step != 4)
        throw usage_error("histogram policy", "chunks_per_step must be 1, 2 or 4");
    if (p.blocks_per_sm < 0) throw usage_error("histogram policy", "blocks_per_sm must be 0 (auto) or positive");
}

// Chunks per step after the cap of 64 bytes per thread (4 / C chunks).
int effective_steps(int chunks_per_step, int channels) {
    return std::max(1, std::min(chunks_per_step, 4 / channels));
}

template <int C, bool kChannels, bool kLuma, HistogramMerge M, int U>
void launch_sweep_variant(const hist::SweepArgs& a, const HistogramPolicy& policy, cudaStream_t stream) {
    constexpr int P = hist::sweep_planes<C, kChannels, kLuma>();
    auto kernel = histogram_sweep_kernel<C, kChannels, kLuma, M, U>;
    const std::size_t smem = static_cast<std::size_t>(policy.copies) * hist::copy_stride(P) * sizeof(unsigned);
    if (smem > 48 * 1024)
        IMGPAR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), policy.block_threads, smem);
    if (resident < 1) {
        cudaFuncAttributes attr{};
        IMGPAR_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
        throw usage_error("histogram policy",
                          describe(policy) + " cannot run on " + std::to_string(C) + "-channel images: the kernel takes " +
                              std::to_string(attr.numRegs) + " registers per thread (at most " +
                              std::to_string(attr.maxThreadsPerBlock) + " threads per block) and " +
                              std::to_string(smem) + " bytes of shared memory for " + std::to_string(policy.copies) +
                              " copies of " + std::to_string(P) + " planes");
    }
    if (policy.blocks_per_sm > 0) {
        int sms = 0, device = 0;
        IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
        IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        resident = std::min(resident, policy.blocks_per_sm * sms);
    }
    const unsigned long long threads = static_cast<unsigned long long>(policy.block_threads);
    const unsigned long long needed = (a.grid.total + threads - 1) / threads;
    unsigned long long blocks = std::min<unsigned long long>(needed, static_cast<unsigned long long>(resident));
    // Shared counters are 32-bit: keep each block's share under 2^31 pixels.
    // A block's share is at most total / blocks + U * threads chunks, so with
    // this many blocks it is at most 2^30 + 16 * 4 * 1024 pixels.
    const unsigned long long min_blocks =
        (static_cast<unsigned long long>(a.grid.total) * hist::kChunkPixels + (1ull << 30) - 1) >> 30;
    blocks = std::max({blocks, min_blocks, 1ull});
    kernel<<<static_cast<unsigned>(blocks), policy.block_threads, smem, stream>>>(
        a, policy.copies, policy.copy_by == HistogramCopyBy::Lane);
    IMGPAR_CUDA_CHECK_LAUNCH("histogram_sweep_kernel");
}

// Picks the chunks-per-step instantiation; only those within the 64-byte
// cap exist (4 and 2 for gray, 2 for two channels).
template <int C, bool kChannels, bool kLuma, HistogramMerge M>
void launch_sweep_steps(const hist::SweepArgs& a, const HistogramPolicy& policy, cudaStream_t stream) {
    const int steps = effective_steps(policy.chunks_per_step, C);
    if constexpr (C == 1) {
        if (steps == 4) return launch_sweep_variant<C, kChannels, kLuma, M, 4>(a, policy, stream);
    }
    if constexpr (C <= 2) {
        if (steps == 2) return launch_sweep_variant<C, kChannels, kLuma, M, 2>(a, policy, stream);
    }
    launch_sweep_variant<C, kChannels, kLuma, M, 1>(a, policy, stream);
}

template <int C, bool kChannels, bool kLuma>
void launch_sweep(const hist::SweepArgs& a, const HistogramPolicy& policy, cudaStream_t stream) {
    switch (policy.merge) {
        case HistogramMerge::Runs: launch_sweep_steps<C, kChannels, kLuma, HistogramMerge::Runs>(a, policy, stream); break;
        case HistogramMerge::Plain: launch_sweep_steps<C, kChannels, kLuma, HistogramMerge::Plain>(a, policy, stream); break;
        case HistogramMerge::Uniform:
            launch_sweep_steps<C, kChannels, kLuma, HistogramMerge::Uniform>(a, policy, stream);
            break;
        default: launch_sweep_steps<C, kChannels, kLuma, HistogramMerge::Match>(a, policy, stream); break;
    }
}

template <int C>
void dispatch_colour(const hist::SweepArgs& a, HistogramPlanes planes, const HistogramPolicy& policy,
                     cudaStream_t stream) {
    if (!planes.channels)
        launch_sweep<C, false, true>(a, policy, stream);
    else if (planes.luma)
        launch_sweep<C, true, true>(a, policy, stream);
    else
        launch_sweep<C, true, false>(a, policy, stream);
}

}  // namespace

std::string histogram_kernel_name(int channels) {
    return "privatized shared-memory histogram, all planes in one pass (" +
           describe(default_histogram_policy(channels)) + ")";
}

const char* merge_name(HistogramMerge m) {
    switch (m) {
        case HistogramMerge::Runs: return "runs";
        case HistogramMerge::Plain: return "plain";
        case HistogramMerge::Uniform: return "uniform";
        case HistogramMerge::Match: return "match";
    }
    return "?";
}

std::string describe(const HistogramPolicy& p) {
    std::string s = std::string("merge=") + merge_name(p.merge) + " steps=" + std::to_string(p.chunks_per_step) +
                    " threads=" + std::to_string(p.block_threads) + " copies=" + std::to_string(p.copies) +
                    (p.copy_by == HistogramCopyBy::Lane ? "/lane" : "/warp") + " grid=";
    s += p.blocks_per_sm > 0 ? std::to_string(p.blocks_per_sm) + "/SM" : std::string("auto");
    return s;
}

int HistogramPlanes::count(int image_channels) const {
    const int n = (channels ? image_channels : 0) + (luma && image_channels >= 3 ? 1 : 0);
    if (n == 0)
        throw usage_error("histogram", "nothing to count: only colour images have a luma plane, and the channels "
                                       "were not asked for");
    return n;
}

void HistogramWorkspace::reserve() {
    counts_.reserve(static_cast<std::size_t>(kMaxHistogramPlanes) * kHistogramValues);
    luts_.reserve(static_cast<std::size_t>(kMaxChannels) * kHistogramValues);
    if (!host_.get())
        host_ = PinnedBuffer<unsigned long long>(static_cast<std::size_t>(kMaxHistogramPlanes) * kHistogramValues);
}

namespace detail {

void histogram_with_policy(const ConstDeviceViewU8& image, HistogramPlanes planes, unsigned long long* d_counts,
                           const HistogramPolicy& policy, cudaStream_t stream) {
    hist::check_device_image(image, "histogram");
    check_policy(policy);
    if (!d_counts) throw usage_error("histogram", "no device buffer for the counts");
    const int P = planes.count(image.channels);
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(d_counts, 0, static_cast<std::size_t>(P) * 256 * sizeof(unsigned long long), stream));
    hist::SweepArgs a;
    a.data = image.data;
    a.pitch = image.pitch;
    a.grid = hist::chunk_grid(image);
    a.vec = hist::vector_ok(image.data, image.pitch);
    a.out = d_counts;
    switch (image.channels) {
        case 1: launch_sweep<1, true, false>(a, policy, stream); break;
        case 2: launch_sweep<2, true, false>(a, policy, stream); break;
        case 3: dispatch_colour<3>(a, planes, policy, stream); break;
        default: dispatch_colour<4>(a, planes, policy, stream); break;
    }
}

}  // namespace detail

void histogram(const ConstDeviceViewU8& image, HistogramPlanes planes, unsigned long long* d_counts, cudaStream_t stream) {
    detail::histogram_with_policy(image, planes, d_counts, default_histogram_policy(image.channels), stream);
}

Histogram histogram(const ConstDeviceViewU8& image, bool with_luma, HistogramWorkspace& ws, cudaStream_t stream) {
    hist::check_device_image(image, "histogram");
    ws.reserve();
    HistogramPlanes planes;
    planes.channels = true;
    planes.luma = with_luma && image.channels >= 3;
    const int P = planes.count(image.channels);
    histogram(image, planes, ws.counts(), stream);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_counts(), ws.counts(), static_cast<std::size_t>(P) * 256 * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    Histogram h;
    h.channels = image.channels;
    h.luma = planes.luma;
    h.pixels = static_cast<std::uint64_t>(image.width) * static_cast<std::uint64_t>(image.height);
    for (int p = 0; p < P; ++p)
        for (int v = 0; v < kHistogramValues; ++v) h.counts[p][v] = ws.host_counts()[p * 256 + v];
    return h;
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

Histogram histogram(Session& session, ConstDeviceViewU8 image, bool with_luma, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    if (kernel) *kernel = cuda::histogram_kernel_name(image.channels);
    return cuda::histogram(image, with_luma, session.impl().histograms, stream);
}

}  // namespace imgpar::gpu
