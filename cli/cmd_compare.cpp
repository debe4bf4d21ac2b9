// imgpar compare A B (or A/ B/, or FILE... DIR): how far two images are
// apart, per channel and overall, as a report and, with --fail-above /
// --fail-below, as a check that fails the run (exit 1) like cmp. The pairs
// are cli/compare_pairs.hpp's; the math is src/ops/compare.hpp's.
#include <algorithm>
#include <atomic>
#include <chrono>

#include "cli/batch_runner.hpp"
#include "cli/batch_settings.hpp"
#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/compare_pairs.hpp"
#include "cli/decoded_file.hpp"
#include "cli/device_choice.hpp"
#include "cli/timing.hpp"
#include "src/backend_pool.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/save.hpp"
#include "src/ops/compare.hpp"
#include "src/ops/compare_limits.hpp"
#include "src/report/compare_report.hpp"

namespace imgpar::cli {
namespace {

// Image-sized buffers each input accounts for at its peak (--max-memory):
// the decoded image, and half of each image the pair writes (the result and
// its encoded bytes). Measured with /usr/bin/time -v on 4096x4096 RGB pairs.
// --ssim-downsample adds the input's shrunk doubles, 8 / f^2 of it (auto
// counted as its smallest shrink, 2).
double peak_images(const CompareOptions& o) {
    const double f = o.ssim_downsample == kSsimAutoDownsample ? 2.0 : o.ssim_downsample;
    const double shrunk = o.ssim && o.ssim_downsample != 1 ? 8.0 / (f * f) : 0.0;
    return 1.25 + shrunk + (o.diff ? 0.75 : 0) + (o.ssim_map ? 0.75 : 0);
}

std::string ssim_absence(const CompareOptions& o, int width, int height) {
    if (!o.ssim) return "not computed (--no-ssim)";
    const SsimPlan plan = ssim_plan(o, width, height);
    return plan.fits ? std::string() : "the image " + plan.shortfall();
}

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
    const BatchSettings settings = read_batch_settings(inv);
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
    std::vector<BatchItem> items;
    for (const ComparePair& p : pairs) items.push_back({p.a, display_name(p.a) + " vs " + display_name(p.b), {}});
    const LoadOptions load = load_options(inv.global, peak_images(options));

    const Diagnostics& diag = inv.diag;
    DeviceDecision device{inv.global.device};
    if (device.request.kind == DeviceRequest::Kind::Auto) {
        const std::optional<ImageHeader> first = peek_header(pairs[0].a, load);
        // The probe runs on a sample image of its own size: with the factor
        // the first pair will use (auto resolved on its size), and no map
        // where that factor shrinks the sample below the window.
        CompareOptions probe = options;
        if (first) probe.ssim_downsample = ssim_downsample_factor(options.ssim_downsample, first->width, first->height);
        device = choose_device(device.request, RunShape{inv.command, pairs.size(), first},
                               [&](ConstViewU8 image) {
                                   CompareOptions o = probe;
                                   o.ssim_map = o.ssim_map && ssim_plan(o, image.width, image.height).fits;
                                   (void)cpu::compare(image, image, o);
                               },
                               diag);
    }
    BackendPool backend(backend_selector(device.request, diag),
                        pool_options(settings.jobs, pairs.size(), device.cpu_while_gpu_starts, diag));
    MemoryBudget memory(default_memory_budget());
    std::atomic<std::size_t> violated{0};
    const auto pair_of = [&](const BatchItem& item) -> const ComparePair& {
        return pairs[static_cast<std::size_t>(&item - items.data())];
    };

