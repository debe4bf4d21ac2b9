// The lab sweep behind the adaptive threshold's band height
// (cuda/adaptive_threshold.cu, AdaptiveStripPolicy): the gray mean kernel at
// several band heights and at its own choice, on the 8192^2 gray benchmark
// image with a 31-pixel window (windows up to 17 run the tensor-core kernel,
// which has no bands), each output checked against the CPU's. Rows grouped
// "adaptive-band". Built into imgpar_bench_lab with IMGPAR_BUILD_LAB=ON;
// imgpar ships only the automatic choice.
#include <string>

#include "bench/bench.hpp"
#include "cuda/adaptive_threshold.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "src/ops/adaptive_threshold.hpp"
#include "src/ops/threshold.hpp"

namespace imgpar::bench {
namespace {

void band_sweep(Context& ctx) {
    cudaStream_t s = ctx.stream();
    cuda::AdaptiveWorkspace ws;
    cuda::IntegralWorkspace integrals;
    for (const ImageShape& shape : kImageShapes) {
        if (shape.c != 1) continue;  // the band height is the gray mean kernel's
        const ImageU8 img = make_photo_like(shape.w, shape.h, shape.c);
        const int out_c = threshold_output_channels(shape.c);
        cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
        cuda::DeviceImageU8 out(shape.w, shape.h, out_c);
        const std::size_t bytes = img.view().row_bytes() * shape.h + static_cast<std::size_t>(shape.w) * shape.h * out_c;
        AdaptiveSpec spec;
        spec.method = AdaptiveMethod::Mean;
        spec.window = 31;
        spec.offset = 5;
        ImageU8 want(shape.w, shape.h, out_c);
        cpu::adaptive_threshold(img.view(), want.view(), spec);
        for (int band : {0, 16, 24, 32, 48, 64, 128}) {
            Row r;
            r.group = "adaptive-band";
            r.name = std::string("adaptive mean 31, band ") +
                     (band ? std::to_string(band) + " rows" : std::string("auto"));
            r.image = shape.label;
            r.bytes = static_cast<double>(bytes);
            r.copy_ms = ctx.copy_ms(img.view().row_bytes() * shape.h);
            r.gpu = ctx.time([&](cudaStream_t st) {
                cuda::adaptive_threshold(d.view(), out.view(), spec, ws, integrals, st, band);
            });
            ImageU8 got(shape.w, shape.h, out_c);
            out.download(got.view(), s);
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
            const PixelMismatch mm = first_mismatch(want.view(), got.view());
            r.note = mm.found ? "MISMATCH vs CPU " + mm.describe() : "matches CPU";
            ctx.add(r);
        }
    }
}

IMGPAR_BENCH(10, "adaptive-band-sweep", band_sweep);

}  // namespace
}  // namespace imgpar::bench
