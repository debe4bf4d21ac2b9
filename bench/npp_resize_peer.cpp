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
    const NppResizeMode m = npp_resize_mode(filter, dst.width < src.width && dst.height < src.height);
    if (!m.available) {
        r.note = m.note;
        return r;
    }
    const int mode = m.mode;
    const char* mode_name = m.name;
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
    r.note = m.note;
    return r;
}

NppResizeMode npp_resize_mode(const std::string& filter, bool shrink) {
    NppResizeMode m;
    const std::string f = filter == "auto" ? (shrink ? "lanczos3" : "bicubic") : filter;
    m.mode = NPPI_INTER_LANCZOS, m.name = "LANCZOS";
    if (f == "area") {
        if (!shrink) {
            m.note = "NPP's super-sampling shrinks only";
            return m;
        }
        m.mode = NPPI_INTER_SUPER, m.name = "SUPER";
    } else if (f == "bicubic") {
        m.mode = NPPI_INTER_CUBIC, m.name = "CUBIC";
    } else if (f == "bilinear") {
        m.mode = NPPI_INTER_LINEAR, m.name = "LINEAR";
    } else if (f == "nearest") {
        m.mode = NPPI_INTER_NN, m.name = "NN";
    }
    if (f == "bilinear" || f == "bicubic" || f == "lanczos3")
        m.note = "NPP's kernel is point-sampled when shrinking (not widened by the factor)";
    m.available = true;
    return m;
}

#else

NppFilterRun time_npp_resize(Context&, const std::string&, const ConstDeviceViewU8&, const DeviceViewU8&) {
    NppFilterRun r;
    r.note = "built without NPP";
    return r;
}

NppResizeMode npp_resize_mode(const std::string&, bool) {
    NppResizeMode m;
    m.note = "built without NPP";
    return m;
}

#endif

}  // namespace imgpar::bench
