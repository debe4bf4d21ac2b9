#include "src/run/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>

#include "src/backend_pool.hpp"
#include "src/gpu/jpeg_hardware.hpp"
#include "src/gpu/session.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/parallel.hpp"
#include "src/run/device_choice.hpp"
#include "src/run/gpu_service.hpp"
#include "src/run/pipeline.hpp"
#include "src/run/source.hpp"
#include "src/run/timing.hpp"

namespace imgpar {

void prepare_session(const BackendChoice& choice, const std::vector<ImageShape>& shapes) {
    if (choice.backend != Backend::Gpu) return;
    gpu::Session& session = *choice.session;
    for (const ImageShape& s : shapes) {
        session.image<std::uint8_t>(gpu::Session::Slot::Input, s.width, s.height, s.channels);
        session.image<std::uint8_t>(gpu::Session::Slot::Output, s.width, s.height, s.channels);
    }
}

namespace {

// The side of the made-up images --device auto times the CPU on.
constexpr int kProbeSide = 512;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The shape a stage is timed on: 512x512 of its input's channels, or the
// real input where the stage cannot take that (a window wider than it).
ImageShape probe_shape(const ImageJob& job, const ImageShape& real) {
    const ImageShape sample{std::min(kProbeSide, real.width), std::min(kProbeSide, real.height), real.channels,
                            SampleType::U8};
    try {
        job.check_input(sample, "probe");
        return sample;
    } catch (const Error&) {
        return real;
    }
}

// The first file's compute on the CPU, from its shapes: each stage timed on
// a made-up image and scaled by the samples it reads or writes, the sink
// likewise. The faster of `runs` runs of each (the first may pay for what
// runs once: code paths chosen, tables built).
double estimate_cpu_seconds(const Chain& chain, const Sink& sink, const std::vector<ImageShape>& shapes, int threads,
                            int runs) {
    CpuThreadLimit limit(threads);
    double total = 0;
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const ImageJob& job = *chain.stages()[i].job;
        const ImageShape in = probe_shape(job, shapes[i]);
        const ImageShape out = job.output_shape(in);
        const ImageU8 sample(in.width, in.height, in.channels);
        double best = 0;
        for (int r = 0; r < runs; ++r) {
            RunNotes ignored;
            const auto t0 = std::chrono::steady_clock::now();
            (void)job.run_cpu(sample.view(), ignored);
            const double s = seconds_since(t0);
            best = r == 0 ? s : std::min(best, s);
        }
        const double real = static_cast<double>(std::max(shapes[i].samples(), shapes[i + 1].samples()));
        total += best * real / static_cast<double>(std::max(in.samples(), out.samples()));
    }
    if (sink.computes()) {
        const ImageShape& last = shapes.back();
        const ImageU8 sample(std::min(kProbeSide, last.width), std::min(kProbeSide, last.height), last.channels);
        double best = 0;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            sink.probe_cpu(sample.view(), last);
            const double s = seconds_since(t0);
            best = r == 0 ? s : std::min(best, s);
        }
        total += best * static_cast<double>(last.samples()) / static_cast<double>(sample.sample_count());
    }
    return total;
}

std::function<BackendChoice()> backend_selector(const DeviceRequest& request, const Diagnostics& diag) {
    return [request, &diag] {
        BackendChoice c = select_backend(request);
        if (!c.fallback_reason.empty()) note_cpu_fallback(c.fallback_reason, diag);
        return c;
    };
}

// Up to kMaxGpuSessions sessions on each GPU and one per worker in all; a
// GPU of several that cannot start is said as a warning.
PoolOptions pool_options(int jobs, std::size_t files, bool cpu_until_selected, const Diagnostics& diag) {
    PoolOptions o;
    o.sessions_per_gpu = kMaxGpuSessions;
    o.max_sessions = static_cast<int>(std::min(files, static_cast<std::size_t>(jobs)));  // the pool keeps at least 1
    o.cpu_until_selected = cpu_until_selected;
    o.gpu_failed = [&diag](const std::string& why) { diag.warning(why); };
    return o;
}

// With -v, after a run over several GPUs: how many files each computed.
void report_gpu_shares(const BackendPool& backend, const Diagnostics& diag) {
    const std::vector<std::pair<int, int>> leases = backend.leases_by_gpu();
    if (leases.size() < 2) return;
    std::string line = "GPUs: files computed on each:";
    for (std::size_t p = 0; p < leases.size(); ++p)
        line += (p ? ", gpu " : " gpu ") + std::to_string(leases[p].first) + " " + std::to_string(leases[p].second);
    diag.info(line);
}

