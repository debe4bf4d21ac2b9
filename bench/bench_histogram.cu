// The histogram kernel against a device copy of the same bytes, CUB
// DeviceHistogram and NPP HistogramEven, on 8K gray and RGB images,
// photo-like and constant (the case where privatized histograms usually
// collapse into same-address atomics). Every row checks its counts against
// the CPU reference and says so in the note. (equalize and threshold are
// timed with every other operation, bench/bench_operations.cpp.)
// (The sweep that chose the default policies is a lab case:
// bench/lab/histogram_sweep.cu.)
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/histogram_support.hpp"
#include "bench/npp_histogram_peer.hpp"
#include "bench/npp_peers16.hpp"
#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/histogram_policy.hpp"
#include "src/error.hpp"
#include "src/ops/histogram.hpp"

namespace imgpar::bench {
namespace {

using namespace hist;

void histogram_cases(Context& ctx) {
    cudaStream_t s = ctx.stream();
    for (const Shape& shape : kShapes) {
        const ImageU8& img = host_image(shape);
        const Histogram& ref = cpu_counts(shape);
        cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
        cuda::DeviceBuffer<unsigned long long> counts(5 * 256);
        const std::size_t bytes = image_bytes(shape);
        const double copy = ctx.copy_ms(bytes);

        // imgpar, channels only: the same work as CUB and NPP.
        cuda::HistogramPlanes planes;
        const Timing t = ctx.time([&](cudaStream_t st) { cuda::histogram(d.view(), planes, counts.get(), st); }, 3, 50);
        std::string note = compare_counts(ref, download_counts(counts.get(), shape.c * 256, s), "imgpar");

        CubPeer cub;
        cub.prepare(d.view(), s);
        const Timing tc = ctx.time([&](cudaStream_t st) { IMGPAR_CUDA_CHECK(cub.run(d.view(), st, cub.temp.get())); }, 3, 50);
        {
            std::vector<unsigned> hc(static_cast<std::size_t>(shape.c) * 256);
            IMGPAR_CUDA_CHECK(cudaMemcpyAsync(hc.data(), cub.counts.get(), hc.size() * 4, cudaMemcpyDeviceToHost, s));
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
            note += compare_counts(ref, std::vector<unsigned long long>(hc.begin(), hc.end()), " CUB");
        }
        Row r;
        r.group = "histogram";
        r.name = std::string("histogram 256 bins, ") + (shape.c == 1 ? "gray" : "3 channels, one pass");
        r.image = shape.label;
        r.bytes = static_cast<double>(bytes);
        r.gpu = t;
        r.copy_ms = copy;
        if (ctx.options().cpu) r.cpu_ms = Context::time_host_ms([&] { cpu::histogram(img.view(), false); });
        r.peer = cub.name(shape.c);
        r.peer_ms = tc.median_ms;
        r.note = note.empty() ? "counts = CPU = CUB; read-only, so 0.5x copy is the roofline" : note;
        ctx.add(r);

        NppHistogramRun npp = time_npp_histogram(ctx, d.view());
        if (npp.available) {
            const std::string nn = compare_counts(ref, npp.counts, "NPP");
            ctx.add(vs_peer_row(r, "NPP", npp.name, npp.timing.median_ms, nn.empty() ? "NPP counts = CPU" : nn));
        }

        if (shape.c >= 3) {
            // With the luma plane as well, still one pass over the image.
            cuda::HistogramPlanes with_luma;
            with_luma.luma = true;
            const Timing tl = ctx.time([&](cudaStream_t st) { cuda::histogram(d.view(), with_luma, counts.get(), st); }, 3, 50);
            const Histogram full = cpu::histogram(img.view(), true);
            const auto got = download_counts(counts.get(), 4 * 256, s);
            bool ok = true;
            for (int v = 0; v < 256; ++v) ok = ok && got[3 * 256 + v] == full.counts[3][v];
            Row l = r;
            l.name = "histogram 256 bins, RGB + luma, one pass";
            l.cpu_ms = ctx.options().cpu ? Context::time_host_ms([&] { cpu::histogram(img.view(), true); }) : NAN;
            l.gpu = tl;
            l.note = ok && compare_counts(ref, got, "imgpar").empty() ? "counts = CPU" : "COUNTS DIFFER";
            ctx.add(l);
        }
    }
}

// The same images widened to 16 bits with noise in the low byte (as the
// operations-u16 rows), counted exactly (65,536 values a plane): the kernel
// alone, as the 8-bit rows above, and NPP's 16u histogram of 256 even
// levels (gray; NPP counts fewer bins, so it has less to write).
void histogram16_cases(Context& ctx) {
    cudaStream_t s = ctx.stream();
    cuda::HistogramWorkspace ws;
    ws.reserve16();
    for (const Shape& shape : kShapes) {
        const ImageU8& base = host_image(shape);
        ImageU16 img = widen_with_noise(base, 12345);
        if (shape.constant) img.fill(static_cast<std::uint16_t>(base.data()[0] * 257));
        const Histogram16 ref = cpu::histogram(img.view(), false);
        cuda::DeviceImageU16 d = cuda::DeviceImageU16::from_host(img.cview(), s);
        const std::size_t bytes = img.sample_count() * 2;
        cuda::HistogramPlanes planes;
        const Timing t = ctx.time([&](cudaStream_t st) { cuda::histogram(d.view(), planes, ws.counts16(), ws, st); }, 3, 30);
        const auto got = download_counts(ws.counts16(), static_cast<std::size_t>(shape.c) * kHistogramValues16, s);
        bool same = got.size() == ref.counts.size();
        for (std::size_t i = 0; same && i < got.size(); ++i) same = got[i] == ref.counts[i];
        Row r;
        r.group = "histogram u16";
        r.name = std::string("histogram u16, 65536 exact counts, ") + (shape.c == 1 ? "gray" : "3 channels");
        r.image = shape.label;
        r.bytes = static_cast<double>(bytes);
        r.gpu = t;
        r.copy_ms = ctx.copy_ms(bytes);
        if (ctx.options().cpu) r.cpu_ms = Context::time_host_ms([&] { cpu::histogram(img.view(), false); });
        r.note = (same ? "counts = CPU; " : "COUNTS DIFFER; ") + cuda::histogram16_kernel_name();
        if (shape.c == 1) {
            const NppFilterRun npp = time_npp_histogram16(ctx, 256, ConstDeviceViewU16(d.view()));
            if (npp.available) {
                r.peer = npp.name;
                r.peer_ms = npp.timing.median_ms;
            }
        }
        ctx.add(r);
    }
}

IMGPAR_BENCH(2, "histogram", histogram_cases);
IMGPAR_BENCH(2, "histogram-u16", histogram16_cases);

}  // namespace
}  // namespace imgpar::bench
