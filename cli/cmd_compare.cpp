// imgpar compare A B (or A/ B/, or FILE... DIR): how far two images are
// apart, per channel and overall, as a report and, with --fail-above /
// --fail-below, as a check that fails the run (exit 1) like cmp. The pairs
// are cli/compare_pairs.hpp's; the math is src/ops/compare.hpp's.
#include <algorithm>
#include <utility>

#include "cli/batch_settings.hpp"
#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/compare_pairs.hpp"
#include "src/error.hpp"
#include "src/ops/compare.hpp"
#include "src/ops/compare_limits.hpp"
#include "src/report/compare_report.hpp"
#include "src/run/chain.hpp"
#include "src/run/compare_sink.hpp"

namespace imgpar::cli {
namespace {

// --ssim-downsample: "auto" (ssim.m's rule), or a whole number 1 .. kSsimMaxDownsample.
int read_ssim_downsample(const ParamValues& values) {
    if (!values.given("ssim-downsample")) return 1;
    const std::string t = values.text("ssim-downsample");
    if (t == "auto") return kSsimAutoDownsample;
    const bool digits = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    // Leading zeros dropped; more than 4 digits are out of range anyway (and could overflow stoi).
    const std::string value = digits ? t.substr(std::min(t.find_first_not_of('0'), t.size())) : std::string();
    const int f = value.empty() ? 0 : value.size() > 4 ? kSsimMaxDownsample + 1 : std::stoi(value);
    if (f < 1 || f > kSsimMaxDownsample)
        throw usage_error("--ssim-downsample", "must be auto or a whole number from 1 to " +
                                                   std::to_string(kSsimMaxDownsample) + ", not '" + t + "'");
    return f;
}

int run(Invocation& inv) {
    const ReportFormat format = read_report_format(inv.values);
    RunSettings run = run_settings(inv);
    CompareOptions options;
    options.ssim = !inv.values.flag("no-ssim");
    options.ssim_downsample = read_ssim_downsample(inv.values);
    if (inv.values.given("ssim-downsample") && !options.ssim)
        throw usage_error("--ssim-downsample", "cannot be combined with --no-ssim (it shrinks the images for SSIM)");
    options.diff = inv.values.given("diff");
    options.ssim_map = inv.values.given("ssim-map");
    if (options.ssim_map && !options.ssim)
        throw usage_error("--ssim-map", "cannot be combined with --no-ssim (the map is SSIM's)");
    std::vector<CompareLimit> limits;
    for (const std::string& t : inv.values.all("fail-above")) limits.push_back(parse_compare_limit(t, true));
    for (const std::string& t : inv.values.all("fail-below")) limits.push_back(parse_compare_limit(t, false));
    for (const CompareLimit& l : limits)
        if (l.metric == "ssim" && !options.ssim)
            throw usage_error(l.above ? "--fail-above" : "--fail-below", "checks SSIM, which --no-ssim leaves out");

    std::vector<ComparePair> pairs = compare_pairs(inv.positionals, inv.values);
    plan_compare_outputs(pairs, options.diff ? inv.values.text("diff") : std::string(),
                         options.ssim_map ? inv.values.text("ssim-map") : std::string());
    CompareSettings settings{inv.command, options, limits, format, load_options(inv.global, CompareSink::peak_images(options))};
    run.summary_line = pairs.size() > 1 || run.batch.progress;
    const CompareSink sink(std::move(pairs), std::move(settings), inv.diag);
    if (format == ReportFormat::Csv) inv.out << compare_csv_header();
    return run_files(sink.items(), Chain(), sink, run, inv.diag, inv.out).exit_code();
}

}  // namespace

Command compare_command() {
    return {"compare", "Compare images: max difference, MAE, MSE, RMSE, PSNR, SSIM", {"A B", "A/ B/", "FILE... DIR"},
            "Compares two images of the same size and channel layout, per channel and over all channels: the\n"
            "largest absolute difference, how many samples differ, MAE, MSE, RMSE, PSNR (data range 255; 'inf'\n"
            "for identical images, the largest double in JSON) and SSIM (Wang et al. 2004 as scikit-image computes it: 11x11\n"
            "Gaussian window, sigma 1.5, K1 0.01, K2 0.03, the mean over the image less a 5-pixel border; none\n"
            "for images under 11x11). Two folders compare their files of the same name (a file missing on one\n"
            "side fails that pair); FILE... DIR compares each FILE with DIR's file of its name. --fail-above\n"
            "and --fail-below turn the comparison into a check: exit 4, with the reason on stderr, when an\n"
            "overall metric (named as the JSON keys) is past its bound. A pair that fails (missing, unreadable,\n"
            "different sizes) is reported and the others are still compared; the exit code is then 1, which\n"
            "wins over 4: a broken pipeline is told apart from a regression. Identical images' PSNR is inf\n"
            "(in JSON the largest double, 1.7976931348623157e+308, above any bound).",
            0, -1,
            {{"Compare",
              {ParamSpec::path("diff", "OUT", "Write the absolute difference |A - B| as an image (same channels); "
                                              "{name}, {stem}, {ext}, {dir} of A name it for several pairs"),
               ParamSpec::path("ssim-map", "OUT", "Write the SSIM map: round(255 x SSIM) per sample, negative as 0; "
                                                  "named as --diff"),
               ParamSpec::flag("no-ssim", "Leave SSIM out (the other metrics need one pass over the images)"),
               ParamSpec::text("ssim-downsample", "F",
                               "Shrink both images F times (F x F means) before SSIM, as Wang et al.'s ssim.m and "
                               "NPP do; auto = max(1, round(min(W, H) / 256)), their rule (default 1: full size)",
                               "auto or a whole number from 1 to 1024"),
               ParamSpec::text("fail-above", "METRIC=V",
                               "Exit 4 when an overall metric is above V (repeatable), e.g. mse=4",
                               "max_abs, differ, differ_share, pixels_differ, mae, mse, rmse, psnr or ssim, = a number"),
               ParamSpec::text("fail-below", "METRIC=V",
                               "Exit 4 when an overall metric is below V (repeatable), e.g. psnr=40 or ssim=0.98",
                               "max_abs, differ, differ_share, pixels_differ, mae, mse, rmse, psnr or ssim, = a number")}},
             report_options(true), many_files_options(false)},
            run,
            {{"imgpar compare expected.png actual.png", "Every metric, per channel and overall"},
             {"imgpar compare --fail-below psnr=40 --diff diff.png expected.png actual.png",
              "Exit 4 when PSNR is below 40; the difference written as an image"},
             {"imgpar compare --json expected/ actual/", "The files of two folders by name, as JSON Lines"}},
            {}};
}

}  // namespace imgpar::cli
