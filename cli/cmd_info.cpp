// imgpar info FILE...: what each image is. One bad file does not stop the others.
#include <iostream>

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/inputs.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/report/info_report.hpp"

namespace imgpar::cli {
namespace {

int run(Invocation& inv) {
    ReportFormat format = read_report_format(inv.values);
    // Headers only unless --verify (--header-only, the old way to ask for that, still works).
    const bool header_only = !inv.values.flag("verify");
    LoadOptions load = load_options(inv.global);
    check_stdin_used_once(inv.positionals);

    if (format == ReportFormat::Csv) inv.out << info_csv_header() << "\n";
    const auto print = [&](const InfoRecord& r) {
        switch (format) {
            case ReportFormat::Text:
                if (r.ok) inv.out << info_text(r) << "\n";
                break;
            case ReportFormat::Csv: inv.out << info_csv_row(r) << "\n"; break;
            case ReportFormat::Json: inv.out << info_json(r) << "\n"; break;
        }
    };
    const bool ok = for_each_input(
        inv,
        [&](const std::string& path, const std::string& name) {
            InfoRecord r;
            r.file = name;
            const auto bytes = read_input_bytes(path);
            if (header_only) {
                r.header = read_image_header(r.file, bytes, load);
            } else {
                const LoadedImage img = decode_image(r.file, bytes, load);
                r.header = img.header;
                r.decoded = true;
                r.decoded_bytes = img.image.size_bytes();
                report_warnings(inv.diag, r.file, img.warnings);
            }
            r.ok = true;
            print(r);
        },
        [&](const std::string& name, const Error& e) {
            InfoRecord r;
            r.file = name;
            r.error = e.reason();
            print(r);
        });
    return ok ? kExitOk : kExitFileFailed;
}

}  // namespace

Command info_command() {
    return {"info", "Describe images: format, size, channels, bytes", "FILE...",
            "Reads each FILE's header ('-' for standard input) and prints its format, dimensions, channel layout,\n"
            "bit depth and size, without decoding the pixels; --verify decodes them too, so a corrupt or truncated\n"
            "file is reported. Several files\n"
            "may be given; one that fails is reported on stderr (and as an error record in CSV/JSON) and the\n"
            "others are still described; the exit code is then 1.",
            1, -1,
            {{"Info",
              {ParamSpec::flag("verify", "Also decode the pixels, proving the file is whole (slower: a full decode)"),
               ParamSpec::flag("header-only", "Read only the header: the default (kept for scripts that pass it)")}},
             report_options(true)},
            run};
}

}  // namespace imgpar::cli
