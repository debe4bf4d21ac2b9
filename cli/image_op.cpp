#include "cli/image_op.hpp"

#include <chrono>
#include <cstdio>

#include "cli/common_options.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"

namespace imgpar::cli {

void add_image_op_options(cxxopts::Options& options) {
    add_image_output_options(options);
    options.add_options("Output")(
        "json", "Print a JSON object describing the run: operation, kernel, border, backend, device, time");
}

int run_image_op(Invocation& inv, ImageOp op) {
    const std::string& in = inv.positionals[0];
    const std::string& out = inv.positionals[1];
    // Everything the user typed is checked before any file is touched.
    SaveOptions save = read_save_options(inv.args);
    ReportFormat report = read_report_format(inv.args);
    if (report == ReportFormat::Json && out == "-")
        throw usage_error("--json", "cannot be combined with writing the image to standard output");
    output_format(out, save.format);

    LoadedImage input = load_image(in, load_options(inv.global));
    report_warnings(inv.diag, display_name(in), input.warnings);
    BackendChoice backend = choose_backend(inv);

    auto t0 = std::chrono::steady_clock::now();
    std::string kernel;
    ImageU8 result = op.run(input.image.view(), backend, op.details, kernel);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

    std::vector<std::string> warnings;
    save_image(out, result.view(), save, warnings);
    std::string out_name = out == "-" ? "<stdout>" : out;
    report_warnings(inv.diag, out_name, warnings);

    char timing[32];
    std::snprintf(timing, sizeof timing, "%.2f ms", ms);
    inv.diag.info(inv.command + ": " + display_name(in) + " (" + std::to_string(input.image.width()) + "x" +
                  std::to_string(input.image.height()) + " " + channel_layout_name(input.image.channels()) + ") -> " +
                  out_name + ": " + op.description + "; backend " + backend.describe() + "; kernel " + kernel + "; " + timing);
    if (report == ReportFormat::Json) {
        JsonObject o;
        o.add("schema", "imgpar.image_op/1")
            .add("command", inv.command)
            .add("input", display_name(in))
            .add("output", out_name)
            .add("width", input.image.width())
            .add("height", input.image.height())
            .add("channels", input.image.channels())
            .add("output_channels", result.channels())
            .add("operation", op.details)
            .add("backend", backend_name(backend.backend));
        if (backend.backend == Backend::Gpu)
            o.add("device", backend.gpu_name);
        else
            o.add_null("device");
        o.add("kernel", kernel);
        o.add("elapsed_ms", ms);
        inv.out << o.str() << "\n";
    }
    return kExitOk;
}

}  // namespace imgpar::cli
