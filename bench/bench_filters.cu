// Convolution filters: imgpar's no-allocation GPU form against a device copy
// of the same bytes, the CPU reference and NPP, on 7680x4320 RGB and
// 8192x8192 gray photo-like images, replicate border (the one NPP supports).
//
// Cases (run one with --only NAME): "gaussian" (sigma 1, 2, 5, 10, 20 on the
// default path, and sigma 2 and 20 on the simple two-pass kernels for
// comparison), "box" (radius 15 and 50), "sharpen" (unsharp defaults: sigma 1,
// amount 1, threshold 0.05), "edges" (Sobel), "custom" (non-separable 5x5 and
// 15x15, and both again on the FP32 kernel for comparison). When the CPU is
// timed, each row also compares the GPU image with the CPU's and says so in
// the note.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/npp_peers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/filter.hpp"
#include "src/ops/filter.hpp"

namespace imgpar::bench {
namespace {

struct Shape {
    int w, h, c;
    const char* label;
};

const Shape kShapes[] = {{7680, 4320, 3, "7680x4320 RGB"}, {8192, 8192, 1, "8192x8192 gray"}};

// Host and device sources are made once per process and shared by the cases.
struct Source {
    ImageU8 host;
    cuda::DeviceImageU8 device;
};

Source& source(Context& ctx, const Shape& s) {
    static std::map<std::string, Source> cache;
    auto it = cache.find(s.label);
    if (it == cache.end()) {
        Source src;
        src.host = make_photo_like(s.w, s.h, s.c, 5);
        src.device = cuda::DeviceImageU8::from_host(src.host.view(), ctx.stream());
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
        it = cache.emplace(s.label, std::move(src)).first;
    }
    return it->second;
}

struct FilterCase {
    std::string name;
    FilterPlan plan;
    cuda::SeparablePath path = cuda::SeparablePath::Auto;
    cuda::CustomPath custom = cuda::CustomPath::Auto;
};

// A deterministic non-separable kernel of small integers of both signs with
// a larger centre, normalised (sum != 0).
KernelMatrix test_kernel(int n) {
    KernelMatrix k;
    k.width = n;
    k.height = n;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) k.values.push_back(static_cast<double>((i * 7 + j * 3 + i * j) % 5 - 1));
    k.values[static_cast<std::size_t>(n / 2) * n + n / 2] = 4.0 * n;
    return k;
}

void run_cases(Context& ctx, const std::vector<FilterCase>& cases) {
    for (const Shape& s : kShapes) {
        Source& src = source(ctx, s);
        const std::size_t bytes = static_cast<std::size_t>(s.w) * s.h * s.c;
        std::map<int, cuda::DeviceImageU8> dsts;  // by output channel count
        cuda::FilterWorkspace ws;
        for (const FilterCase& fc : cases) {
            const int oc = fc.plan.output_channels(s.c);
            auto d = dsts.find(oc);
            if (d == dsts.end()) d = dsts.emplace(oc, cuda::DeviceImageU8(s.w, s.h, oc)).first;
            const DeviceViewU8& dst = d->second.view();
            ws.set_separable_path(fc.path);
            ws.set_custom_path(fc.custom);
            ws.reserve(fc.plan, s.w, s.h, s.c);  // allocation happens here, not in the timed calls

            Row r;
            r.group = filter_kind_name(fc.plan.kind);
            r.name = fc.name;
            r.image = s.label;
            r.bytes = static_cast<double>(bytes) + static_cast<double>(s.w) * s.h * oc;
            r.gpu = ctx.time([&](cudaStream_t stream) { cuda::apply_filter(fc.plan, src.device.view(), dst, ws, stream); });
            r.copy_ms = ctx.copy_ms(bytes);
            r.note = cuda::filter_path_name(fc.plan, s.c, ws);

            if (ctx.options().cpu) {
                ImageU8 expect;
                r.cpu_ms = Context::time_host_ms([&] { expect = cpu::apply_filter(fc.plan, src.host.view()); }, 1);
                ImageU8 got(s.w, s.h, oc);
                d->second.download(got.view(), ctx.stream());
                IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
                const PixelMismatch mm = first_mismatch(expect.view(), got.view());
                r.note += mm.found ? "; MISMATCH vs CPU " + mm.describe() : "; matches CPU";
            }

            if (ctx.options().npp_filters && fc.path == cuda::SeparablePath::Auto && fc.custom == cuda::CustomPath::Auto) {
                const NppFilterRun npp = time_npp_filter(ctx, fc.plan, src.device.view(), dst);
                if (npp.available) {
                    r.peer = npp.name;
                    r.peer_ms = npp.timing.median_ms;
                }
                if (!npp.note.empty()) r.note += "; NPP: " + npp.note;
            }
            ctx.add(r);
        }
    }
}

const Border kReplicate{BorderMode::Replicate, 0};

void gaussian(Context& ctx) {
    std::vector<FilterCase> cases;
    for (double sigma : {1.0, 2.0, 5.0, 10.0, 20.0}) {
        char name[64];
        std::snprintf(name, sizeof name, "gaussian sigma=%g", sigma);
        cases.push_back({name, make_gaussian(sigma, 0, kReplicate)});
    }
    cases.push_back({"gaussian sigma=2 (u8 MMA ring)", make_gaussian(2.0, 0, kReplicate), cuda::SeparablePath::ByteMma});
    cases.push_back({"gaussian sigma=20 (u8 MMA ring)", make_gaussian(20.0, 0, kReplicate), cuda::SeparablePath::ByteMma});
    cases.push_back({"gaussian sigma=2 (simple kernels)", make_gaussian(2.0, 0, kReplicate), cuda::SeparablePath::Simple});
    cases.push_back({"gaussian sigma=20 (simple kernels)", make_gaussian(20.0, 0, kReplicate), cuda::SeparablePath::Simple});
    run_cases(ctx, cases);
}

void box(Context& ctx) {
    run_cases(ctx, {{"box radius=15", make_box(15, kReplicate)}, {"box radius=50", make_box(50, kReplicate)}});
}

void sharpen(Context& ctx) {
    run_cases(ctx, {{"sharpen sigma=1 amount=1 threshold=0.05", make_unsharp(1.0, 0, 1.0, 0.05, kReplicate)}});
}

void edges(Context& ctx) { run_cases(ctx, {{"sobel", make_edges(EdgeOperator::Sobel, false, kReplicate)}}); }

void custom(Context& ctx) {
    CustomKernelOptions normalize;
    normalize.normalize = true;
    run_cases(ctx, {{"custom 5x5 non-separable", make_custom(test_kernel(5), normalize, kReplicate)},
                    {"custom 15x15 non-separable", make_custom(test_kernel(15), normalize, kReplicate)},
                    {"custom 5x5 (FP32 kernel)", make_custom(test_kernel(5), normalize, kReplicate),
                     cuda::SeparablePath::Auto, cuda::CustomPath::Fp32},
                    {"custom 15x15 (FP32 kernel)", make_custom(test_kernel(15), normalize, kReplicate),
                     cuda::SeparablePath::Auto, cuda::CustomPath::Fp32}});
}

IMGPAR_BENCH("gaussian", gaussian);
IMGPAR_BENCH("box", box);
IMGPAR_BENCH("sharpen", sharpen);
IMGPAR_BENCH("edges", edges);
IMGPAR_BENCH("custom", custom);

}  // namespace
}  // namespace imgpar::bench
