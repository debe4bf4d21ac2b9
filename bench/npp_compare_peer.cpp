#include "bench/npp_compare_peer.hpp"
#include "bench/npp_support.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"

#if IMGPAR_HAVE_NPP
#include <npp.h>
#endif

namespace imgpar::bench {

// nppiMSE and nppiSSIM came with NPP 12.
#if IMGPAR_HAVE_NPP && defined(NPP_VER_MAJOR) && NPP_VER_MAJOR >= 12

namespace {

// The buffer-size query's size argument is int in some NPP releases and
// size_t in others; deducing it keeps both building.
template <typename Size>
std::size_t buffer_size(NppStatus (*query)(NppiSize, Size*, NppStreamContext), NppiSize roi, NppStreamContext ctx,
                        const char* what) {
    Size bytes = 0;
    check_npp(query(roi, &bytes, ctx), what);
    return static_cast<std::size_t>(bytes);
}

}  // namespace

NppCompareRun time_npp_compare(Context& ctx, const DeviceViewU8& a, const DeviceViewU8& b, bool ssim) {
    NppCompareRun r;
    if (a.channels != 1 && a.channels != 3) {
        r.note = "NPP's MSE and SSIM are timed for gray and RGB only";
        return r;
    }
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize roi{a.width, a.height};
    const int sa = static_cast<int>(a.pitch), sb = static_cast<int>(b.pitch);
    const bool gray = a.channels == 1;
    cuda::DeviceBuffer<Npp32f> value(4);
    cuda::DeviceBuffer<Npp8u> scratch;
    if (ssim) {
        r.name = gray ? "NPP SSIM_8u_C1R" : "NPP SSIM_8u_C3R";
        scratch.reserve(gray ? buffer_size(nppiSSIMGetBufferHostSize_8u_C1R_Ctx, roi, nctx, "nppiSSIMGetBufferHostSize")
                             : buffer_size(nppiSSIMGetBufferHostSize_8u_C3R_Ctx, roi, nctx, "nppiSSIMGetBufferHostSize"));
        r.timing = ctx.time([&](cudaStream_t) {
            check_npp(gray ? nppiSSIM_8u_C1R_Ctx(a.data, sa, b.data, sb, roi, value.get(), scratch.get(), nctx)
                           : nppiSSIM_8u_C3R_Ctx(a.data, sa, b.data, sb, roi, value.get(), scratch.get(), nctx),
                      "nppiSSIM_8u_CnR_Ctx");
        });
    } else {
        r.name = gray ? "NPP MSE_8u_C1R" : "NPP MSE_8u_C3R";
        scratch.reserve(gray ? buffer_size(nppiMSEGetBufferHostSize_8u_C1R_Ctx, roi, nctx, "nppiMSEGetBufferHostSize")
                             : buffer_size(nppiMSEGetBufferHostSize_8u_C3R_Ctx, roi, nctx, "nppiMSEGetBufferHostSize"));
        r.timing = ctx.time([&](cudaStream_t) {
            check_npp(gray ? nppiMSE_8u_C1R_Ctx(a.data, sa, b.data, sb, roi, value.get(), scratch.get(), nctx)
                           : nppiMSE_8u_C3R_Ctx(a.data, sa, b.data, sb, roi, value.get(), scratch.get(), nctx),
                      "nppiMSE_8u_CnR_Ctx");
        });
    }
    std::vector<Npp32f> host(4);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), value.get(), 4 * sizeof(Npp32f), cudaMemcpyDeviceToHost, ctx.stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    r.note = std::string("NPP's ") + (ssim ? "SSIM" : "MSE") + ":";
    for (int c = 0; c < a.channels; ++c) {  // as many values as NPP writes (one per channel for MSE)
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.6f", static_cast<double>(host[static_cast<std::size_t>(c)]));
        r.note += buf;
    }
    r.available = true;
    return r;
}

#else

NppCompareRun time_npp_compare(Context&, const DeviceViewU8&, const DeviceViewU8&, bool) {
    NppCompareRun r;
    r.note = "built without NPP's MSE and SSIM";
    return r;
}

#endif

}  // namespace imgpar::bench
