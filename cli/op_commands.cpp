// Commands made from the declared operations (src/op/catalog.cpp): each
// parameter becomes an option with its help, range and default; the values
// go to the operation's maker, which validates them before any file is
// touched; then one driver per kind does the rest (load, choose the backend,
// run, save or report, time, say what ran).
#include "cli/op_commands.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <memory>

#include "cli/array_files.hpp"
#include "cli/batch_runner.hpp"
#include "cli/batch_settings.hpp"
#include "cli/common_options.hpp"
#include "cli/decoded_file.hpp"
#include "cli/device_choice.hpp"
#include "cli/timing.hpp"
#include "cli/image_files.hpp"
#include "cli/input_list.hpp"
#include "src/backend_pool.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"

namespace imgpar::cli {
namespace {

// The operation's values: the command's, with an extra positional argument
// of the IN OUT form (blur's IN OUT RxS) applied as the parameters it stands
// for. With --out-dir or --output every argument is an input.
ParamValues read_params(const Operation& op, const Invocation& inv) {
    ParamValues values = inv.values;
    const bool single_form = !inv.values.has("out-dir") || (!inv.values.given("out-dir") && !inv.values.given("output"));
    if (!single_form || inv.positionals.size() <= 2 || op.kind != OperationKind::ImageToImage || op.extra.name.empty())
        return values;
    const std::string& extra = inv.positionals[2];
    try {
        op.extra.apply(extra, values);
    } catch (const Error& e) {
        std::error_code ec;
        if (e.kind() == ErrorKind::Usage && std::filesystem::exists(extra, ec))
            throw usage_error(extra, "is a file, not " + op.extra.name + ": several inputs need --out-dir DIR or --output TEMPLATE");
        throw;
    }
    return values;
}

// IN OUT, or many files with --out-dir / --output.
int run_image_operation(const Operation& op, Invocation& inv) {
    const std::unique_ptr<ImageJob> job = op.make_image_job(read_params(op, inv));
    return run_image_files(inv, job.get(), op.extra.name.empty() ? 2 : 3, job->peak_images().value_or(op.peak_images));
}

// IN OUT.npy, or many files with --out-dir / --output.
int run_array_operation(const Operation& op, Invocation& inv) {
    const std::unique_ptr<ArrayJob> job = op.make_array_job(read_params(op, inv));
    return run_array_files(inv, *job);
}

// FILE... -> a report per file on stdout, in input order.
int run_report_operation(const Operation& op, Invocation& inv) {
    const std::unique_ptr<ReportJob> job = op.make_report_job(read_params(op, inv));
    const ReportFormat format = read_report_format(inv.values);
    const BatchSettings settings = read_batch_settings(inv);
    const std::vector<std::string> inputs = gather_inputs(inv.positionals, inv.values);
    job->check_inputs(inputs);
    const std::vector<BatchItem> items = batch_items(inputs);
    const LoadOptions load = load_options(inv.global, op.peak_images);
    job->read_option_files(load);

    const Diagnostics& diag = inv.diag;
    DeviceDecision device{inv.global.device};
    if (device.request.kind == DeviceRequest::Kind::Auto)
        device = choose_device(device.request, RunShape{inv.command, items.size(), peek_header(items[0].path, load)},
                               [&](ConstViewU8 image) { job->probe_cpu(image); },
                               diag);
    BackendPool backend(backend_selector(device.request, diag),
                        pool_options(settings.jobs, items.size(), device.cpu_while_gpu_starts, diag));
    MemoryBudget memory(default_memory_budget());
    if (format == ReportFormat::Csv) inv.out << job->csv_header();
    const auto process = [&](const BatchItem& item, WorkerContext& ctx) {
        const DecodedFile file = read_and_decode(item, load, ctx, diag);
        const LoadedImage& img = file.image;
        const BackendPool::Lease lease = ctx.backend.lease();
        const BackendChoice& backend_used = lease.choice();
        const auto t0 = std::chrono::steady_clock::now();
        RunNotes notes;
        ItemResult r;
        r.text = job->run(backend_used, ReportSource{item.name, backend_name(backend_used.backend)}, img.image.view(),
                          format, notes);
        const double ms = ms_since(t0);
        for (const std::string& w : notes.warnings) diag.warning(w);
        for (const std::string& line : notes.info) diag.info(line);
        diag.info(inv.command + ": " + item.name + ": backend " + backend_used.describe() + "; kernel " + notes.kernel +
                  "; " + ms_text(ms));
        return r;
    };
    // Under --json a file that fails has its record too, in its place.
    const auto failure = [&](const BatchItem& item, const Error& e) {
        if (format != ReportFormat::Json) return std::string();
        JsonObject o;
        o.add("schema", job->json_schema()).add("file", item.name).add("ok", false).add("error", e.what());
        return o.str() + "\n";
    };
    const BatchSummary summary = run_batch(items, settings, backend, memory, diag, inv.out, process, failure);
    return finish_batch(inv, summary, "done", summary.failed > 0 || settings.progress);
}

}  // namespace

Command operation_command(const Operation& op) {
    Command c;
    c.name = op.name;
    c.summary = op.summary;
    c.positional_help = op.positional_help();
    c.description = op.description;
    const bool image = op.kind == OperationKind::ImageToImage;
    const bool array = op.kind == OperationKind::ImageToArray;
    c.min_positionals = 0;  // the drivers check: --files-from can name every input
    c.max_positionals = -1;
    const std::string json = "Print a JSON object per file: the operation and its parameters, backend, device, kernel, "
                             "times; failures too";
    c.options = {{op.group, op.params},
                 image ? image_output_options(json)
                 : array ? OptionGroup{"Output", {ParamSpec::flag("json", json)}}
                         : report_options(true),
                 many_files_options(image || array)};
    c.run = [&op, image, array](Invocation& inv) {
        return image ? run_image_operation(op, inv) : array ? run_array_operation(op, inv) : run_report_operation(op, inv);
    };
    return c;
}

}  // namespace imgpar::cli
