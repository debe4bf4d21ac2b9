#include "cli/image_files.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "cli/batch_runner.hpp"
#include "cli/batch_settings.hpp"
#include "cli/common_options.hpp"
#include "cli/device_choice.hpp"
#include "cli/file_compute.hpp"
#include "cli/timing.hpp"
#include "cli/input_list.hpp"
#include "cli/output_plan.hpp"
#include "src/backend_pool.hpp"
#include "src/error.hpp"
#include "src/gpu/jpeg_encoder.hpp"
#include "src/gpu/jpeg_hardware.hpp"
#include "src/io/atomic_write.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/metadata.hpp"

namespace imgpar::cli {
namespace {

namespace fs = std::filesystem;

// Starting the hardware JPEG decoder costs a few tenths of a second: worth it
// from this many files on.
constexpr std::size_t kMinFilesForGpuDecode = 32;

constexpr const char* kJsonSchema = "imgpar.image_op/2";

// What the starting threads of a GPU service may still say: nothing once
// the run is over (the service thread is not waited for, see below).
struct ServiceLog {
    std::mutex mutex;
    const Diagnostics* diag;  // null once the run has ended
    void info(const std::string& line) {
        std::lock_guard<std::mutex> lock(mutex);
        if (diag) diag->info(line);
    }
};

// Ends the run's ServiceLog when the run ends (not copyable: a copy's end
// would end it early).
struct ServiceLogClose {
    std::shared_ptr<ServiceLog> log;
    ServiceLogClose() = default;
    explicit ServiceLogClose(std::shared_ptr<ServiceLog> l) : log(std::move(l)) {}
    ServiceLogClose(const ServiceLogClose&) = delete;
    ServiceLogClose& operator=(const ServiceLogClose&) = delete;
    ~ServiceLogClose() {
        if (!log) return;
        std::lock_guard<std::mutex> lock(log->mutex);
        log->diag = nullptr;
    }
};

// Starts a GPU service of the run (the hardware JPEG decoder) on every GPU
// the run will use, each on a thread, while their sessions open (for auto,
// the GPU it would pick; when none is usable, the run is on the CPU and
// nothing starts). Finding those GPUs opens the first (a few tenths of a
// second), so that too happens on the service's thread, not on the one that
// starts the workers. -v says what started and how long it took, or why it
// did not. The threads are not waited for: starting nvJPEG's hardware
// decoder took 1.0-1.9 s of a busy two-GPU machine, longer than a batch of
// 520 photos there; a run that ends first leaves it to the process's exit
// (main ends with _Exit once CUDA is initialised).
ServiceLogClose start_gpu_service(const Diagnostics& diag, const DeviceRequest& device,
                                  std::function<std::string(int)> start, std::string failed) {
    auto log = std::make_shared<ServiceLog>();
    log->diag = &diag;
    const auto start_on = [log, start, failed](int gpu_index, bool several) {
        try {
            const auto t0 = std::chrono::steady_clock::now();
            const std::string what = start(gpu_index);
            log->info(what + (several ? " of GPU " + std::to_string(gpu_index) : std::string()) + ", started in " +
                      ms_text(ms_since(t0)));
        } catch (const Error& e) {
            log->info(failed + e.what());
        }
    };
    std::thread([device, start_on] {
        const std::vector<int> gpus = planned_gpus(device);
        for (std::size_t i = 1; i < gpus.size(); ++i) std::thread(start_on, gpus[i], true).detach();
        if (!gpus.empty()) start_on(gpus[0], gpus.size() > 1);
    }).detach();
    return ServiceLogClose(log);
}

}  // namespace

int run_image_files(Invocation& inv, const ImageJob* job, int single_max, double peak_images) {
    // Everything the user typed is checked before any file is touched.
    const SaveOptions save = read_save_options(inv.values);
    const ReportFormat report = read_report_format(inv.values);
    const BatchSettings settings = read_batch_settings(inv);
    const bool skip_existing = inv.values.flag("skip-existing");
    const bool strip = inv.values.flag("strip");
    const bool auto_orient = inv.values.flag("auto-orient");
    // JPEG results computed on the GPU are encoded there unless --jpeg-encoder
    // cpu: the GPU encoder writes libjpeg-turbo's bytes, so only the time
    // differs. Asked for by name, it must be possible.
    const std::string jpeg_encoder = inv.values.text("jpeg-encoder");
    const bool gpu_jpeg = jpeg_encoder == "gpu";
    if (gpu_jpeg && !job)
        throw usage_error("--jpeg-encoder", "gpu encodes results computed on the GPU, and " + inv.command +
                                                " computes nothing");
    if (gpu_jpeg && inv.global.device.kind == DeviceRequest::Kind::Cpu)
        throw usage_error("--jpeg-encoder", "gpu needs the GPU: it cannot be combined with --device cpu");
    const GpuJpegEncode gpu_encode{save.quality, save.chroma};
    const bool encode_on_gpu = job && jpeg_encoder != "cpu" && gpu::jpeg_gpu_encoder_built();
    const std::string jpeg_decoder = inv.values.text("jpeg-decoder");
    if (jpeg_decoder == "hardware" && !job)
        throw usage_error("--jpeg-decoder", "hardware decodes for computing on the GPU, and " + inv.command +
                                                " computes nothing");
    if (jpeg_decoder == "hardware" && inv.global.device.kind == DeviceRequest::Kind::Cpu)
        throw usage_error("--jpeg-decoder", "hardware needs the GPU: it cannot be combined with --device cpu");
    // A template's extension must name a format, and agree with --format.
    const OutputPlan plan = plan_outputs(inv, single_max, [&save](const std::string& out, const std::string&) {
        output_format(out, save.format);
        return out;
    });
    if (report == ReportFormat::Json && plan.items.size() == 1 && plan.items[0].output == "-")
        throw usage_error("--json", "cannot be combined with writing the image to standard output");
    const LoadOptions load = load_options(inv.global, peak_images);

    const Diagnostics& diag = inv.diag;
    DeviceDecision device{parse_device_request("cpu")};  // convert computes nothing
    std::optional<ImageHeader> first;
    if (job && inv.global.device.kind != DeviceRequest::Kind::Cpu) {
        first = peek_header(plan.items[0].path, load);
        RunShape shape{inv.command, plan.items.size(), first};
        if (first && encode_on_gpu && output_format(plan.items[0].output, save.format) == ImageFormat::Jpeg)
            shape.encode_seconds_saved_per_pixel = cpu_jpeg_encode_seconds_per_pixel(
                job->output_channels(first->channels), resolved_chroma(save.chroma, save.quality));
        device = choose_device(inv.global.device, shape,
                               [job](ConstViewU8 image) {
                                   RunNotes ignored;
                                   job->run_cpu(image, ignored);
                               },
                               diag);
    }
    const bool may_use_gpu = device.request.kind != DeviceRequest::Kind::Cpu;
    // On the GPU a file's worker spends much of its time waiting (for the
    // hardware decoder, the GPU, the write's fsync): twice as many workers as
    // CPU threads keep the cores busy meanwhile. Sessions stay at
    // kMaxGpuSessions, so the extra workers decode or write while others hold them.
    BatchSettings run = settings;
    if (may_use_gpu && !inv.values.given("jobs")) run.jobs = std::min(2 * settings.jobs, 1024);
    const auto select = backend_selector(device.request, diag);
    // Each GPU's first session is readied for the first file's size.
    const auto warm_up = [job, first](const BackendChoice& choice) {
        if (first) job->warm_up(choice, first->width, first->height, first->channels);
    };
    PoolOptions pool = pool_options(run.jobs, plan.items.size(), device.cpu_while_gpu_starts, diag);
    pool.warm_up = warm_up;
    BackendPool backend(
        [select, warm_up] {
            BackendChoice choice = select();
            warm_up(choice);
            return choice;
        },
        pool);
    MemoryBudget memory(default_memory_budget());

    // JPEG batches on the GPU decode split between the cores and the GPU
    // (--jpeg-decoder auto), or on the hardware decoder once it has started
    // (most of a second, on each GPU the run will use, while the sessions
    // open), split until then.
    const bool gpu_jpeg_batch = job && may_use_gpu && plan.items.size() > 1 && first &&
                                first->format == ImageFormat::Jpeg && jpeg_codec_available();
    const bool hardware = jpeg_decoder == "hardware" && plan.items.size() >= kMinFilesForGpuDecode &&
                          gpu::jpeg_hardware_built();
    const GpuJpegDecode gpu_decode = !gpu_jpeg_batch || jpeg_decoder == "cpu" ? GpuJpegDecode::None
                                     : hardware                               ? GpuJpegDecode::Hardware
                                                                              : GpuJpegDecode::Split;
    if (gpu_decode == GpuJpegDecode::Split)
        diag.info("JPEG: files computed on the GPU decode split: Huffman decoding by " + jpeg_codec_name() +
                  " on the cores, the inverse DCT, upsampling and colour conversion on the GPU (libjpeg-turbo's pixels)");
    const ServiceLogClose hardware_start =
        gpu_decode == GpuJpegDecode::Hardware
            ? start_gpu_service(diag, device.request,
                                [](int gpu_index) {
                                    gpu::start_jpeg_hardware(gpu_index);
                                    return "JPEG: decoding on the " + gpu::jpeg_hardware_name() +
                                           " (libjpeg-turbo's pixels)";
                                },
                                "JPEG: the hardware decoder is not used: ")
            : ServiceLogClose{};

    std::once_flag cpu_encode_noted, gpu_encode_noted;
    const auto process = [&](const BatchItem& item, WorkerContext& ctx) {
        ItemResult r;
        if (skip_existing && item.output != "-" && fs::exists(fs::path(item.output))) {
            diag.info(inv.command + ": " + item.output + " exists: skipped");
            r.text = output_skipped(inv, item, report, kJsonSchema);
            r.skipped = true;
            return r;
        }
        const auto t_read = std::chrono::steady_clock::now();
        std::vector<std::uint8_t> bytes = read_image_file(item.path, load);
        const ImageHeader header = read_image_header(item.name, bytes, load);
        const int out_channels = job ? job->output_channels(header.channels) : header.channels;
        // What the header check measured against --max-memory: the file, the
        // decoder's memory and the command's buffers at their peak.
        const auto reservation = ctx.memory.reserve(estimate_memory(header, load));
        const double read_ms = ms_since(t_read);
        // The input's EXIF and ICC profile go to the output unless --strip;
        // --auto-orient turns the pixels upright and says so in the EXIF.
        ImageMetadata metadata = strip ? ImageMetadata{} : header.metadata;
        const int orientation = auto_orient ? exif_orientation(header.metadata.exif) : 0;
        const bool jpeg_out = encode_on_gpu && output_format(item.output, save.format) == ImageFormat::Jpeg;
        ComputedFile computed = decode_and_compute(job, item.name, bytes, header, load, ctx, gpu_decode, orientation,
                                                   jpeg_out ? &gpu_encode : nullptr);
        if (gpu_jpeg && computed.jpeg.empty())
            std::call_once(cpu_encode_noted, [&] {
                diag.notice("--jpeg-encoder gpu: this run is on the CPU, so its JPEGs are encoded there");
            });
        if (orientation >= 2) set_exif_orientation(metadata.exif, 1);
        std::vector<std::uint8_t>().swap(bytes);
        report_warnings(diag, item.name, computed.warnings);
        const double decode_ms = read_ms + computed.decode_ms;
        const double ms = computed.compute_ms;
        const RunNotes& notes = computed.notes;
        const BackendChoice& used = computed.used;
        const ConstViewU8 out_view = computed.pixels.view();
        if (plan.many) make_output_folder(item.output);
        std::vector<std::string> warnings;
        const auto t_encode = std::chrono::steady_clock::now();
        const bool encoded_on_gpu = !computed.jpeg.empty();
        if (encoded_on_gpu) {
            std::call_once(gpu_encode_noted,
                           [&] { diag.info("JPEG: encoding on the GPU with " + gpu::jpeg_gpu_encoder_name()); });
            // Encoded on the GPU: the metadata goes in as libjpeg-turbo's path
            // writes it, and a dropped alpha is said as save_image says it.
            if (has_alpha(out_channels)) warnings.push_back(kJpegAlphaDropped);
            const std::vector<std::uint8_t> file = insert_jpeg_metadata(computed.jpeg, metadata);
            write_file_atomically(item.output, file.data(), file.size());
        } else {
            SaveOptions file_save = save;
            file_save.metadata = metadata.empty() ? nullptr : &metadata;
            save_image(item.output, out_view, file_save, warnings);
        }
        const double encode_ms = computed.encode_ms + ms_since(t_encode);
        report_warnings(diag, output_name(item.output), warnings);
        for (const std::string& w : notes.warnings) diag.warning(w);
        for (const std::string& line : notes.info) diag.info(line);

        const std::string shape = std::to_string(header.width) + "x" + std::to_string(header.height) + " " +
                                  channel_layout_name(header.channels);
        const std::string decoder = computed.decoded_on_gpu ? "gpu" : "cpu";
        const std::string encoder = encoded_on_gpu ? "gpu" : "cpu";
        if (job)
            diag.info(inv.command + ": " + item.name + " (" + shape + ") -> " + output_name(item.output) + ": " +
                      job->describe() + "; backend " + used.describe() + "; kernel " + notes.kernel + "; stages: read+decode (" + decoder + ") " +
                      ms_text(decode_ms) + ", compute " + ms_text(ms) + ", encode+write (" + encoder + ") " + ms_text(encode_ms) +
                      "; metadata written: " + (strip ? std::string("none (--strip)") : describe_metadata(metadata)));
        else {
            const ImageFormat f = output_format(item.output, save.format);
            diag.info(inv.command + ": " + item.name + " (" + format_name(header.format) + " " + shape + ") -> " +
                      output_name(item.output) + " (" + format_name(f) +
                      (f == ImageFormat::Jpeg ? ", quality " + std::to_string(save.quality) : std::string()) + ")");
        }
        if (report == ReportFormat::Json) {
            JsonObject o = output_record(inv, item, kJsonSchema);
            o.add("ok", true)
                .add("width", header.width)
                .add("height", header.height)
                .add("channels", header.channels)
                .add("output_channels", job ? job->output_channels(header.channels) : out_view.channels);
            if (job) {
                add_run_members(o, job->details(), notes, used);
                o.add("elapsed_ms", ms);
            }
            o.add("decoded_on", decoder).add("decode_ms", decode_ms).add("encoded_on", encoder).add("encode_ms", encode_ms);
            r.text = o.str() + "\n";
        }
        return r;
    };
    const auto failure = [&](const BatchItem& item, const Error& e) {
        return output_failure(inv, item, e, report, kJsonSchema);
    };
    const BatchSummary summary = run_batch(plan.items, run, backend, memory, diag, inv.out, process, failure);
    if (const int early = backend.leased_before_selection())
        diag.info("device auto: " + std::to_string(early) + " of " + std::to_string(plan.items.size()) +
                  " files computed on the CPU while the GPU started");
    return finish_batch(inv, summary, "written", plan.many);
}

}  // namespace imgpar::cli
