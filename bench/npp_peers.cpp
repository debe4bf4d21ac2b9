#include "bench/npp_peers.hpp"
#include "bench/npp_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "src/error.hpp"

#if IMGPAR_HAVE_NPP
#include <npp.h>
#endif

namespace imgpar::bench {

#if IMGPAR_HAVE_NPP
namespace {

// Copies a host vector to a new device buffer (outside any timed region).
template <typename T>
cuda::DeviceBuffer<T> to_device(const std::vector<T>& v) {
    cuda::DeviceBuffer<T> d(v.size());
    IMGPAR_CUDA_CHECK(cudaMemcpy(d.get(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

// NPP filters of large kernels can take hundreds of milliseconds: one
// untimed call tells how many timed runs are affordable.
Timing time_adaptive(Context& ctx, const std::function<void(cudaStream_t)>& fn) {
    const Timing probe = ctx.time(fn, 1, 1);
    if (probe.median_ms > 50.0) return ctx.time(fn, 0, 3);
    return ctx.time(fn, 2, 15);
}

// One generic 2-D filter call (nppiFilterBorder); NPP convolves, so the
// correlation kernel is passed reversed.
NppStatus filter_border(const DeviceViewU8& src, const DeviceViewU8& dst, const Npp32s* kernel,
                        NppiSize ksize, NppiPoint anchor, Npp32s divisor, NppStreamContext nctx) {
    const NppiSize size{src.width, src.height};
    const NppiPoint origin{0, 0};
    if (src.channels == 1)
        return nppiFilterBorder_8u_C1R_Ctx(src.data, static_cast<Npp32s>(src.pitch), size, origin, dst.data,
                                           static_cast<Npp32s>(dst.pitch), size, kernel, ksize, anchor, divisor,
                                           NPP_BORDER_REPLICATE, nctx);
    return nppiFilterBorder_8u_C3R_Ctx(src.data, static_cast<Npp32s>(src.pitch), size, origin, dst.data,
                                       static_cast<Npp32s>(dst.pitch), size, kernel, ksize, anchor, divisor,
                                       NPP_BORDER_REPLICATE, nctx);
}

std::vector<Npp32s> reversed(std::vector<Npp32s> v) {
    std::vector<Npp32s> r(v.rbegin(), v.rend());
    return r;
}

}  // namespace

NppFilterRun time_npp_filter(Context& ctx, const FilterPlan& plan, const DeviceViewU8& src,
                             const DeviceViewU8& dst) {
    NppFilterRun r;
    if (src.channels != 1 && src.channels != 3) {
        r.note = "NPP peers are timed for gray and RGB only";
        return r;
    }
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize size{src.width, src.height};
    const NppiPoint origin{0, 0};
    const Npp32s sstep = static_cast<Npp32s>(src.pitch);
    const Npp32s dstep = static_cast<Npp32s>(dst.pitch);
    const char* suffix = src.channels == 1 ? "_8u_C1R" : "_8u_C3R";
    switch (plan.kind) {
        case FilterKind::Gaussian: {
            std::vector<Npp32f> taps;
            for (std::int32_t t : plan.taps) taps.push_back(static_cast<Npp32f>(t) / static_cast<Npp32f>(kGaussianTapSum));
            cuda::DeviceBuffer<Npp32f> d_taps = to_device(taps);
            const int n = static_cast<int>(taps.size());
            r.name = std::string("NPP FilterGaussAdvancedBorder") + suffix;
            r.timing = time_adaptive(ctx, [&](cudaStream_t) {
                if (src.channels == 1)
                    check_npp(nppiFilterGaussAdvancedBorder_8u_C1R_Ctx(src.data, sstep, size, origin, dst.data, dstep,
                                                                       size, n, d_taps.get(), NPP_BORDER_REPLICATE,
                                                                       nctx),
                              "nppiFilterGaussAdvancedBorder_8u_C1R_Ctx");
                else
                    check_npp(nppiFilterGaussAdvancedBorder_8u_C3R_Ctx(src.data, sstep, size, origin, dst.data, dstep,
                                                                       size, n, d_taps.get(), NPP_BORDER_REPLICATE,
                                                                       nctx),
                              "nppiFilterGaussAdvancedBorder_8u_C3R_Ctx");
            });
            r.note = "float taps";
            break;
        }
        case FilterKind::Box: {
            const NppiSize mask{2 * plan.radius + 1, 2 * plan.radius + 1};
            const NppiPoint anchor{plan.radius, plan.radius};
            r.name = std::string("NPP FilterBoxBorder") + suffix;
            r.timing = time_adaptive(ctx, [&](cudaStream_t) {
                if (src.channels == 1)
                    check_npp(nppiFilterBoxBorder_8u_C1R_Ctx(src.data, sstep, size, origin, dst.data, dstep, size, mask,
                                                             anchor, NPP_BORDER_REPLICATE, nctx),
                              "nppiFilterBoxBorder_8u_C1R_Ctx");
                else
                    check_npp(nppiFilterBoxBorder_8u_C3R_Ctx(src.data, sstep, size, origin, dst.data, dstep, size, mask,
                                                             anchor, NPP_BORDER_REPLICATE, nctx),
                              "nppiFilterBoxBorder_8u_C3R_Ctx");
            });
            break;
        }
        case FilterKind::Custom: {
            std::vector<Npp32s> k(plan.coeffs.begin(), plan.coeffs.end());
            cuda::DeviceBuffer<Npp32s> d_k = to_device(reversed(k));
            const NppiSize ksize{plan.kernel_width, plan.kernel_height};
            // NPP's anchor refers to the reversed kernel.
            const NppiPoint anchor{plan.kernel_width - 1 - plan.anchor_x, plan.kernel_height - 1 - plan.anchor_y};
            const double den = std::ldexp(plan.scale, plan.frac_bits);
            const Npp32s divisor = std::max<Npp32s>(1, static_cast<Npp32s>(std::lround(std::fabs(den))));
            r.name = std::string("NPP FilterBorder") + suffix;
            r.timing = time_adaptive(ctx, [&](cudaStream_t) {
                check_npp(filter_border(src, dst, d_k.get(), ksize, anchor, divisor, nctx), "nppiFilterBorder_Ctx");
            });
            r.note = "integer kernel, divisor, no offset";
            break;
        }
        case FilterKind::Edges: {
            if (plan.edge_op != EdgeOperator::Sobel || plan.edges_gray) {
                r.note = "NPP peer timed for per-channel Sobel only";
                return r;
            }
            const std::vector<Npp32s> gx = {-1, 0, 1, -2, 0, 2, -1, 0, 1};
            const std::vector<Npp32s> gy = {-1, -2, -1, 0, 0, 0, 1, 2, 1};
            cuda::DeviceBuffer<Npp32s> d_gx = to_device(reversed(gx));
            cuda::DeviceBuffer<Npp32s> d_gy = to_device(reversed(gy));
            const NppiSize ksize{3, 3};
            const NppiPoint anchor{1, 1};
            r.name = std::string("NPP FilterBorder 3x3 x2") + suffix;
            r.timing = time_adaptive(ctx, [&](cudaStream_t) {
                check_npp(filter_border(src, dst, d_gx.get(), ksize, anchor, 1, nctx), "nppiFilterBorder_Ctx (gx)");
                check_npp(filter_border(src, dst, d_gy.get(), ksize, anchor, 1, nctx), "nppiFilterBorder_Ctx (gy)");
            });
            r.note = "gx and gy as generic filters, no magnitude";
            break;
        }
        case FilterKind::Unsharp:
            r.note = "NPP has no unsharp mask";
            return r;
    }
    r.available = true;
    return r;
}

#else

NppFilterRun time_npp_filter(Context&, const FilterPlan&, const DeviceViewU8&, const DeviceViewU8&) {
    NppFilterRun r;
    r.note = "NPP not installed";
    return r;
}

#endif

}  // namespace imgpar::bench
