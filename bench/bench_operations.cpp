// Every declared operation (src/op/catalog.cpp) at each of its examples
// marked for the benchmark, through the device form imgpar runs
// (ImageJob::run_gpu on a session), on 7680x4320 RGB and 8192x8192 gray
// photo-like images: time against a device copy of the same bytes, the CPU
// reference (and whether the bytes match), and NPP's equivalent where it has
// one. A last row per operation times the whole host round trip through the
// session (staging, upload, run, download). An operation added to the
// catalog is timed here without a case of its own.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "bench/bench.hpp"
#include "bench/npp_peers.hpp"
#include "bench/npp_resize_peer.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "src/op/operation.hpp"
#include "src/ops/filter_ops.hpp"

namespace imgpar::bench {
namespace {

using Shape = ImageShape;

// Host and device sources, made once per process and shared by the cases.
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

// Output images by (width, height, channels), reused across an operation's examples.
using DeviceOutputs = std::map<std::tuple<int, int, int>, cuda::DeviceImageU8>;

void time_example(Context& ctx, const Shape& s, const Operation& op, const Example& e, const ImageJob& job,
                  DeviceOutputs& dsts) {
    Source& src = source(ctx, s);
    const imgpar::ImageShape out = job.output_shape({s.w, s.h, s.c, SampleType::U8});
    const int oc = out.channels;
    const auto key = std::make_tuple(out.width, out.height, oc);
    auto d = dsts.find(key);
    if (d == dsts.end()) d = dsts.emplace(key, cuda::DeviceImageU8(out.width, out.height, oc)).first;
    const DeviceViewU8 dst = d->second.view();
    RunNotes notes;
    job.run_gpu(ctx.session(), src.device.view(), dst, notes);  // the session's first call of a shape allocates

    const std::size_t in_bytes = static_cast<std::size_t>(s.w) * s.h * s.c;
    Row r;
    r.group = op.name;
    r.name = op.name + " " + e.label;
    r.image = s.label;
    r.bytes = static_cast<double>(in_bytes) + static_cast<double>(out.bytes());
    r.gpu = ctx.time([&](cudaStream_t) {
        RunNotes n;
        job.run_gpu(ctx.session(), src.device.view(), dst, n);
    });
    // A copy of the input; where the size changes (crop, pad, rotate), a copy
    // moving as many bytes as the operation reads and writes.
    r.copy_ms = ctx.copy_ms(out.width == s.w && out.height == s.h ? in_bytes : (in_bytes + out.bytes()) / 2);
    r.note = notes.kernel;
    if (ctx.options().cpu) {
        ImageU8 expect;
        r.cpu_ms = Context::time_host_ms([&] {
            RunNotes n;
            expect = job.run_cpu(src.host.view(), n);
        }, 1);
        ImageU8 got(out.width, out.height, oc);
        d->second.download(got.view(), ctx.stream());
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
        const PixelMismatch mm = first_mismatch(expect.view(), got.view());
        r.note += mm.found ? "; MISMATCH vs CPU " + mm.describe() : "; matches CPU";
    }
    if (op.name == "resize" || op.name == "thumbnail") {
        std::string filter = "auto";
        for (const auto& [name, value] : e.values)
            if (name == "filter") filter = value;
        const NppFilterRun npp = time_npp_resize(ctx, filter, src.device.view(), dst);
        if (npp.available) {
            r.peer = npp.name;
            r.peer_ms = npp.timing.median_ms;
        }
        if (!npp.note.empty()) r.note += "; NPP: " + npp.note;
    }
    if (const auto* filter = dynamic_cast<const FilterJob*>(&job); filter && ctx.options().npp_filters) {
        const NppFilterRun npp = time_npp_filter(ctx, filter->plan(), src.device.view(), dst);
        if (npp.available) {
            r.peer = npp.name;
            r.peer_ms = npp.timing.median_ms;
        }
        if (!npp.note.empty()) r.note += "; NPP: " + npp.note;
    }
    ctx.add(r);
}

// Host image in, host image out, as `imgpar OP` on the GPU does it.
void time_round_trip(Context& ctx, const Shape& s, const Operation& op, const Example& e, const ImageJob& job) {
    Source& src = source(ctx, s);
    BackendChoice gpu;
    gpu.backend = Backend::Gpu;
    gpu.session = std::shared_ptr<gpu::Session>(&ctx.session(), [](gpu::Session*) {});
    RunNotes notes;
    (void)job.run(gpu, src.host.view(), notes);  // warm: the session's images and staging buffers
    Row r;
    r.group = op.name;
    r.name = op.name + " " + e.label + " host round trip (staging, upload, run, download)";
    r.image = s.label;
    r.bytes = static_cast<double>(s.w) * s.h * s.c + static_cast<double>(job.output_shape({s.w, s.h, s.c, SampleType::U8}).bytes());
    r.gpu.median_ms = Context::time_host_ms([&] { (void)job.run(gpu, src.host.view(), notes); }, ctx.options().quick ? 1 : 5);
    r.note = "host wall time (no copy ratio); pageable host images through the session's pinned buffers";
    ctx.add(r);
}

// The device rows of every operation first, then one host round trip per
// operation (its first benchmark example): a round trip leaves the GPU idle
// for ~100 ms, and a device row timed right after one ran up to 15% slow in
// some runs (clocks ramping up again).
bool chosen(const Context& ctx, const Operation& op) {
    const std::vector<std::string>& list = ctx.options().operations;
    return op.kind == OperationKind::ImageToImage &&  // histo: bench/bench_histogram.cu
           (list.empty() || std::find(list.begin(), list.end(), op.name) != list.end());
}

// An example with the --param settings the operation has, named after them.
Example with_params(const Context& ctx, const Operation& op, Example e) {
    for (const auto& [name, value] : ctx.options().params) {
        const bool has = std::any_of(op.params.begin(), op.params.end(), [&](const ParamSpec& p) { return p.name == name; });
        if (!has) continue;
        e.values.erase(std::remove_if(e.values.begin(), e.values.end(), [&](const auto& v) { return v.first == name; }),
                       e.values.end());
        e.values.emplace_back(name, value);
        e.label += " " + name + "=" + value;
    }
    return e;
}

void operations_case(Context& ctx) {
    for (const Shape& s : kImageShapes)
        for (const Operation& op : operations()) {
            if (!chosen(ctx, op)) continue;
            DeviceOutputs dsts;
            for (const Example& given : op.examples) {
                if (!given.benchmark) continue;
                const Example e = with_params(ctx, op, given);
                time_example(ctx, s, op, e, *op.make_image_job(op.values(e.values)), dsts);
            }
        }
    for (const Shape& s : kImageShapes)
        for (const Operation& op : operations()) {
            if (!chosen(ctx, op)) continue;
            for (const Example& given : op.examples)
                if (given.benchmark) {
                    const Example e = with_params(ctx, op, given);
                    time_round_trip(ctx, s, op, e, *op.make_image_job(op.values(e.values)));
                    break;
                }
        }
}

IMGPAR_BENCH(1, "operations", operations_case);

}  // namespace
}  // namespace imgpar::bench
