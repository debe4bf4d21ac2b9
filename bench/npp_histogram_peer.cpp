#include "bench/npp_histogram_peer.hpp"
#include "bench/npp_support.hpp"

#include <algorithm>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"

#if IMGPAR_HAVE_NPP
#include <npp.h>
#endif

namespace imgpar::bench {

#if IMGPAR_HAVE_NPP

NppHistogramRun time_npp_histogram(Context& ctx, const DeviceViewU8& image) {
    NppHistogramRun r;
    if (image.channels != 1 && image.channels != 3) {
        r.note = "NPP HistogramEven is timed for gray and RGB only";
        return r;
    }
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize roi{image.width, image.height};
    const int step = static_cast<int>(image.pitch);
    cuda::DeviceBuffer<Npp32s> hist(static_cast<std::size_t>(image.channels) * 256);
    cuda::DeviceBuffer<Npp8u> scratch;
    std::vector<Npp32s> host(static_cast<std::size_t>(image.channels) * 256);
    if (image.channels == 1) {
        r.name = "NPP HistogramEven_8u_C1R";
        scratch.reserve(std::max<std::size_t>(1, buffer_size(nppiHistogramEvenGetBufferSize_8u_C1R_Ctx, roi, 257, nctx)));
        r.timing = ctx.time([&](cudaStream_t) {
            check_npp(nppiHistogramEven_8u_C1R_Ctx(image.data, step, roi, hist.get(), 257, 0, 256, scratch.get(), nctx),
                      "nppiHistogramEven_8u_C1R_Ctx");
        });
    } else {
        r.name = "NPP HistogramEven_8u_C3R";
        int levels[3] = {257, 257, 257};
        Npp32s lower[3] = {0, 0, 0};
        Npp32s upper[3] = {256, 256, 256};
        Npp32s* planes[3] = {hist.get(), hist.get() + 256, hist.get() + 512};
        scratch.reserve(std::max<std::size_t>(1, buffer_size(nppiHistogramEvenGetBufferSize_8u_C3R_Ctx, roi, levels, nctx)));
        r.timing = ctx.time([&](cudaStream_t) {
            check_npp(nppiHistogramEven_8u_C3R_Ctx(image.data, step, roi, planes, levels, lower, upper, scratch.get(),
                                                   nctx),
                      "nppiHistogramEven_8u_C3R_Ctx");
        });
    }
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), hist.get(), host.size() * sizeof(Npp32s), cudaMemcpyDeviceToHost,
                                      ctx.stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    for (Npp32s v : host) r.counts.push_back(static_cast<unsigned long long>(v));
    r.available = true;
    return r;
}

#else

NppHistogramRun time_npp_histogram(Context&, const DeviceViewU8&) {
    NppHistogramRun r;
    r.note = "NPP not installed";
    return r;
}

#endif

}  // namespace imgpar::bench