    const auto process = [&](const BatchItem& item, WorkerContext& ctx) {
        const ComparePair& p = pair_of(item);
        if (!p.missing.empty()) throw input_error("", p.missing);
        CompareSource src;
        src.a = display_name(p.a);
        src.b = display_name(p.b);
        const auto t_read = std::chrono::steady_clock::now();
        const DecodedFile file_a = read_and_decode({p.a, src.a, {}}, load, ctx, diag);
        const DecodedFile file_b = read_and_decode({p.b, src.b, {}}, load, ctx, diag);
        src.decode_ms = ms_since(t_read);
        const ConstViewU8 a = file_a.image.image.view(), b = file_b.image.image.view();
        check_comparable(a, b, src.a, src.b);
        src.width = a.width;
        src.height = a.height;
        if (options.ssim_map && !ssim_plan(options, a.width, a.height).fits)
            throw input_error(src.a + ", " + src.b, "--ssim-map: " + ssim_absence(options, a.width, a.height));

        const auto t0 = std::chrono::steady_clock::now();
        Comparison result;
        {
            const BackendPool::Lease lease = ctx.backend.lease();
            const BackendChoice& used = lease.choice();
            result = compare_images(used, a, b, options, &src.kernel);
            src.backend = backend_name(used.backend);
            if (used.backend == Backend::Gpu) src.device = used.gpu_name;
        }
        src.elapsed_ms = ms_since(t0);
        src.ssim_asked = options.ssim;
        src.no_ssim = ssim_absence(options, a.width, a.height);

        const auto t_write = std::chrono::steady_clock::now();
        for (const auto& [path, image] : {std::pair<const std::string&, const ImageU8&>{p.diff, result.diff},
                                          std::pair<const std::string&, const ImageU8&>{p.ssim_map, result.ssim_map}}) {
            if (path.empty()) continue;
            std::vector<std::string> warnings;
            save_image(path, image.view(), SaveOptions{}, warnings);
            report_warnings(diag, path, warnings);
        }
        src.diff = p.diff;
        src.ssim_map = p.ssim_map;
        src.limits = !limits.empty();
        src.violations = compare_violations(result, limits, src.no_ssim);
        if (!src.violations.empty()) {
            ++violated;
            std::string line = item.name + ": ";
            for (std::size_t i = 0; i < src.violations.size(); ++i) line += (i ? "; " : "") + src.violations[i];
            diag.error(line);
        }
        diag.info(inv.command + ": " + item.name + " (" + std::to_string(a.width) + "x" + std::to_string(a.height) + " " +
                  channel_layout_name(a.channels) + "): backend " + src.backend +
                  (src.device.empty() ? "" : " (" + src.device + ")") + "; kernel " + src.kernel +
                  "; stages: read+decode " + ms_text(src.decode_ms) + ", compute " + ms_text(src.elapsed_ms) +
                  ", write " + ms_text(ms_since(t_write)));
        ItemResult r;
        switch (format) {
            case ReportFormat::Text: r.text = compare_text(src, result) + (pairs.size() > 1 ? "\n" : ""); break;
            case ReportFormat::Csv: r.text = compare_csv_rows(src, result); break;
            case ReportFormat::Json: r.text = compare_json(src, result); break;
        }
        return r;
    };
    const auto failure = [&](const BatchItem& item, const Error& e) {
        if (format != ReportFormat::Json) return std::string();
        const ComparePair& p = pair_of(item);
        return compare_json_failure(display_name(p.a), display_name(p.b), e.what());
    };
    if (format == ReportFormat::Csv) inv.out << compare_csv_header();
    const BatchSummary summary = run_batch(items, settings, backend, memory, diag, inv.out, process, failure);
    if (pairs.size() > 1 || settings.progress) {
        std::string line = summary_line(inv.command, summary, "compared");
        if (violated) line += "; " + std::to_string(violated.load()) + " outside --fail-above/--fail-below";
        if (summary.failed || violated)
            diag.error(line);
        else
            diag.notice(line);
    }
    return summary.failed || violated ? kExitFileFailed : kExitOk;
}

}  // namespace

Command compare_command() {
    return {"compare", "Compare images: max difference, MAE, MSE, RMSE, PSNR, SSIM", "A B | A/ B/ | FILE... DIR",
            "Compares two images of the same size and channel layout, per channel and over all channels: the\n"
            "largest absolute difference, how many samples differ, MAE, MSE, RMSE, PSNR (data range 255; 'inf'\n"
            "for identical images, null in JSON) and SSIM (Wang et al. 2004 as scikit-image computes it: 11x11\n"
            "Gaussian window, sigma 1.5, K1 0.01, K2 0.03, the mean over the image less a 5-pixel border; none\n"
            "for images under 11x11). Two folders compare their files of the same name (a file missing on one\n"
            "side fails that pair); FILE... DIR compares each FILE with DIR's file of its name. --fail-above\n"
            "and --fail-below turn the comparison into a check: exit 1, with the reason on stderr, when an\n"
            "overall metric (named as the JSON keys) is past its bound. A pair that fails (missing, unreadable,\n"
            "different sizes) is reported and the others are still compared; the exit code is then 1.",
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
                               "Exit 1 when an overall metric is above V (repeatable), e.g. mse=4",
                               "max_abs, differ, differ_share, pixels_differ, mae, mse, rmse, psnr or ssim, = a number"),
               ParamSpec::text("fail-below", "METRIC=V",
                               "Exit 1 when an overall metric is below V (repeatable), e.g. psnr=40 or ssim=0.98",
                               "max_abs, differ, differ_share, pixels_differ, mae, mse, rmse, psnr or ssim, = a number")}},
             report_options(true), many_files_options(false)},
            run};
}

}  // namespace imgpar::cli
