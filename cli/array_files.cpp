#include "cli/array_files.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <strings.h>
#include <system_error>

#include "cli/batch_runner.hpp"
#include "cli/batch_settings.hpp"
#include "cli/common_options.hpp"
#include "cli/decoded_file.hpp"
#include "cli/device_choice.hpp"
#include "cli/input_list.hpp"
#include "cli/output_plan.hpp"
#include "cli/timing.hpp"
#include "src/backend_pool.hpp"
#include "src/error.hpp"
#include "src/io/atomic_write.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/load.hpp"
#include "src/io/output_target.hpp"

namespace imgpar::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kExtension = ".npy";

bool has_npy_extension(const std::string& path) {
    const std::size_t n = std::char_traits<char>::length(kExtension);
    return path.size() > n && strcasecmp(path.c_str() + path.size() - n, kExtension) == 0 && path[path.size() - n - 1] != '/';
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
    return (has_ext ? path.substr(0, dot) : path) + kExtension;
}

constexpr const char* kJsonSchema = "imgpar.array_op/1";

}  // namespace

int run_array_files(Invocation& inv, const ArrayJob& job) {
    const ReportFormat report = read_report_format(inv.values);
    const BatchSettings settings = read_batch_settings(inv);
    const bool skip_existing = inv.values.flag("skip-existing");
    const OutputPlan plan = plan_outputs(inv, 2, [](const std::string& out, const std::string& option) {
        const std::string named = option == "--out-dir" ? with_npy_extension(out) : out;
        check_array_output(named, option, option != "OUT");
        return named;
    });
    if (report == ReportFormat::Json && plan.items.size() == 1 && plan.items[0].output == "-")
        throw usage_error("--json", "cannot be combined with writing the array to standard output");
    const LoadOptions load = load_options(inv.global, job.peak_images());

    const Diagnostics& diag = inv.diag;
    DeviceDecision device{inv.global.device};
    if (device.request.kind == DeviceRequest::Kind::Auto)
        device = choose_device(device.request, RunShape{inv.command, plan.items.size(), peek_header(plan.items[0].path, load)},
                               [&job](ConstViewU8 image) {
                                   RunNotes ignored;
                                   (void)job.run(BackendChoice{}, image, "probe", ignored);
                               },
                               diag);
    BackendPool backend(backend_selector(device.request, diag),
                        pool_options(settings.jobs, plan.items.size(), device.cpu_while_gpu_starts, diag));
    MemoryBudget memory(default_memory_budget());

    const auto process = [&](const BatchItem& item, WorkerContext& ctx) {
        ItemResult r;
        if (skip_existing && item.output != "-" && fs::exists(fs::path(item.output))) {
            diag.info(inv.command + ": " + item.output + " exists: skipped");
            r.text = output_skipped(inv, item, report, kJsonSchema);
            r.skipped = true;
            return r;
        }
        const auto t_read = std::chrono::steady_clock::now();
        const DecodedFile file = read_and_decode(item, load, ctx, diag);
        const ImageHeader& header = file.header;
        const LoadedImage& img = file.image;
        const double decode_ms = ms_since(t_read);

        RunNotes notes;
        BackendChoice used;
        const auto t0 = std::chrono::steady_clock::now();
        std::optional<NpyFile> array;
        {
            const BackendPool::Lease lease = ctx.backend.lease();
            array.emplace(job.run(lease.choice(), img.image.view(), item.name, notes));
            used = lease.choice();
            used.session.reset();
        }
        const double ms = ms_since(t0);
        const auto t_write = std::chrono::steady_clock::now();
        if (plan.many) make_output_folder(item.output);
        write_file_atomically(item.output, array->bytes(), array->size());
        const double write_ms = ms_since(t_write);
        for (const std::string& w : notes.warnings) diag.warning(w);
        for (const std::string& line : notes.info) diag.info(line);
        diag.info(inv.command + ": " + item.name + " (" + std::to_string(header.width) + "x" + std::to_string(header.height) +
                  " " + channel_layout_name(header.channels) + ") -> " + (item.output == "-" ? "<stdout>" : item.output) +
                  ": " + job.describe() + "; backend " + used.describe() + "; kernel " + notes.kernel +
                  "; stages: read+decode " + ms_text(decode_ms) + ", compute " + ms_text(ms) + ", write " + ms_text(write_ms));
        if (report == ReportFormat::Json) {
            JsonObject o = output_record(inv, item, kJsonSchema);
            o.add("ok", true).add("width", header.width).add("height", header.height).add("channels", header.channels);
            add_run_members(o, job.details(), notes, used);
            o.add("elapsed_ms", ms).add("decode_ms", decode_ms).add("write_ms", write_ms);
            r.text = o.str() + "\n";
        }
        return r;
    };
    const auto failure = [&](const BatchItem& item, const Error& e) {
        return output_failure(inv, item, e, report, kJsonSchema);
    };
    const BatchSummary summary = run_batch(plan.items, settings, backend, memory, diag, inv.out, process, failure);
    return finish_batch(inv, summary, "written", plan.many);
}

}  // namespace imgpar::cli