// How the run's JPEGs decode when their files compute on the GPU: for a
// batch whose first file is a JPEG (a single file decodes on the cores: the
// GPU is still starting meanwhile), split, with the Huffman decoding shared
// between the GPU and the cores, or on the hardware decoder. None: on the host.
std::shared_ptr<GpuJpegDecoders> gpu_decoders_for(const RunSettings& settings, const Pipeline& pipeline,
                                                  std::size_t files, const std::optional<SourceFile>& first,
                                                  bool may_use_gpu) {
    const bool device_image = !pipeline.chain().empty() || pipeline.sink().takes_device_image();
    const bool jpeg_batch = pipeline.computes() && device_image && may_use_gpu && files > 1 && first &&
                            first->header.format == ImageFormat::Jpeg && jpeg_codec_available();
    if (!jpeg_batch || settings.jpeg_decoder == JpegDecoder::Cpu) return nullptr;
    const bool hardware = settings.jpeg_decoder == JpegDecoder::Hardware && files >= kMinFilesForGpuDecode &&
                          gpu::jpeg_hardware_built();
    int slots = settings.jpeg_decoder == JpegDecoder::Gpu ? -1 : kGpuHuffmanSlots;
    if (settings.jpeg_decoder == JpegDecoder::Auto)
        if (const char* env = std::getenv("IMGPAR_GPU_HUFFMAN_SLOTS")) slots = std::max(-1, std::atoi(env));
    return std::make_shared<GpuJpegDecoders>(hardware ? GpuJpegDecode::Hardware : GpuJpegDecode::Split, slots);
}

// The first file, read once before the workers start: --device auto weighs
// its shapes and the GPU's sessions are sized for it; its worker takes it.
struct FirstFile {
    std::optional<SourceFile> source;
    std::vector<ImageShape> shapes;  // empty when it could not be read (its worker reports it)
};

FirstFile read_first(const std::vector<BatchItem>& items, const Pipeline& pipeline, const DeviceRequest& request) {
    FirstFile first;
    if (!pipeline.computes() || request.kind == DeviceRequest::Kind::Cpu || !pipeline.sink().reads_pixels() ||
        items.empty())
        return first;
    try {
        first.source = read_source(items[0], pipeline.settings().load);
        first.shapes = pipeline.shapes(first.source->header, items[0].name);
    } catch (const Error&) {
        first.shapes.clear();
    }
    return first;
}

DeviceDecision decide_device(const DeviceRequest& request, const RunSettings& settings, const Pipeline& pipeline,
                             const std::vector<BatchItem>& items, const FirstFile& first, const Diagnostics& diag) {
    if (first.shapes.empty()) return {request};
    RunShape shape;
    shape.what = settings.command;
    shape.files = items.size();
    shape.first = first.source->header;
    // The images as the run makes them: a thumbnail's JPEG decoded smaller.
    Chain::LoadShapes load;
    try {
        load = pipeline.chain().load_shapes(first.shapes.front(), shape.first->format == ImageFormat::Jpeg, items[0].name);
    } catch (const Error&) {
        return {request};  // its worker reports it
    }
    // A first file whose images outgrow --max-memory is refused by its
    // worker; timing its stages would make them (pad --size 999999x999999
    // ended the run out of memory).
    for (const ImageShape& s : load.shapes)
        if (s.bytes() > settings.load.max_memory) return {request};
    shape.shrink = load.shrink;
    shape.decoded = load.shapes.front();
    shape.output = load.shapes.back();
    FileRun probe;
    probe.item = &items[0];
    probe.shapes = load.shapes;
    shape.encode_seconds_saved_per_pixel = pipeline.sink().encode_seconds_saved_per_pixel(probe);
    shape.cpu_seconds = [&](int threads, int runs) {
        return estimate_cpu_seconds(pipeline.chain(), pipeline.sink(), load.shapes, threads, runs);
    };
    return choose_device(request, shape, diag);
}

}  // namespace

