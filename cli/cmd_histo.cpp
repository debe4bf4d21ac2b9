// imgpar histo FILE...: histograms as text, CSV or JSON, and optionally a plot.
#include <chrono>
#include <cstdio>

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/ops/histogram_backend.hpp"
#include "src/report/histogram_plot.hpp"
#include "src/report/histogram_report.hpp"

namespace imgpar::cli {
namespace {

void add_options(cxxopts::Options& options) {
    options.add_options("Histogram")
        ("bins", "Number of equal bins over 0..255; must divide 256 (1, 2, 4, ..., 256)",
         cxxopts::value<int>()->default_value("256"), "N")
        ("channel", "Planes to report: all, or a list of gray, red, green, blue, alpha, luma (or indices)",
         cxxopts::value<std::string>()->default_value("all"), "LIST")
        ("list", "Text output: also list every bin's count (implied by --bins)")
        ("ascii", "Text output: draw bars with ASCII instead of Unicode blocks")
        ("plot", "Also draw the histogram into this image (PNG/JPEG/BMP); one input only",
         cxxopts::value<std::string>(), "OUT")
        ("plot-size", "Plot size WIDTHxHEIGHT", cxxopts::value<std::string>()->default_value("512x300"), "WxH")
        ("log", "Plot counts on a logarithmic scale");
    add_report_options(options, true);
}

int run(Invocation& inv) {
    ReportFormat format = read_report_format(inv.args);
    HistogramReportOptions report;
    report.bins = inv.args["bins"].as<int>();
    check_histogram_bins(report.bins);
    report.list_bins = inv.args.count("list") > 0 || inv.args.count("bins") > 0;
    report.ascii = inv.args.count("ascii") > 0;
    const std::string channel_spec = inv.args["channel"].as<std::string>();

    HistogramPlotOptions plot;
    std::string plot_path;
    if (inv.args.count("plot")) {
        plot_path = inv.args["plot"].as<std::string>();
        if (inv.positionals.size() != 1) throw usage_error("--plot", "draws one histogram: give exactly one input");
        output_format(plot_path, std::nullopt);
        parse_plot_size(inv.args["plot-size"].as<std::string>(), plot);
        plot.bins = report.bins;
        plot.log_scale = inv.args.count("log") > 0;
        check_plot_options(plot);
    }
    check_stdin_used_once(inv.positionals);

    BackendChoice backend = choose_backend(inv);
    if (format == ReportFormat::Csv) inv.out << histogram_csv_header();
    bool failed = false;
    for (const auto& path : inv.positionals) {
        const std::string name = display_name(path);
        try {
            LoadedImage img = load_image(path, load_options(inv.global));
            report_warnings(inv.diag, name, img.warnings);
            auto t0 = std::chrono::steady_clock::now();
            std::string kernel;
            Histogram h = compute_histogram(img.image.view(), true, backend, kernel);
            double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            report.planes = select_histogram_planes(h, channel_spec);
            HistogramSource src{name, img.image.width(), img.image.height(), backend_name(backend.backend), kernel};
            switch (format) {
                case ReportFormat::Text: inv.out << histogram_text(src, h, report); break;
                case ReportFormat::Csv: inv.out << histogram_csv_rows(src, h, report); break;
                case ReportFormat::Json: inv.out << histogram_json(src, h, report); break;
            }
            char timing[32];
            std::snprintf(timing, sizeof timing, "%.2f ms", ms);
            inv.diag.info("histo: " + name + ": backend " + backend.describe() + "; kernel " + kernel + "; " + timing);
            if (!plot_path.empty()) {
                plot.planes = report.planes;
                ImageU8 picture = plot_histogram(h, plot);
                std::vector<std::string> warnings;
                save_image(plot_path, picture.view(), {}, warnings);
                report_warnings(inv.diag, plot_path, warnings);
            }
        } catch (const Error& e) {
            if (e.kind() == ErrorKind::Usage) throw;
            inv.diag.error(e.what());
            failed = true;
        }
    }
    return failed ? kExitFileFailed : kExitOk;
}

}  // namespace

Command histo_command() {
    return {"histo", "Histograms: per channel and luma, as text, CSV, JSON or a plot", "FILE...",
            "Counts every channel's 256 values (and luma, Rec. 601: (77 R + 150 G + 29 B + 128) >> 8, for colour\n"
            "images). Text output summarises each plane: count, min, max, mean, standard deviation, median (lower),\n"
            "mode (smallest on ties) and a bar rendering; --csv prints one row per bin; --json one object per\n"
            "input (JSON Lines for several inputs). --plot draws the histogram as an image. A file that fails is\n"
            "reported on stderr and the others are still processed; the exit code is then 1.",
            1, -1, add_options, run};
}

}  // namespace imgpar::cli
