// imgpar info FILE...: what each image is. One bad file does not stop the others.

#include "cli/batch_settings.hpp"
#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "src/run/chain.hpp"
#include "src/run/input_list.hpp"
#include "src/run/report_sink.hpp"

namespace imgpar::cli {
namespace {

int run(Invocation& inv) {
    const ReportFormat format = read_report_format(inv.values);
    // Headers only (no memory budget, no check of the data) unless --verify
    // (--header-only, the old way to ask for that, still works).
    const bool verify = inv.values.flag("verify");
    RunSettings run = run_settings(inv, verify ? 1 : 0);
    run.summary_line = run.batch.progress;
    run.summary_when_failed = true;
    const std::vector<BatchItem> items = batch_items(gather_inputs(inv.positionals, inv.values));
    const InfoSink sink(format, verify, inv.diag);
    if (format == ReportFormat::Csv) inv.out << info_csv_header() << "\n";
    return run_files(items, Chain(), sink, run, inv.diag, inv.out).exit_code();
}

}  // namespace

Command info_command() {
    return {"info", "Describe images: format, size, channels, colour space, metadata", {"FILE..."},
            "Reads each FILE's header ('-' for standard input) and prints its format, dimensions, channel layout\n"
            "(as decoded), the colour space the file stores (YCbCr, CMYK, YCCK, palette+tRNS...), bit depth, pages\n"
            "and size, and its metadata: EXIF (with the orientation), ICC profile (with its description), XMP, IPTC\n"
            "and comments (shortened), and what of it imgpar would drop and why. The pixels are not decoded;\n"
            "--verify decodes them too, so a corrupt or truncated file is reported. Several files may be given;\n"
            "one that fails is reported on stderr (and as an error record in CSV/JSON) and the others are still\n"
            "described; the exit code is then 1. JSON fields: docs/json.md (schema imgpar.info/3).",
            0, -1,
            {{"Info",
              {ParamSpec::flag("verify", "Also decode the pixels, proving the file is whole (slower: a full decode)"),
               ParamSpec::flag("header-only", "Read only the header: the default (kept for scripts that pass it)")}},
             report_options(true), many_files_options(false)},
            run,
            {{"imgpar info photo.jpg", "Format, size, channels, colour space, bytes and metadata, from the header"},
             {"imgpar info --verify --csv photos/*.jpg", "Each file decoded whole, one CSV row each"},
             {"imgpar info --json scan.png logo.png", "One JSON object per file"}},
            {}};
}

}  // namespace imgpar::cli
