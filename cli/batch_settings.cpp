#include "cli/batch_settings.hpp"

#include <algorithm>
#include <cstdio>

#include "cli/input_list.hpp"
#include "cli/output_plan.hpp"
#include "cli/progress.hpp"
#include "cli/report_file.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/parallel.hpp"

namespace imgpar::cli {

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
    s.progress = progress_wanted(on, off, inv.global.quiet);
    return s;
}

std::function<BackendChoice()> backend_selector(const DeviceRequest& request, const Diagnostics& diag) {
    return [request, &diag] {
        BackendChoice c = select_backend(request);
        if (!c.fallback_reason.empty()) diag.notice("running on the CPU: no usable GPU: " + c.fallback_reason);
        return c;
    };
}

PoolOptions pool_options(int jobs, std::size_t files, bool cpu_until_selected, const Diagnostics& diag) {
    PoolOptions o;
    o.sessions_per_gpu = kMaxGpuSessions;
    o.max_sessions = static_cast<int>(std::min(files, static_cast<std::size_t>(jobs)));  // the pool keeps at least 1
    o.cpu_until_selected = cpu_until_selected;
    o.gpu_failed = [&diag](const std::string& why) { diag.warning(why); };
    return o;
}

void report_gpu_shares(const BackendPool& backend, const Diagnostics& diag) {
    const std::vector<std::pair<int, int>> leases = backend.leases_by_gpu();
    if (leases.size() < 2) return;
    std::string line = "GPUs: files computed on each:";
    for (std::size_t p = 0; p < leases.size(); ++p)
        line += (p ? ", gpu " : " gpu ") + std::to_string(leases[p].first) + " " + std::to_string(leases[p].second);
    diag.info(line);
}

std::vector<BatchItem> batch_items(const std::vector<std::string>& inputs) {
    if (inputs.empty()) throw usage_error("inputs", "no input files (name them, or give --files-from FILE)");
    std::vector<BatchItem> items;
    items.reserve(inputs.size());
    for (const std::string& in : inputs) items.push_back({in, display_name(in), {}});
    return items;
}

std::string summary_line(const std::string& command, const BatchSummary& s, const std::string& verb) {
    char timing[96];
    std::snprintf(timing, sizeof timing, " in %.2f s (%.1f files/s)", s.seconds,
                  s.seconds > 0 ? static_cast<double>(s.done + s.failed) / s.seconds : 0.0);
    std::string line = command + ": " + std::to_string(s.done) + " " + verb;
    if (s.failed) line += ", " + std::to_string(s.failed) + " failed";
    if (s.skipped) line += ", " + std::to_string(s.skipped) + " skipped";
    return line + "; " + std::to_string(s.total) + " file" + (s.total == 1 ? "" : "s") + timing;
}

int finish_batch(const Invocation& inv, const BatchSummary& s, const std::string& verb, bool print_summary) {
    if (print_summary) {
        if (s.failed)
            inv.diag.error(summary_line(inv.command, s, verb));
        else
            inv.diag.notice(summary_line(inv.command, s, verb));
    }
    return s.failed ? kExitFileFailed : kExitOk;
}

}  // namespace imgpar::cli
