// Commands made from the declared operations (src/op/catalog.cpp): each
// parameter becomes an option with its help, range and default; the values
// go to the operation's maker, which validates them before any file is
// touched; then one driver per kind does the rest (load, choose the backend,
// run, save or report, time, say what ran).
#include "cli/op_commands.hpp"

#include <chrono>
#include <cstdio>
#include <memory>

#include "cli/common_options.hpp"
#include "cli/inputs.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"

namespace imgpar::cli {
namespace {

// The operation's values: the command's, with an extra positional argument
// (blur's RxS) applied as the parameters it stands for.
ParamValues read_params(const Operation& op, const Invocation& inv) {
    ParamValues values = inv.values;
    if (inv.positionals.size() > 2 && op.kind == OperationKind::ImageToImage) op.extra.apply(inv.positionals[2], values);
    return values;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string ms_text(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f ms", ms);
    return buf;
}

void report_notes(const Diagnostics& diag, const RunNotes& notes) {
    for (const std::string& w : notes.warnings) diag.warning(w);
    for (const std::string& line : notes.info) diag.info(line);
}

// IN -> OUT.
int run_image_operation(const Operation& op, Invocation& inv) {
    const std::string& in = inv.positionals[0];
    const std::string& out = inv.positionals[1];
    // Everything the user typed is checked before any file is touched.
    const std::unique_ptr<ImageJob> job = op.make_image_job(read_params(op, inv));
    const SaveOptions save = read_save_options(inv.values);
    const ReportFormat report = read_report_format(inv.values);
    if (report == ReportFormat::Json && out == "-")
        throw usage_error("--json", "cannot be combined with writing the image to standard output");
    output_format(out, save.format);

    const LoadedImage input = load_image(in, load_options(inv.global));
    report_warnings(inv.diag, display_name(in), input.warnings);
    const BackendChoice backend = choose_backend(inv);

    const auto t0 = std::chrono::steady_clock::now();
    RunNotes notes;
    const ImageU8 result = job->run(backend, input.image.view(), notes);
    const double ms = ms_since(t0);

    std::vector<std::string> warnings;
    save_image(out, result.view(), save, warnings);
    const std::string out_name = out == "-" ? "<stdout>" : out;
    report_warnings(inv.diag, out_name, warnings);
    report_notes(inv.diag, notes);
    inv.diag.info(inv.command + ": " + display_name(in) + " (" + std::to_string(input.image.width()) + "x" +
                  std::to_string(input.image.height()) + " " + channel_layout_name(input.image.channels()) + ") -> " +
                  out_name + ": " + job->describe() + "; backend " + backend.describe() + "; kernel " + notes.kernel +
                  "; " + ms_text(ms));
    if (report == ReportFormat::Json) {
        JsonObject operation = job->details();
        operation.merge(notes.details);
        JsonObject o;
        o.add("schema", "imgpar.image_op/1")
            .add("command", inv.command)
            .add("input", display_name(in))
            .add("output", out_name)
            .add("width", input.image.width())
            .add("height", input.image.height())
            .add("channels", input.image.channels())
            .add("output_channels", result.channels())
            .add("operation", operation)
            .add("backend", backend_name(backend.backend));
        if (backend.backend == Backend::Gpu)
            o.add("device", backend.gpu_name);
        else
            o.add_null("device");
        o.add("kernel", notes.kernel);
        o.add("elapsed_ms", ms);
        inv.out << o.str() << "\n";
    }
    return kExitOk;
}

// FILE... -> a report per file on stdout.
int run_report_operation(const Operation& op, Invocation& inv) {
    const std::unique_ptr<ReportJob> job = op.make_report_job(read_params(op, inv));
    const ReportFormat format = read_report_format(inv.values);
    job->check_inputs(inv.positionals);
    check_stdin_used_once(inv.positionals);

    const BackendChoice backend = choose_backend(inv);
    if (format == ReportFormat::Csv) inv.out << job->csv_header();
    const bool ok = for_each_input(inv, [&](const std::string& path, const std::string& name) {
        const LoadedImage img = load_image(path, load_options(inv.global));
        report_warnings(inv.diag, name, img.warnings);
        const auto t0 = std::chrono::steady_clock::now();
        RunNotes notes;
        const std::string text =
            job->run(backend, ReportSource{name, backend_name(backend.backend)}, img.image.view(), format, notes);
        const double ms = ms_since(t0);
        inv.out << text;
        report_notes(inv.diag, notes);
        inv.diag.info(inv.command + ": " + name + ": backend " + backend.describe() + "; kernel " + notes.kernel + "; " +
                      ms_text(ms));
    });
    return ok ? kExitOk : kExitFileFailed;
}

}  // namespace

Command operation_command(const Operation& op) {
    Command c;
    c.name = op.name;
    c.summary = op.summary;
    c.positional_help = op.positional_help();
    c.description = op.description;
    const bool image = op.kind == OperationKind::ImageToImage;
    c.min_positionals = image ? 2 : 1;
    c.max_positionals = image ? (op.extra.name.empty() ? 2 : 3) : -1;
    c.options = {{op.group, op.params},
                 image ? image_output_options("Print a JSON object describing the run: operation, kernel, border, "
                                              "backend, device, time")
                       : report_options(true)};
    c.run = [&op, image](Invocation& inv) { return image ? run_image_operation(op, inv) : run_report_operation(op, inv); };
    return c;
}

}  // namespace imgpar::cli
