// Filter rows outside the declared examples:
//  - fallbacks: the custom kernels' general fallback, forced, on the declared
//    examples that normally take the tensor cores: the FP32 2-D kernel, which
//    imgpar runs for coefficients that are not exact half-precision values.
//    (The Gaussian's fallback, the u8 MMA ring of rows, has rows of its own in
//    the operations case: blur sigma=0.5 and sigma=25 are plans it runs.)
//  - alpha: an 8K RGBA image, which every filter runs on the wide integer
//    kernels (cuda/filter_wide.cu, colour premultiplied in 16 bits): what the
//    alpha path costs next to a device copy of the same bytes.
#include <map>
#include <memory>
#include <string>

#include "bench/bench.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/filter.hpp"
#include "src/op/operation.hpp"
#include "src/ops/filter_ops.hpp"

namespace imgpar::bench {
namespace {

using Shape = ImageShape;

void time_plan(Context& ctx, const char* group, const Shape& s, const cuda::DeviceImageU8& src,
               const std::string& name, const FilterPlan& plan, cuda::CustomPath custom) {
    cuda::DeviceImageU8 dst(s.w, s.h, plan.output_channels(s.c));
    cuda::FilterWorkspace ws;
    ws.set_custom_path(custom);
    ws.reserve(plan, s.w, s.h, s.c);  // allocation happens here, not in the timed calls
    const std::size_t bytes = static_cast<std::size_t>(s.w) * s.h * s.c;
    Row r;
    r.group = group;
    r.name = name;
    r.image = s.label;
    r.bytes = static_cast<double>(bytes) + static_cast<double>(s.w) * s.h * dst.channels();
    const char* kernel = nullptr;
    r.gpu = ctx.time([&](cudaStream_t st) { kernel = cuda::apply_filter(plan, src.view(), dst.view(), ws, st); });
    r.copy_ms = ctx.copy_ms(bytes);
    r.note = kernel ? kernel : "";
    ctx.add(r);
}

void fallbacks(Context& ctx) {
    for (const Shape& s : kImageShapes) {
        const ImageU8 host = make_photo_like(s.w, s.h, s.c, 5);
        const cuda::DeviceImageU8 src = cuda::DeviceImageU8::from_host(host.view(), ctx.stream());
        const Operation& op = *find_operation("convolve");
        for (const Example& e : op.examples) {
            if (!e.benchmark) continue;
            const auto job = op.make_image_job(op.values(e.values));
            const FilterPlan& plan = dynamic_cast<const FilterJob&>(*job).plan();
            time_plan(ctx, "fallback", s, src, op.name + " " + e.label + " (FP32 kernel)", plan, cuda::CustomPath::Fp32);
        }
    }
}

// The first benchmark example of a declared operation, as a plan.
FilterPlan example_plan(const char* operation) {
    const Operation& op = *find_operation(operation);
    for (const Example& e : op.examples)
        if (e.benchmark) {
            const auto job = op.make_image_job(op.values(e.values));
            return dynamic_cast<const FilterJob&>(*job).plan();
        }
    return {};
}

void alpha_rows(Context& ctx) {
    const Shape s{7680, 4320, 4, "7680x4320 RGBA"};
    const ImageU8 host = make_photo_like(s.w, s.h, s.c, 5);
    const cuda::DeviceImageU8 src = cuda::DeviceImageU8::from_host(host.view(), ctx.stream());
    const cuda::CustomPath automatic = cuda::CustomPath::Auto;
    time_plan(ctx, "alpha", s, src, "blur sigma=2 (RGBA)", make_gaussian(2.0, 0, {}), automatic);
    time_plan(ctx, "alpha", s, src, "box radius=15 (RGBA)", make_box(15, {}), automatic);
    time_plan(ctx, "alpha", s, src, "convolve 5x5 (RGBA)", example_plan("convolve"), automatic);
}

IMGPAR_BENCH(3, "fallbacks", fallbacks);
IMGPAR_BENCH(5, "alpha", alpha_rows);

}  // namespace
}  // namespace imgpar::bench
