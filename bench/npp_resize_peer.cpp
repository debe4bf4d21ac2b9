#include "bench/npp_resize_peer.hpp"
#include "bench/npp_support.hpp"

#if IMGPAR_HAVE_NPP
#include <npp.h>
#endif

namespace imgpar::bench {

#if IMGPAR_HAVE_NPP

NppFilterRun time_npp_resize(Context& ctx, const std::string& filter, const ConstDeviceViewU8& src,
                             const DeviceViewU8& dst) {
    NppFilterRun r;
    if (src.channels != 1 && src.channels != 3) {
        r.note = "NPP's resize is timed for gray and RGB only";
        return r;
    }
    const bool shrink = dst.width < src.width && dst.height < src.height;
    const std::string f = filter == "auto" ? (shrink ? "lanczos3" : "bicubic") : filter;
    int mode = NPPI_INTER_LANCZOS;
    const char* mode_name = "LANCZOS";
    if (f == "area") {
        if (!shrink) {
            r.note = "NPP's super-sampling shrinks only";
            return r;
        }
        mode = NPPI_INTER_SUPER, mode_name = "SUPER";
    } else if (f == "bicubic") {
        mode = NPPI_INTER_CUBIC, mode_name = "CUBIC";
    } else if (f == "bilinear") {
        mode = NPPI_INTER_LINEAR, mode_name = "LINEAR";
    } else if (f == "nearest") {
        mode = NPPI_INTER_NN, mode_name = "NN";
    }
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize in{src.width, src.height}, out{dst.width, dst.height};
    const NppiRect in_roi{0, 0, src.width, src.height}, out_roi{0, 0, dst.width, dst.height};
    const int sstep = static_cast<int>(src.pitch), dstep = static_cast<int>(dst.pitch);
    const auto call = [&] {
        return src.channels == 1 ? nppiResize_8u_C1R_Ctx(src.data, sstep, in, in_roi, dst.data, dstep, out, out_roi, mode, nctx)
                                 : nppiResize_8u_C3R_Ctx(src.data, sstep, in, in_roi, dst.data, dstep, out, out_roi, mode, nctx);
    };
    r.name = std::string("NPP Resize_8u_C") + (src.channels == 1 ? "1" : "3") + "R " + mode_name;
    check_npp(call(), r.name);
    r.timing = ctx.time([&](cudaStream_t) { check_npp(call(), r.name); });
    r.available = true;
    if (f == "bilinear" || f == "bicubic" || f == "lanczos3")
        r.note = "NPP's kernel is point-sampled when shrinking (not widened by the factor)";
    return r;
}

#else

NppFilterRun time_npp_resize(Context&, const std::string&, const ConstDeviceViewU8&, const DeviceViewU8&) {
    NppFilterRun r;
    r.note = "built without NPP";
    return r;
}

#endif

}  // namespace imgpar::bench