RunOutcome run_files(const std::vector<BatchItem>& items, const Chain& chain, const Sink& sink,
                     const RunSettings& settings, const Diagnostics& diag, std::ostream& out) {
    PipelineSettings ps{settings.command, settings.load, nullptr, settings.auto_orient};
    const bool computes = !chain.empty() || sink.computes();
    const DeviceRequest request = computes ? settings.device : parse_device_request("cpu");
    FirstFile first = read_first(items, Pipeline(chain, sink, ps, diag), request);
    const DeviceDecision device = decide_device(request, settings, Pipeline(chain, sink, ps, diag), items, first, diag);
    const bool may_use_gpu = computes && device.request.kind != DeviceRequest::Kind::Cpu;

    // On the GPU a file's worker spends much of its time waiting (for the
    // hardware decoder, the GPU, the write's fsync): twice as many workers as
    // CPU threads keep the cores busy meanwhile. Sessions stay at
    // kMaxGpuSessions, so the extra workers decode or write while others
    // hold them.
    BatchSettings batch = settings.batch;
    if (may_use_gpu && !settings.jobs_given) batch.jobs = std::min(2 * batch.jobs, 1024);
    const auto select = backend_selector(device.request, diag);
    const auto prepare = [shapes = first.shapes](const BackendChoice& choice) { prepare_session(choice, shapes); };
    PoolOptions pool = pool_options(batch.jobs, items.size(), device.cpu_while_gpu_starts, diag);
    pool.warm_up = prepare;
    // Held in optionals so the run can close them, and time that, before -v's
    // timing line.
    std::optional<BackendPool> backend;
    backend.emplace(
        [select, prepare] {
            BackendChoice choice = select();
            prepare(choice);
            return choice;
        },
        pool);
    // The files in flight share --max-memory (and half the machine's memory
    // at most): a file may need all of it, several need it between them.
    MemoryBudget memory(
        static_cast<std::size_t>(std::min<std::uint64_t>(default_memory_budget(), settings.load.max_memory)));

    ps.jpeg_decoders = gpu_decoders_for(settings, Pipeline(chain, sink, ps, diag), items.size(), first.source, may_use_gpu);
    const GpuJpegDecode gpu_decode = ps.jpeg_decoders ? ps.jpeg_decoders->how() : GpuJpegDecode::None;
    if (gpu_decode == GpuJpegDecode::Split)
        diag.info(std::string("JPEG: files computed on the GPU decode there (libjpeg-turbo's pixels), their Huffman "
                              "decoding ") +
                  (ps.jpeg_decoders->huffman_slots() < 0
                       ? "on the GPU wherever it takes the scan, else by " + jpeg_codec_name() + " on a core"
                       : "shared between the GPU and " + jpeg_codec_name() + " on the cores"));
    std::optional<ServiceLogClose> hardware_start;
    hardware_start.emplace(
        gpu_decode == GpuJpegDecode::Hardware
            ? start_gpu_service(diag, device.request,
                                [](int gpu_index) {
                                    gpu::start_jpeg_hardware(gpu_index);
                                    return "JPEG: decoding on the " + gpu::jpeg_hardware_name() +
                                           " (libjpeg-turbo's pixels)";
                                },
                                "JPEG: the hardware decoder is not used: ")
            : ServiceLogClose{});

    const Pipeline pipeline(chain, sink, ps, diag);
    const auto process = [&](std::size_t index, const BatchItem& item, WorkerContext& ctx) {
        std::optional<SourceFile> preread;
        if (index == 0 && first.source) preread = std::move(first.source);
        return pipeline.run(index, item, ctx, std::move(preread));
    };
    const auto failure = [&](std::size_t index, const BatchItem& item, const Error& e) {
        return sink.failed(index, item, e);
    };
    RunOutcome outcome;
    const auto batch_start = std::chrono::steady_clock::now();
    const double startup = std::chrono::duration<double>(batch_start - process_start()).count();
    outcome.summary = run_batch(items, batch, *backend, memory, diag, out, process, failure);
    outcome.checks_failed = sink.checks_failed();
    report_gpu_shares(*backend, diag);
    if (const int early = backend->leased_before_selection())
        diag.info("device auto: " + std::to_string(early) + " of " + std::to_string(items.size()) +
                  " files computed on the CPU while the GPU started");
    const BatchSummary& s = outcome.summary;
    if (diag.verbose()) {
        const auto teardown_start = std::chrono::steady_clock::now();
        backend.reset();
        hardware_start.reset();
        const double teardown = std::chrono::duration<double>(std::chrono::steady_clock::now() - teardown_start).count();
        diag.info(batch_timing_line(s, startup, teardown));
        if (ps.jpeg_decoders)
            if (const std::string line = ps.jpeg_decoders->summary(); !line.empty()) diag.info(line);
    }
    if (settings.summary_line || (settings.summary_when_failed && s.failed)) {
        const std::string line = summary_line(settings.command, s, sink.verb()) + sink.checks_text();
        if (s.failed || outcome.checks_failed)
            diag.error(line);
        else
            diag.notice(line);
    }
    return outcome;
}

}  // namespace imgpar
