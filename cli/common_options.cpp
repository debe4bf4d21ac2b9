#include "cli/common_options.hpp"

#include "src/error.hpp"

namespace imgpar::cli {

void add_global_options(cxxopts::Options& options) {
    options.add_options("Common")
        ("device", "Where to compute: auto (GPU if usable, else CPU), cpu, gpu, gpu:N",
         cxxopts::value<std::string>()->default_value("auto"), "DEV")
        ("q,quiet", "Print no warnings or notices (errors still go to stderr)")
        ("v,verbose", "Say what runs where: backend, kernel size, timings")
        ("max-pixels", "Refuse inputs with more pixels than this, before decoding",
         cxxopts::value<std::uint64_t>()->default_value(std::to_string(kDefaultMaxPixels)), "N")
        ("h,help", "Show this help");
}

GlobalOptions read_global_options(const cxxopts::ParseResult& args) {
    GlobalOptions g;
    g.device = parse_device_request(args["device"].as<std::string>());
    g.quiet = args.count("quiet") > 0;
    g.verbose = args.count("verbose") > 0;
    if (g.quiet && g.verbose) throw usage_error("--quiet", "cannot be combined with --verbose");
    g.max_pixels = args["max-pixels"].as<std::uint64_t>();
    if (g.max_pixels == 0) throw usage_error("--max-pixels", "must be at least 1");
    return g;
}

void add_report_options(cxxopts::Options& options, bool csv) {
    options.add_options("Output")("json", "Print JSON: one object per input (JSON Lines for several inputs)");
    if (csv) options.add_options("Output")("csv", "Print CSV with a header row");
}

ReportFormat read_report_format(const cxxopts::ParseResult& args) {
    bool json = args.count("json") > 0;
    bool csv = args.count("csv") > 0;
    if (json && csv) throw usage_error("--json", "cannot be combined with --csv");
    return json ? ReportFormat::Json : csv ? ReportFormat::Csv : ReportFormat::Text;
}

void add_image_output_options(cxxopts::Options& options) {
    options.add_options("Output")
        ("quality", "JPEG quality, 1 to 100", cxxopts::value<int>()->default_value(std::to_string(kDefaultJpegQuality)), "Q")
        ("format", "Output format when the file name cannot tell (needed for '-'): png, jpg, bmp",
         cxxopts::value<std::string>(), "FMT");
}

SaveOptions read_save_options(const cxxopts::ParseResult& args) {
    SaveOptions s;
    s.quality = args["quality"].as<int>();
    check_jpeg_quality(s.quality);
    if (args.count("format")) s.format = parse_format_name(args["format"].as<std::string>());
    return s;
}

LoadOptions load_options(const GlobalOptions& global) {
    LoadOptions o;
    o.max_pixels = global.max_pixels;
    return o;
}

void report_warnings(const Diagnostics& diag, const std::string& file, const std::vector<std::string>& warnings) {
    for (const auto& w : warnings) diag.warning(file + ": " + w);
}

void check_stdin_used_once(const std::vector<std::string>& inputs) {
    int uses = 0;
    for (const auto& p : inputs) uses += p == "-";
    if (uses > 1) throw usage_error("-", "standard input can be read only once");
}

BackendChoice choose_backend(const Invocation& inv) {
    BackendChoice choice = select_backend(inv.global.device);
    if (!choice.fallback_reason.empty())
        inv.diag.notice("running on the CPU: no usable GPU: " + choice.fallback_reason);
    return choice;
}

}  // namespace imgpar::cli
