#include "cli/batch_settings.hpp"

#include "cli/common_options.hpp"
#include "cli/output_plan.hpp"
#include "src/error.hpp"
#include "src/parallel.hpp"
#include "src/run/progress.hpp"
#include "src/run/report_file.hpp"

namespace imgpar::cli {

namespace {

OptionGroup input_list_options() {
    return {"Inputs",
            {ParamSpec::path("files-from", "FILE",
                             "Also read input names from FILE ('-': standard input), one per line or NUL-separated"),
             ParamSpec::text("shard", "K/N", "Process only the K-th of N shares of the inputs (1 <= K <= N), or the "
                                             "share of this Slurm array task ('slurm')",
                             "K/N, e.g. 3/8: inputs number K, K+N, K+2N... of the list sorted by name; or slurm")
                 .suggesting({"slurm"})}};
}

}  // namespace

OptionGroup many_files_options(bool writes_images) {
    OptionGroup g{"Many files", {}};
    if (writes_images) g.params = output_plan_options().params;
    for (ParamSpec& p : input_list_options().params) g.params.push_back(std::move(p));
    ParamSpec jobs = ParamSpec::integer("jobs", "N", "Files worked on at once (default: --threads, else one per core)", 1, 1024)
                         .abbreviated("j");
    g.params.push_back(std::move(jobs));
    g.params.push_back(ParamSpec::flag("progress", "Show a progress bar on stderr even when it is not a terminal"));
    g.params.push_back(ParamSpec::flag("no-progress", "Never show the progress bar"));
    g.params.push_back(json_file_param());
    return g;
}

BatchSettings read_batch_settings(const Invocation& inv) {
    BatchSettings s;
    s.label = inv.command;
    s.jobs = inv.values.given("jobs") ? inv.values.int_value("jobs") : cpu_thread_count();
    if (s.jobs < 1 || s.jobs > 1024) throw usage_error("--jobs", std::to_string(s.jobs) + " is out of range (allowed: 1 to 1024)");
    const bool on = inv.values.flag("progress"), off = inv.values.flag("no-progress");
    if (on && off) throw usage_error("--progress", "cannot be combined with --no-progress");
    s.progress = progress_wanted(on, off, inv.global.quiet());
    return s;
}

RunSettings run_settings(const Invocation& inv, double images) {
    RunSettings r;
    r.command = inv.command;
    r.device = inv.global.device;
    r.load = load_options(inv.global, images);
    r.batch = read_batch_settings(inv);
    r.jobs_given = inv.values.given("jobs");
    return r;
}

}  // namespace imgpar::cli
