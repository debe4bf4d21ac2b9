#include "cli/output_plan.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "cli/batch_settings.hpp"
#include "cli/positional_errors.hpp"
#include "src/run/input_list.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/same_file.hpp"

namespace imgpar::cli {

OptionGroup output_plan_options() {
    return {"Many files",
            {ParamSpec::path("out-dir", "DIR", "Write each output into DIR under its input's file name (created if missing)")
                 .naming_a_folder(),
             ParamSpec::text("output", "TEMPLATE", "Name each output from its input; the extension picks the format",
                             "a path with {name}, {stem}, {ext}, {dir}, e.g. 'out/{stem}_blur.{ext}'")
                 .abbreviated("o"),
             ParamSpec::flag("skip-existing", "Leave outputs that already exist alone (to resume a batch)")}};
}

std::optional<OutputRule> read_output_rule(const ParamValues& values) {
    const bool dir = values.given("out-dir");
    const bool tmpl = values.given("output");
    if (!dir && !tmpl) return std::nullopt;
    if (dir && tmpl) throw usage_error("--out-dir", "cannot be combined with --output (put the folder in the template)");
    OutputRule rule;
    if (dir) {
        rule.out_dir = values.text("out-dir");
        if (rule.out_dir.empty()) throw usage_error("--out-dir", "is empty (use . for the current folder)");
    } else {
        rule.output_template = values.text("output");
        if (rule.output_template.empty()) throw usage_error("--output", "is empty");
        expand_output_template(rule.output_template, "x.png");  // placeholders checked now
    }
    if (values.has("format") && values.given("format")) rule.format = parse_format_name(values.text("format"));
    return rule;
}

OutputPlan plan_outputs(const Invocation& inv, int single_max,
                        const std::function<std::string(const std::string& output, const std::string& option)>& fit) {
    OutputPlan plan;
    const std::optional<OutputRule> rule = read_output_rule(inv.values);
    if (!rule) {
        if (inv.values.given("files-from") || inv.values.given("shard"))
            throw usage_error(inv.values.given("files-from") ? "--files-from" : "--shard",
                              "needs --out-dir DIR or --output TEMPLATE to name the outputs");
        const int n = static_cast<int>(inv.positionals.size());
        if (n < 2)
            throw usage_error(n == 0 ? "arguments" : "OUT",
                              n == 0 ? "missing IN and OUT" : "missing (or give --out-dir DIR for many inputs)");
        if (n > single_max) throw usage_error("", too_many_files(inv.command, inv.positionals));
        const std::string& in = inv.positionals[0];
        plan.items.push_back({in, display_name(in), fit(inv.positionals[1], "OUT")});
        return plan;
    }
    plan.many = true;
    const std::vector<std::string> inputs = gather_inputs(inv.positionals, inv.values);
    plan.items = batch_items(inputs);
    std::vector<std::string> outputs;
    const std::string option = rule->out_dir.empty() ? "--output" : "--out-dir";
    for (BatchItem& item : plan.items) {
        item.output = fit(output_for(*rule, item.path), option);
        outputs.push_back(item.output);
    }
    check_outputs(inputs, outputs);
    if (!rule->out_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(rule->out_dir, ec);
        if (ec) throw output_error(rule->out_dir, "cannot create the folder: " + ec.message());
    }
    return plan;
}

}  // namespace imgpar::cli
