#include "bench/npp_compare_peer.hpp"
#include "bench/npp_support.hpp"

#include <algorithm>
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

// nppiSSIM's scratch size and call, gray or RGB.
std::size_t ssim_buffer_size(bool gray, NppiSize roi, NppStreamContext ctx) {
    return gray ? buffer_size(nppiSSIMGetBufferHostSize_8u_C1R_Ctx, roi, ctx, "nppiSSIMGetBufferHostSize")
                : buffer_size(nppiSSIMGetBufferHostSize_8u_C3R_Ctx, roi, ctx, "nppiSSIMGetBufferHostSize");
}

void npp_ssim(bool gray, const Npp8u* a, int sa, const Npp8u* b, int sb, NppiSize roi, Npp32f* out, Npp8u* scratch,
              NppStreamContext ctx) {
    check_npp(gray ? nppiSSIM_8u_C1R_Ctx(a, sa, b, sb, roi, out, scratch, ctx)
                   : nppiSSIM_8u_C3R_Ctx(a, sa, b, sb, roi, out, scratch, ctx),
              "nppiSSIM_8u_CnR_Ctx");
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
        scratch.reserve(ssim_buffer_size(gray, roi, nctx));
        r.timing = ctx.time([&](cudaStream_t) { npp_ssim(gray, a.data, sa, b.data, sb, roi, value.get(), scratch.get(), nctx); });
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

// Below 384 pixels on the short side the reference shrinks by round(side /
// 256) = 1; 320 keeps clear of the rounding.
constexpr int kNppSsimTile = 320;
constexpr int kSsimSpan = 10;  // an 11-pixel window's extent past its first pixel

NppCompareRun time_npp_ssim_full_resolution(Context& ctx, const DeviceViewU8& a, const DeviceViewU8& b, double& mean) {
    NppCompareRun r;
    if (a.channels != 1 && a.channels != 3) {
        r.note = "NPP's SSIM is timed for gray and RGB only";
        return r;
    }
    const bool gray = a.channels == 1;
    r.name = std::string(gray ? "NPP SSIM_8u_C1R" : "NPP SSIM_8u_C3R") + " on " + std::to_string(kNppSsimTile) +
             "-pixel tiles (full resolution)";
    struct Tile {
        int x, y, w, h;
    };
    std::vector<Tile> tiles;
    const int step = kNppSsimTile - kSsimSpan;
    for (int y = 0; y + kSsimSpan < a.height; y += step)
        for (int x = 0; x + kSsimSpan < a.width; x += step)
            tiles.push_back({x, y, std::min(kNppSsimTile, a.width - x), std::min(kNppSsimTile, a.height - y)});
    const NppStreamContext nctx = npp_stream_context(ctx.stream());
    const NppiSize largest{std::min(kNppSsimTile, a.width), std::min(kNppSsimTile, a.height)};
    cuda::DeviceBuffer<Npp8u> scratch;
    scratch.reserve(ssim_buffer_size(gray, largest, nctx));
    const std::size_t per_tile = 4;  // NPP writes one value per channel
    cuda::DeviceBuffer<Npp32f> values(tiles.size() * per_tile);
    const int sa = static_cast<int>(a.pitch), sb = static_cast<int>(b.pitch);
    r.timing = ctx.time([&](cudaStream_t) {
        for (std::size_t t = 0; t < tiles.size(); ++t) {
            const Tile& k = tiles[t];
            const std::size_t column = static_cast<std::size_t>(k.x) * static_cast<std::size_t>(a.channels);
            npp_ssim(gray, a.data + static_cast<std::size_t>(k.y) * a.pitch + column, sa,
                     b.data + static_cast<std::size_t>(k.y) * b.pitch + column, sb, NppiSize{k.w, k.h},
                     values.get() + t * per_tile, scratch.get(), nctx);
        }
    }, 1, 5);
    std::vector<Npp32f> host(tiles.size() * per_tile);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), values.get(), host.size() * sizeof(Npp32f), cudaMemcpyDeviceToHost,
                                      ctx.stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    r.note = "NPP's SSIM over " + std::to_string(tiles.size()) + " tiles:";
    mean = 0;
    for (int c = 0; c < a.channels; ++c) {
        double sum = 0, windows = 0;
        for (std::size_t t = 0; t < tiles.size(); ++t) {
            const double n = static_cast<double>(tiles[t].w - kSsimSpan) * static_cast<double>(tiles[t].h - kSsimSpan);
            sum += n * static_cast<double>(host[t * per_tile + static_cast<std::size_t>(c)]);
            windows += n;
        }
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.6f", sum / windows);
        r.note += buf;
        mean += sum / windows / a.channels;
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

NppCompareRun time_npp_ssim_full_resolution(Context&, const DeviceViewU8&, const DeviceViewU8&, double&) {
    NppCompareRun r;
    r.note = "built without NPP's SSIM";
    return r;
}

#endif

}  // namespace imgpar::bench
