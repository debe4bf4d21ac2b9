// The 16-bit rows: every declared operation that takes u16 images, at each
// of its examples marked for the benchmark, through the device form imgpar
// runs, on the same 8K RGB and 8K gray photo-like images widened to 16 bits
// (with noise in the low byte): time against a device copy of the same
// bytes (twice the 8-bit rows' bytes), the CPU reference's bytes, and NPP's
// 16u function where it has one (Gaussian, box, resize, histogram). Report
// and array operations (histo, stats, integral) are timed with the download
// of their result, as `imgpar` runs them.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "bench/bench.hpp"
#include "bench/npp_peers16.hpp"
#include "bench/photo_like.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/filter.hpp"
#include "src/op/operation.hpp"
#include "src/ops/filter_ops.hpp"

namespace imgpar::bench {
namespace {

struct Source16 {
    ImageU16 host;
    cuda::DeviceImageU16 device;
};

Source16& source16(Context& ctx, const ImageShape& s) {
    static std::map<std::string, Source16> cache;
    auto it = cache.find(s.label);
    if (it == cache.end()) {
        const ImageU8 base = make_photo_like(s.w, s.h, s.c, 5);
        Source16 src;
        src.host = widen_with_noise(base, 7);
        src.device = cuda::DeviceImageU16::from_host(src.host.cview(), ctx.stream());
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
        it = cache.emplace(s.label, std::move(src)).first;
    }
    return it->second;
}

std::string value_of(const Example& e, const std::string& name, const std::string& otherwise) {
    for (const auto& [n, v] : e.values)
        if (n == name) return v;
    return otherwise;
}

Row row_of(const ImageShape& s, const Operation& op, const Example& e, double out_bytes) {
    Row r;
    r.group = op.name + " u16";
    r.name = op.name + " " + e.label + " u16";
    r.image = s.label;
    r.bytes = 2.0 * s.w * s.h * s.c + out_bytes;
    return r;
}

void peer(Row& r, const NppFilterRun& npp) {
    if (npp.available) {
        r.peer = npp.name;
        r.peer_ms = npp.timing.median_ms;
    }
    if (!npp.note.empty()) r.note += "; NPP: " + npp.note;
}

void time_image_example(Context& ctx, const ImageShape& s, const Operation& op, const Example& e, const ImageJob& job) {
    Source16& src = source16(ctx, s);
    const imgpar::ImageShape out = job.output_shape({s.w, s.h, s.c, SampleType::U16});
    cuda::DeviceImageU16 dst_image(out.width, out.height, out.channels);
    const DeviceViewU16 dst = dst_image.view();
    const ConstDeviceViewU16 in = src.device.view();
    RunNotes notes;
    job.run_gpu(ctx.session(), in, dst, notes);
    const std::size_t in_bytes = src.host.size_bytes();
    Row r = row_of(s, op, e, static_cast<double>(out.bytes()));
    r.gpu = ctx.time([&](cudaStream_t) {
        RunNotes n;
        job.run_gpu(ctx.session(), in, dst, n);
    });
    r.copy_ms = ctx.copy_ms(out.width == s.w && out.height == s.h ? in_bytes : (in_bytes + out.bytes()) / 2);
    r.note = notes.kernel;
    if (ctx.options().cpu) {
        ImageU16 expect;
        r.cpu_ms = Context::time_host_ms([&] {
            RunNotes n;
            expect = job.run_cpu(src.host.cview(), n);
        }, 1);
        ImageU16 got(out.width, out.height, out.channels);
        dst_image.download(got.view(), ctx.stream());
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
        const PixelMismatch mm = first_mismatch(expect.view(), got.view());
        r.note += mm.found ? "; MISMATCH vs CPU " + mm.describe() : "; matches CPU";
    }
    if (op.name == "resize" || op.name == "thumbnail")
        peer(r, time_npp_resize16(ctx, value_of(e, "filter", "auto"), in, dst));
    const auto* filter = dynamic_cast<const FilterJob*>(&job);
    if (filter && ctx.options().npp_filters) peer(r, time_npp_filter16(ctx, filter->plan(), in, dst));
    ctx.add(r);
    // The Gaussian's other 16-bit path, for the choice between them (same
    // samples; gray and RGB only).
    if (filter && (filter->plan().kind == FilterKind::Gaussian || filter->plan().kind == FilterKind::Unsharp) &&
        s.c % 2 == 1) {
        cuda::FilterWorkspace ws;
        ws.set_separable_path(cuda::SeparablePath::ByteMma);
        const char* kernel = cuda::apply_filter(filter->plan(), in, dst, ws, ctx.stream());
        Row alt = row_of(s, op, e, static_cast<double>(out.bytes()));
        alt.name += " (tensor-core ring)";
        alt.gpu = ctx.time([&](cudaStream_t st) { cuda::apply_filter(filter->plan(), in, dst, ws, st); });
        alt.copy_ms = r.copy_ms;
        alt.note = kernel;
        ctx.add(alt);
    }
}

void time_report_example(Context& ctx, const ImageShape& s, const Operation& op, const Example& e, const ReportJob& job) {
    Source16& src = source16(ctx, s);
    const ConstDeviceViewU16 in = src.device.view();
    Row r = row_of(s, op, e, 0);
    RunNotes notes;
    (void)job.run_gpu(ctx.session(), {"bench", "gpu"}, in, ReportFormat::Csv, notes);
    r.gpu = ctx.time([&](cudaStream_t) {
        RunNotes n;
        (void)job.run_gpu(ctx.session(), {"bench", "gpu"}, in, ReportFormat::Csv, n);
    });
    r.copy_ms = ctx.copy_ms(src.host.size_bytes());
    r.note = notes.kernel + "; the report's result downloaded and rendered";
    if (op.name == "histo") peer(r, time_npp_histogram16(ctx, std::stoi(value_of(e, "bins", "256")), in));
    ctx.add(r);
}

void time_array_example(Context& ctx, const ImageShape& s, const Operation& op, const Example& e, const ArrayJob& job) {
    Source16& src = source16(ctx, s);
    const ConstDeviceViewU16 in = src.device.view();
    const double out_bytes = static_cast<double>(job.array_bytes({s.w, s.h, s.c, SampleType::U16}));
    Row r = row_of(s, op, e, out_bytes);
    RunNotes notes;
    (void)job.run_gpu(ctx.session(), in, "bench", notes);
    r.gpu = ctx.time([&](cudaStream_t) {
        RunNotes n;
        (void)job.run_gpu(ctx.session(), in, "bench", n);
    }, 1, 5);
    r.copy_ms = ctx.copy_ms(static_cast<std::size_t>((static_cast<double>(src.host.size_bytes()) + out_bytes) / 2));
    r.note = notes.kernel + "; the array downloaded into its .npy file";
    ctx.add(r);
}

bool chosen(const Context& ctx, const Operation& op) {
    const std::vector<std::string>& list = ctx.options().operations;
    return list.empty() || std::find(list.begin(), list.end(), op.name) != list.end();
}

void operations_u16_case(Context& ctx) {
    for (const ImageShape& s : kImageShapes)
        for (const Operation& op : operations()) {
            if (!chosen(ctx, op)) continue;
            for (const Example& e : op.examples) {
                if (!e.benchmark) continue;
                const ParamValues values = op.values(e.values);
                if (op.kind == OperationKind::ImageToImage) {
                    const auto job = op.make_image_job(values);
                    if (job->takes_u16()) time_image_example(ctx, s, op, e, *job);
                } else if (op.kind == OperationKind::ImagesToReport) {
                    const auto job = op.make_report_job(values);
                    if (job->takes_u16()) time_report_example(ctx, s, op, e, *job);
                } else {
                    const auto job = op.make_array_job(values);
                    if (job->takes_u16()) time_array_example(ctx, s, op, e, *job);
                }
            }
        }
}

IMGPAR_BENCH(9, "operations-u16", operations_u16_case);

}  // namespace
}  // namespace imgpar::bench
