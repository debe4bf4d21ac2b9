// GPU histogram: dispatch (validate, launch the default policy's sweep,
// check) -> the sweep kernel and its launch (cuda/histogram_sweep.cuh) -> the
// walk and counters (cuda/histogram_count.cuh) -> block helpers
// (cuda/histogram_block.cuh).
#include <algorithm>
#include <string>

#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/histogram_launch.hpp"
#include "cuda/histogram_policy.hpp"
#include "cuda/histogram_sweep.cuh"
#include "cuda/session.hpp"

namespace imgpar::cuda {

// --- Shared host helpers (cuda/histogram_launch.hpp) ------------------------

namespace hist {

void check_device_image(const ConstDeviceViewU8& ref, const char* what) {
    check_device_view(ref, what);
    const unsigned long long cpr = (static_cast<unsigned long long>(ref.width) + kChunkPixels - 1) / kChunkPixels;
    if (cpr * static_cast<unsigned long long>(ref.height) >= (1ull << 31))
        throw usage_error(what, "the image is too large for the GPU path (at most 2^31 chunks of 16 pixels)");
}

SweepArgs sweep_args(const ConstDeviceViewU8& image, HistogramPlanes planes, unsigned long long* d_counts,
                     const char* what, cudaStream_t stream) {
    check_device_image(image, what);
    if (!d_counts) throw usage_error(what, "no device buffer for the counts");
    const int P = planes.count(image.channels);
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(d_counts, 0, static_cast<std::size_t>(P) * 256 * sizeof(unsigned long long), stream));
    SweepArgs a;
    a.data = image.data;
    a.pitch = image.pitch;
    a.grid = chunk_grid(image);
    a.vec = vector_ok(image.data, image.pitch);
    a.out = d_counts;
    return a;
}

ChunkGrid chunk_grid(const ConstDeviceViewU8& ref) {
    ChunkGrid g;
    g.width = ref.width;
    g.chunks_per_row = static_cast<unsigned>((ref.width + kChunkPixels - 1) / kChunkPixels);
    g.total = g.chunks_per_row * static_cast<unsigned>(ref.height);
    return g;
}

}  // namespace hist

// --- Dispatch: the default policies only -------------------------------------

namespace {

// The default policy's strategy as template arguments: the one sweep kernel
// per plane layout the product ships.
template <int C, bool kChannels, bool kLuma>
void launch_default(const hist::SweepArgs& a, cudaStream_t stream) {
    constexpr HistogramPolicy p = default_histogram_policy(C);
    static_assert(p.merge == HistogramMerge::Uniform, "instantiate the default merge");
    hist::launch_sweep_variant<C, kChannels, kLuma, HistogramMerge::Uniform, hist::default_steps(C)>(a, p, stream);
}

template <int C>
void launch_colour(const hist::SweepArgs& a, HistogramPlanes planes, cudaStream_t stream) {
    if (!planes.channels)
        launch_default<C, false, true>(a, stream);
    else if (planes.luma)
        launch_default<C, true, true>(a, stream);
    else
        launch_default<C, true, false>(a, stream);
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

void histogram(const ConstDeviceViewU8& image, HistogramPlanes planes, unsigned long long* d_counts, cudaStream_t stream) {
    const hist::SweepArgs a = hist::sweep_args(image, planes, d_counts, "histogram", stream);
    switch (image.channels) {
        case 1: launch_default<1, true, false>(a, stream); break;
        case 2: launch_default<2, true, false>(a, stream); break;
        case 3: launch_colour<3>(a, planes, stream); break;
        default: launch_colour<4>(a, planes, stream); break;
    }
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
