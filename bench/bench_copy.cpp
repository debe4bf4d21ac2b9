// The roofline every other row is compared with: a device-to-device copy.
#include "bench/bench.hpp"

namespace imgpar::bench {
namespace {

void copy_roofline(Context& ctx) {
    struct Shape {
        int w, h, c;
        const char* label;
    } shapes[] = {{8192, 8192, 1, "8192x8192 gray"}, {7680, 4320, 3, "7680x4320 RGB"}};
    for (const auto& s : shapes) {
        std::size_t bytes = static_cast<std::size_t>(s.w) * s.h * s.c;
        Row r;
        r.group = "copy";
        r.name = "device copy (cudaMemcpy D2D)";
        r.image = s.label;
        r.bytes = 2.0 * bytes;
        r.copy_ms = ctx.copy_ms(bytes);
        r.gpu.median_ms = r.copy_ms;
        ctx.add(r);
    }
}

IMGPAR_BENCH(0, "copy", copy_roofline);

}  // namespace
}  // namespace imgpar::bench
