// imgpar info FILE...: what each image is. One bad file does not stop the others.

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/batch_runner.hpp"
#include "cli/batch_settings.hpp"
#include "cli/input_list.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/report/info_report.hpp"

namespace imgpar::cli {
namespace {

int run(Invocation& inv) {
    const ReportFormat format = read_report_format(inv.values);
    // Headers only unless --verify (--header-only, the old way to ask for that, still works).
    const bool header_only = !inv.values.flag("verify");
    // Headers only (no memory budget, no check of the data) unless --verify.
    const LoadOptions load = load_options(inv.global, header_only ? 0 : 1);
    const BatchSettings settings = read_batch_settings(inv);
    const std::vector<BatchItem> items = batch_items(gather_inputs(inv.positionals, inv.values));

    const auto print = [format](const InfoRecord& r) {
        switch (format) {
            case ReportFormat::Text: return r.ok ? info_text(r) + "\n" : std::string();
            case ReportFormat::Csv: return info_csv_row(r) + "\n";
            case ReportFormat::Json: return info_json(r) + "\n";
        }
        return std::string();
    };
    const auto process = [&](const BatchItem& item, WorkerContext& ctx) {
        InfoRecord r;
        r.file = item.name;
        const auto bytes = read_image_file(item.path, load);
        r.header = read_image_header(r.file, bytes, load);
        if (!header_only) {
            const auto reservation = ctx.memory.reserve(estimate_memory(r.header, load));
            const LoadedImage img = decode_image(r.file, bytes, r.header, load);
            r.decoded = true;
            r.decoded_bytes = img.image.size_bytes();
            report_warnings(inv.diag, r.file, img.warnings);
        }
        r.ok = true;
        return ItemResult{false, print(r)};
    };
    const auto failure = [&](const BatchItem& item, const Error& e) {
        InfoRecord r;
        r.file = item.name;
        r.error = e.reason();
        return print(r);
    };
    // Reading headers needs no GPU.
    BackendPool backend([] { return BackendChoice{}; }, 1);
    MemoryBudget memory(default_memory_budget());
    if (format == ReportFormat::Csv) inv.out << info_csv_header() << "\n";
    const BatchSummary summary = run_batch(items, settings, backend, memory, inv.diag, inv.out, process, failure);
    return finish_batch(inv, summary, "described", summary.failed > 0 || settings.progress);
}

}  // namespace

Command info_command() {
    return {"info", "Describe images: format, size, channels, bytes", "FILE...",
            "Reads each FILE's header ('-' for standard input) and prints its format, dimensions, channel layout,\n"
            "bit depth and size, without decoding the pixels; --verify decodes them too, so a corrupt or truncated\n"
            "file is reported. Several files\n"
            "may be given; one that fails is reported on stderr (and as an error record in CSV/JSON) and the\n"
            "others are still described; the exit code is then 1.",
            0, -1,
            {{"Info",
              {ParamSpec::flag("verify", "Also decode the pixels, proving the file is whole (slower: a full decode)"),
               ParamSpec::flag("header-only", "Read only the header: the default (kept for scripts that pass it)")}},
             report_options(true), many_files_options(false)},
            run};
}

}  // namespace imgpar::cli
