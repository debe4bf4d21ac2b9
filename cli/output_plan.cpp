#include "cli/output_plan.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "cli/batch_settings.hpp"
#include "cli/input_list.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/same_file.hpp"

namespace imgpar::cli {

OptionGroup output_plan_options() {
    return {"Many files",
            {ParamSpec::path("out-dir", "DIR", "Write each output into DIR under its input's file name (created if missing)"),
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

namespace {

struct NameParts {
    std::string dir, name, stem, ext;
};

NameParts split_name(const std::string& input) {
    NameParts p;
    const std::size_t slash = input.find_last_of('/');
    p.dir = slash == std::string::npos ? "." : slash == 0 ? "/" : input.substr(0, slash);
    p.name = slash == std::string::npos ? input : input.substr(slash + 1);
    const std::size_t dot = p.name.find_last_of('.');
    // A leading dot (".hidden") starts a name, not an extension.
    if (dot == std::string::npos || dot == 0) {
        p.stem = p.name;
    } else {
        p.stem = p.name.substr(0, dot);
        p.ext = p.name.substr(dot + 1);
    }
    return p;
}

const char* extension_of(ImageFormat f) {
    switch (f) {
        case ImageFormat::Png: return "png";
        case ImageFormat::Jpeg: return "jpg";
        case ImageFormat::Bmp: return "bmp";
    }
    return "png";
}

}  // namespace

std::string expand_output_template(const std::string& t, const std::string& input) {
    const NameParts parts = split_name(input);
    std::string out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if ((c == '{' || c == '}') && i + 1 < t.size() && t[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        if (c == '}') throw usage_error("--output", "'" + t + "': a '}' without its '{' (write }} for a brace)");
        if (c != '{') {
            out += c;
            continue;
        }
        const std::size_t close = t.find('}', i);
        if (close == std::string::npos)
            throw usage_error("--output", "'" + t + "': a '{' without its '}' (write {{ for a brace)");
        const std::string key = t.substr(i + 1, close - i - 1);
        if (key == "name") out += parts.name;
        else if (key == "stem") out += parts.stem;
        else if (key == "ext") out += parts.ext;
        else if (key == "dir") out += parts.dir;
        else
            throw usage_error("--output", "'" + t + "': unknown placeholder {" + key +
                                              "} (allowed: {name}, {stem}, {ext}, {dir})");
        i = close;
    }
    return out;
}

std::string output_for(const OutputRule& rule, const std::string& input) {
    if (!rule.output_template.empty()) return expand_output_template(rule.output_template, input);
    const NameParts parts = split_name(input);
    std::string name = parts.name;
    if (rule.format) name = parts.stem + "." + extension_of(*rule.format);
    std::string dir = rule.out_dir;
    if (dir.back() != '/') dir += '/';
    return dir + name;
}

void check_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
    std::map<std::string, std::string> input_by_path;  // normal path -> input as named
    std::map<std::pair<dev_t, ino_t>, std::string> input_by_id;
    for (const std::string& in : inputs) {
        if (in == "-")
            throw usage_error("-", "standard input has no name to name an output after; use the IN OUT form");
        input_by_path.emplace(normal_path(in), in);
        if (const auto id = file_id(in)) input_by_id.emplace(*id, in);
    }
    std::map<std::string, std::string> seen;  // normal output path -> its input
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string& out = outputs[i];
        if (out.empty() || out.back() == '/')
            throw usage_error(out.empty() ? "--output" : out, "is not a file name (from input " + inputs[i] + ")");
        const std::string key = normal_path(out);
        auto [it, fresh] = seen.emplace(key, inputs[i]);
        if (!fresh)
            throw usage_error(out, "would be written twice: from " + it->second + " and from " + inputs[i] +
                                       " (use {dir} or another template to keep them apart)");
        std::string hit;
        if (auto p = input_by_path.find(key); p != input_by_path.end()) hit = p->second;
        if (hit.empty())
            if (const auto id = file_id(out))
                if (auto p = input_by_id.find(*id); p != input_by_id.end()) hit = p->second;
        if (!hit.empty())
            throw usage_error(out, "is an input (" + hit + "): a batch never overwrites its inputs; choose another "
                                   "--out-dir or --output");
    }
}

void make_output_folder(const std::string& output) {
    const std::filesystem::path parent = std::filesystem::path(output).parent_path();
    if (parent.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) throw output_error(output, "cannot create its folder: " + ec.message());
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
        if (n > single_max)
            throw usage_error(inv.positionals[single_max], "unexpected argument: several inputs need --out-dir DIR "
                                                           "or --output TEMPLATE");
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

std::string output_name(const std::string& output) { return output == "-" ? "<stdout>" : output; }

JsonObject output_record(const Invocation& inv, const BatchItem& item, const std::string& schema) {
    JsonObject o;
    o.add("schema", schema).add("command", inv.command).add("input", item.name).add("output", output_name(item.output));
    return o;
}

std::string output_skipped(const Invocation& inv, const BatchItem& item, ReportFormat report, const std::string& schema) {
    if (report != ReportFormat::Json) return std::string();
    return output_record(inv, item, schema).add("ok", true).add("skipped", true).str() + "\n";
}

std::string output_failure(const Invocation& inv, const BatchItem& item, const Error& error, ReportFormat report,
                           const std::string& schema) {
    if (report != ReportFormat::Json) return std::string();
    return output_record(inv, item, schema).add("ok", false).add("error", error.what()).str() + "\n";
}

}  // namespace imgpar::cli
