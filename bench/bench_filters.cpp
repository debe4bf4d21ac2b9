// The custom kernels' general fallback, forced, on the declared examples that
// normally take the tensor cores: the FP32 2-D kernel, which imgpar runs for
// coefficients that are not exact half-precision values. What such a kernel
// costs. (The Gaussian's fallback, the u8 MMA ring of rows, has rows of its
// own in the operations case: blur sigma=0.5 and sigma=25 are plans it runs.)
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

void time_forced(Context& ctx, const Shape& s, const cuda::DeviceImageU8& src, const std::string& name,
                 const FilterPlan& plan, cuda::CustomPath custom) {
    cuda::DeviceImageU8 dst(s.w, s.h, plan.output_channels(s.c));
    cuda::FilterWorkspace ws;
    ws.set_custom_path(custom);
    ws.reserve(plan, s.w, s.h, s.c);  // allocation happens here, not in the timed calls
    const std::size_t bytes = static_cast<std::size_t>(s.w) * s.h * s.c;
    Row r;
    r.group = "fallback";
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
            time_forced(ctx, s, src, op.name + " " + e.label + " (FP32 kernel)", plan, cuda::CustomPath::Fp32);
        }
    }
}

IMGPAR_BENCH(3, "fallbacks", fallbacks);

}  // namespace
}  // namespace imgpar::bench
