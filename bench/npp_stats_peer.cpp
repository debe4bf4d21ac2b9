#include "bench/npp_stats_peer.hpp"
#include "bench/npp_support.hpp"

#include <algorithm>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"

#if IMGPAR_HAVE_NPP
#include <npp.h>
#endif

namespace imgpar::bench {

#if IMGPAR_HAVE_NPP
namespace {

// The buffer-size queries take int* in older NPP and size_t* in newer
// releases: deduced from the function, so both build.
template <typename Size>
std::size_t buffer_size(NppStatus (*query)(NppiSize, Size*, NppStreamContext), NppiSize roi, NppStreamContext ctx,
                        const char* name) {
    Size bytes = 0;
    check_npp(query(roi, &bytes, ctx), name);
    return std::max<std::size_t>(1, static_cast<std::size_t>(bytes));
}

}  // namespace

NppStatsRun time_npp_stats(Context& ctx, const DeviceViewU8& image) {
    NppStatsRun r;
    if (image.channels != 1 && image.channels != 3) {
        r.note = "NPP's statistics are timed for gray and RGB only";
        return r;
    }
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize roi{image.width, image.height};
    const int step = static_cast<int>(image.pitch);
    const int C = image.channels;
    cuda::DeviceBuffer<Npp64f> moments(2 * static_cast<std::size_t>(C));  // mean, deviation per channel
    cuda::DeviceBuffer<Npp8u> extremes(2 * static_cast<std::size_t>(C));  // min, max per channel
    cuda::DeviceBuffer<Npp8u> mean_scratch, minmax_scratch;
    if (C == 1) {
        r.name = "NPP Mean_StdDev_8u_C1R + MinMax_8u_C1R";
        mean_scratch.reserve(buffer_size(nppiMeanStdDevGetBufferHostSize_8u_C1R_Ctx, roi, nctx,
                                         "nppiMeanStdDevGetBufferHostSize_8u_C1R_Ctx"));
        minmax_scratch.reserve(buffer_size(nppiMinMaxGetBufferHostSize_8u_C1R_Ctx, roi, nctx,
                                           "nppiMinMaxGetBufferHostSize_8u_C1R_Ctx"));
        r.timing = ctx.time([&](cudaStream_t) {
            check_npp(nppiMean_StdDev_8u_C1R_Ctx(image.data, step, roi, mean_scratch.get(), moments.get(),
                                                 moments.get() + 1, nctx),
                      "nppiMean_StdDev_8u_C1R_Ctx");
            check_npp(nppiMinMax_8u_C1R_Ctx(image.data, step, roi, extremes.get(), extremes.get() + 1,
                                            minmax_scratch.get(), nctx),
                      "nppiMinMax_8u_C1R_Ctx");
        });
    } else {
        r.name = "NPP Mean_StdDev_8u_C3CR x3 + MinMax_8u_C3R";
        mean_scratch.reserve(buffer_size(nppiMeanStdDevGetBufferHostSize_8u_C3CR_Ctx, roi, nctx,
                                         "nppiMeanStdDevGetBufferHostSize_8u_C3CR_Ctx"));
        minmax_scratch.reserve(buffer_size(nppiMinMaxGetBufferHostSize_8u_C3R_Ctx, roi, nctx,
                                           "nppiMinMaxGetBufferHostSize_8u_C3R_Ctx"));
        r.timing = ctx.time([&](cudaStream_t) {
            for (int c = 0; c < 3; ++c)  // NPP's channel of interest counts from 1
                check_npp(nppiMean_StdDev_8u_C3CR_Ctx(image.data, step, roi, c + 1, mean_scratch.get(),
                                                      moments.get() + 2 * c, moments.get() + 2 * c + 1, nctx),
                          "nppiMean_StdDev_8u_C3CR_Ctx");
            check_npp(nppiMinMax_8u_C3R_Ctx(image.data, step, roi, extremes.get(), extremes.get() + 3,
                                            minmax_scratch.get(), nctx),
                      "nppiMinMax_8u_C3R_Ctx");
        });
    }
    std::vector<Npp64f> m(2 * static_cast<std::size_t>(C));
    std::vector<Npp8u> e(2 * static_cast<std::size_t>(C));
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(m.data(), moments.get(), m.size() * sizeof(Npp64f), cudaMemcpyDeviceToHost, ctx.stream()));
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(e.data(), extremes.get(), e.size(), cudaMemcpyDeviceToHost, ctx.stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    for (int c = 0; c < C; ++c) {
        r.mean.push_back(m[2 * static_cast<std::size_t>(c)]);
        r.stddev.push_back(m[2 * static_cast<std::size_t>(c) + 1]);
        // C1R: min, max; C3R: three minima, then three maxima.
        r.min.push_back(C == 1 ? e[0] : e[static_cast<std::size_t>(c)]);
        r.max.push_back(C == 1 ? e[1] : e[3 + static_cast<std::size_t>(c)]);
    }
    r.available = true;
    return r;
}

#else

NppStatsRun time_npp_stats(Context&, const DeviceViewU8&) {
    NppStatsRun r;
    r.note = "NPP not installed";
    return r;
}

#endif

}  // namespace imgpar::bench
