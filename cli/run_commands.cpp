#include "cli/run_commands.hpp"

#include <unistd.h>
#include <strings.h>

#include <filesystem>
#include <system_error>

#include "cli/batch_settings.hpp"
#include "cli/codec_option_warnings.hpp"
#include "cli/common_options.hpp"
#include "cli/output_plan.hpp"
#include "src/error.hpp"
#include "src/io/output_target.hpp"
#include "src/run/image_sink.hpp"
#include "src/run/report_sink.hpp"

namespace imgpar::cli {
namespace {

// How the CPU was asked for, for messages: the option, or the environment.
std::string cpu_request(const Invocation& inv) {
    return inv.values.given("device") ? "--device cpu" : "IMGPAR_DEVICE=cpu";
}

JpegEncoder read_jpeg_encoder(const Invocation& inv, bool computes) {
    // JPEG results computed on the GPU are encoded there unless
    // --jpeg-encoder cpu: the GPU encoder writes libjpeg-turbo's bytes, so
    // only the time differs. Asked for by name, it must be possible.
    const std::string e = inv.values.text("jpeg-encoder");
    if (e == "gpu" && !computes)
        throw usage_error("--jpeg-encoder", "gpu encodes results computed on the GPU, and " + inv.command +
                                                " computes nothing");
    if (e == "gpu" && inv.global.device.kind == DeviceRequest::Kind::Cpu)
        throw usage_error("--jpeg-encoder", "gpu needs the GPU: it cannot be combined with " + cpu_request(inv));
    return e == "gpu" ? JpegEncoder::Gpu : e == "cpu" ? JpegEncoder::Cpu : JpegEncoder::Auto;
}

JpegDecoder read_jpeg_decoder(const Invocation& inv, bool computes) {
    const std::string d = inv.values.text("jpeg-decoder");
    if ((d == "hardware" || d == "gpu") && !computes)
        throw usage_error("--jpeg-decoder", d + " decodes for computing on the GPU, and " + inv.command +
                                                " computes nothing");
    if ((d == "hardware" || d == "gpu") && inv.global.device.kind == DeviceRequest::Kind::Cpu)
        throw usage_error("--jpeg-decoder", d + " needs the GPU: it cannot be combined with " + cpu_request(inv));
    return d == "hardware" ? JpegDecoder::Hardware
           : d == "gpu"    ? JpegDecoder::Gpu
           : d == "cpu"    ? JpegDecoder::Cpu
                           : JpegDecoder::Auto;
}

namespace fs = std::filesystem;

constexpr const char* kNpyExtension = ".npy";

bool has_npy_extension(const std::string& path) {
    const std::size_t n = std::char_traits<char>::length(kNpyExtension);
    return path.size() > n && strcasecmp(path.c_str() + path.size() - n, kNpyExtension) == 0 &&
           path[path.size() - n - 1] != '/';
}

// Usage errors before anything is computed: a name that is not .npy, or a
// place that cannot be written (a folder that is missing in the IN OUT form,
// one that is not writable, a directory where the file would go).
void check_array_output(const std::string& out, const std::string& option, bool folders_made_later) {
    if (out == "-") return;
    if (!has_npy_extension(out))
        throw usage_error(option, "'" + out + "' is not a .npy name: an array is written as NumPy's .npy file "
                                             "(allowed: a name ending in .npy, or - for standard output)");
    std::error_code ec;
    if (folders_made_later && !fs::exists(fs::path(parent_dir(out)), ec)) return;
    OutputTarget target;
    try {
        target = resolve_output_target(out);
    } catch (const Error& e) {
        throw usage_error(option, "'" + out + "' cannot be written: " + e.reason());
    }
    const bool replaced = target.kind == OutputTarget::Kind::NewFile || target.kind == OutputTarget::Kind::RegularFile;
    const std::string where = replaced ? parent_dir(target.path) : target.path;
    if (target.kind != OutputTarget::Kind::OpenDescriptor && ::access(where.c_str(), W_OK) != 0)
        throw usage_error(option, "'" + out + "' cannot be written: " + (replaced ? "its folder " + where : where) +
                                      " is not writable");
}

std::string with_npy_extension(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    const std::size_t dot = path.find_last_of('.');
    const bool has_ext = dot != std::string::npos && dot > (slash == std::string::npos ? 0 : slash + 1);
    return (has_ext ? path.substr(0, dot) : path) + kNpyExtension;
}

}  // namespace

int run_image_command(Invocation& inv, const Chain& chain, int single_max, const std::string& chain_text,
                      const Operation::Defaults& defaults) {
    // Everything the user typed is checked before any file is touched.
    ImageSinkSettings sink;
    sink.command = inv.command;
    sink.save = read_save_options(inv.values);
    sink.report = read_report_format(inv.values);
    sink.skip_existing = inv.values.flag("skip-existing");
    sink.strip = inv.values.flag("strip");
    sink.auto_orient = inv.values.flag("auto-orient") || defaults.auto_orient;
    sink.icc_only = defaults.icc_only && !(inv.values.has("keep-metadata") && inv.values.flag("keep-metadata"));
    sink.jpeg_encoder = read_jpeg_encoder(inv, !chain.empty());
    sink.chain_text = chain_text;
    RunSettings run = run_settings(inv);
    run.jpeg_decoder = read_jpeg_decoder(inv, !chain.empty());
    run.auto_orient = sink.auto_orient;
    // A template's extension must name a format, and agree with --format.
    std::vector<PlannedOutput> formats;
    const OutputPlan plan = plan_outputs(inv, single_max, [&sink, &formats](const std::string& out, const std::string&) {
        formats.push_back({out, output_format(out, sink.save.format)});
        return out;
    });
    if (inv.values.given("compression")) check_compression_fits(sink.save, inv.values.text("compression"), formats);
    for (const std::string& unused : unused_codec_options(inv.values, formats))
        inv.diag.warning(inv.command + ": " + unused);
    if (sink.report == ReportFormat::Json && plan.items.size() == 1 && plan.items[0].output == "-")
        throw usage_error("--json", "cannot be combined with writing the image to standard output");
    sink.make_folders = plan.many;
    run.summary_line = plan.many;
    const ImageFileSink image_sink(sink, inv.diag);
    return run_files(plan.items, chain, image_sink, run, inv.diag, inv.out).exit_code();
}

int run_report_command(Invocation& inv, const Chain& chain, ReportJob& job, double peak_images,
                       const std::vector<std::string>& inputs) {
    const ReportFormat format = read_report_format(inv.values);
    RunSettings run = run_settings(inv);
    job.check_inputs(inputs);
    const std::vector<BatchItem> items = batch_items(inputs);
    job.read_option_files(load_options(inv.global, peak_images));
    run.summary_line = run.batch.progress;
    run.summary_when_failed = true;
    const ReportSink sink(job, inv.command, format, peak_images, inv.diag);
    if (format == ReportFormat::Csv) inv.out << job.csv_header();
    return run_files(items, chain, sink, run, inv.diag, inv.out).exit_code();
}

int run_array_command(Invocation& inv, const Chain& chain, const ArrayJob& job, int single_max) {
    const ReportFormat report = read_report_format(inv.values);
    RunSettings run = run_settings(inv);
    const OutputPlan plan = plan_outputs(inv, single_max, [](const std::string& out, const std::string& option) {
        const std::string named = option == "--out-dir" ? with_npy_extension(out) : out;
        check_array_output(named, option, option != "OUT");
        return named;
    });
    if (report == ReportFormat::Json && plan.items.size() == 1 && plan.items[0].output == "-")
        throw usage_error("--json", "cannot be combined with writing the array to standard output");
    run.summary_line = plan.many;
    const ArraySink sink(job, inv.command, report == ReportFormat::Json, inv.values.flag("skip-existing"), plan.many,
                         inv.diag);
    return run_files(plan.items, chain, sink, run, inv.diag, inv.out).exit_code();
}

}  // namespace imgpar::cli
