#include "bench/npp_peers16.hpp"
#include "bench/npp_resize_peer.hpp"
#include "bench/npp_support.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"

#if IMGPAR_HAVE_NPP
#include <npp.h>
#endif

namespace imgpar::bench {

#if IMGPAR_HAVE_NPP
namespace {

bool gray_or_rgb(int channels, NppFilterRun& r) {
    if (channels == 1 || channels == 3) return true;
    r.note = "NPP peers are timed for gray and RGB only";
    return false;
}

}  // namespace

NppFilterRun time_npp_filter16(Context& ctx, const FilterPlan& plan, const ConstDeviceViewU16& src,
                               const DeviceViewU16& dst) {
    NppFilterRun r;
    if (!gray_or_rgb(src.channels, r)) return r;
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize size{src.width, src.height};
    const NppiPoint origin{0, 0};
    const Npp32s sstep = static_cast<Npp32s>(src.pitch), dstep = static_cast<Npp32s>(dst.pitch);
    const bool gray = src.channels == 1;
    const char* suffix = gray ? "_16u_C1R" : "_16u_C3R";
    if (plan.kind == FilterKind::Gaussian) {
        std::vector<Npp32f> taps;
        for (std::int32_t t : plan.taps) taps.push_back(static_cast<Npp32f>(t) / static_cast<Npp32f>(kGaussianTapSum));
        cuda::DeviceBuffer<Npp32f> d_taps(taps.size());
        IMGPAR_CUDA_CHECK(cudaMemcpy(d_taps.get(), taps.data(), taps.size() * sizeof(Npp32f), cudaMemcpyHostToDevice));
        const int n = static_cast<int>(taps.size());
        r.name = std::string("NPP FilterGaussAdvancedBorder") + suffix;
        const auto call = [&] {
            return gray ? nppiFilterGaussAdvancedBorder_16u_C1R_Ctx(src.data, sstep, size, origin, dst.data, dstep, size, n,
                                                                    d_taps.get(), NPP_BORDER_REPLICATE, nctx)
                        : nppiFilterGaussAdvancedBorder_16u_C3R_Ctx(src.data, sstep, size, origin, dst.data, dstep, size, n,
                                                                    d_taps.get(), NPP_BORDER_REPLICATE, nctx);
        };
        check_npp(call(), r.name);
        r.timing = ctx.time([&](cudaStream_t) { check_npp(call(), r.name); });
        r.note = "float taps";
    } else if (plan.kind == FilterKind::Box) {
        const NppiSize mask{2 * plan.radius + 1, 2 * plan.radius + 1};
        const NppiPoint anchor{plan.radius, plan.radius};
        r.name = std::string("NPP FilterBoxBorder") + suffix;
        const auto call = [&] {
            return gray ? nppiFilterBoxBorder_16u_C1R_Ctx(src.data, sstep, size, origin, dst.data, dstep, size, mask, anchor,
                                                          NPP_BORDER_REPLICATE, nctx)
                        : nppiFilterBoxBorder_16u_C3R_Ctx(src.data, sstep, size, origin, dst.data, dstep, size, mask, anchor,
                                                          NPP_BORDER_REPLICATE, nctx);
        };
        check_npp(call(), r.name);
        r.timing = ctx.time([&](cudaStream_t) { check_npp(call(), r.name); });
    } else {
        r.note = "NPP 16u peers are timed for the Gaussian and the box";
        return r;
    }
    r.available = true;
    return r;
}

NppFilterRun time_npp_resize16(Context& ctx, const std::string& filter, const ConstDeviceViewU16& src,
                               const DeviceViewU16& dst) {
    NppFilterRun r;
    if (!gray_or_rgb(src.channels, r)) return r;
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
        return src.channels == 1
                   ? nppiResize_16u_C1R_Ctx(src.data, sstep, in, in_roi, dst.data, dstep, out, out_roi, mode, nctx)
                   : nppiResize_16u_C3R_Ctx(src.data, sstep, in, in_roi, dst.data, dstep, out, out_roi, mode, nctx);
    };
    r.name = std::string("NPP Resize_16u_C") + (src.channels == 1 ? "1" : "3") + "R " + mode_name;
    check_npp(call(), r.name);
    r.timing = ctx.time([&](cudaStream_t) { check_npp(call(), r.name); });
    r.available = true;
    r.note = m.note;
    return r;
}

NppFilterRun time_npp_histogram16(Context& ctx, int bins, const ConstDeviceViewU16& src) {
    NppFilterRun r;
    if (src.channels != 1) {
        r.note = "NPP's 16u histogram is timed for gray only";
        return r;
    }
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize size{src.width, src.height};
    const int levels = bins + 1;
    cuda::DeviceBuffer<Npp8u> scratch(
        std::max<std::size_t>(1, buffer_size(nppiHistogramEvenGetBufferSize_16u_C1R_Ctx, size, levels, nctx)));
    cuda::DeviceBuffer<Npp32s> hist(static_cast<std::size_t>(bins));
    r.name = "NPP HistogramEven_16u_C1R";
    const auto call = [&] {
        return nppiHistogramEven_16u_C1R_Ctx(src.data, static_cast<int>(src.pitch), size, hist.get(), levels, 0, 65536,
                                             scratch.get(), nctx);
    };
    check_npp(call(), r.name);
    r.timing = ctx.time([&](cudaStream_t) { check_npp(call(), r.name); });
    r.available = true;
    return r;
}

#else

NppFilterRun time_npp_filter16(Context&, const FilterPlan&, const ConstDeviceViewU16&, const DeviceViewU16&) {
    NppFilterRun r;
    r.note = "built without NPP";
    return r;
}
NppFilterRun time_npp_resize16(Context&, const std::string&, const ConstDeviceViewU16&, const DeviceViewU16&) {
    NppFilterRun r;
    r.note = "built without NPP";
    return r;
}
NppFilterRun time_npp_histogram16(Context&, int, const ConstDeviceViewU16&) {
    NppFilterRun r;
    r.note = "built without NPP";
    return r;
}

#endif

}  // namespace imgpar::bench
