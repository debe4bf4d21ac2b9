#include "bench/npp_integral_peer.hpp"
#include "bench/npp_support.hpp"

#include <cstdint>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"

#if IMGPAR_HAVE_NPP
#include <npp.h>
#endif

namespace imgpar::bench {

#if IMGPAR_HAVE_NPP

NppIntegralRun time_npp_integral(Context& ctx, const DeviceViewU8& image, bool squares, const std::uint32_t* sums) {
    NppIntegralRun r;
    if (image.channels != 1) {
        r.note = "NPP Integral is one-channel only";
        return r;
    }
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize roi{image.width, image.height};
    const std::size_t w1 = static_cast<std::size_t>(image.width) + 1, h1 = static_cast<std::size_t>(image.height) + 1;
    cuda::DeviceBuffer<Npp32s> dst(w1 * h1);
    cuda::DeviceBuffer<Npp64f> sqr(squares ? w1 * h1 : 1);
    const int src_step = static_cast<int>(image.pitch);
    const int dst_step = static_cast<int>(w1 * sizeof(Npp32s)), sqr_step = static_cast<int>(w1 * sizeof(Npp64f));
    if (squares) {
        r.name = "NPP SqrIntegral_8u32s64f_C1R";
        r.timing = ctx.time([&](cudaStream_t) {
            check_npp(nppiSqrIntegral_8u32s64f_C1R_Ctx(image.data, src_step, dst.get(), dst_step, sqr.get(), sqr_step, roi,
                                                       0, 0.0, nctx),
                      "nppiSqrIntegral_8u32s64f_C1R_Ctx");
        });
    } else {
        r.name = "NPP Integral_8u32s_C1R";
        r.timing = ctx.time([&](cudaStream_t) {
            check_npp(nppiIntegral_8u32s_C1R_Ctx(image.data, src_step, dst.get(), dst_step, roi, 0, nctx),
                      "nppiIntegral_8u32s_C1R_Ctx");
        });
    }
    std::vector<Npp32s> host(w1 * h1);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), dst.get(), host.size() * sizeof(Npp32s), cudaMemcpyDeviceToHost,
                                      ctx.stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < host.size(); ++i) differ += static_cast<std::uint32_t>(host[i]) != sums[i];
    r.note = differ ? "NPP sums differ from imgpar's in " + std::to_string(differ) + " entries" : "NPP sums = imgpar's";
    r.available = true;
    return r;
}

#else

NppIntegralRun time_npp_integral(Context&, const DeviceViewU8&, bool, const std::uint32_t*) {
    NppIntegralRun r;
    r.note = "built without NPP";
    return r;
}

#endif

}  // namespace imgpar::bench
