// Where a multi-file run writes: --out-dir DIR (each output named as its
// input) or --output TEMPLATE ('out/{stem}_blur.{ext}'), checked before any
// file is touched: every placeholder known, no two inputs sent to one
// output, and no input overwritten.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/batch_runner.hpp"
#include "cli/command.hpp"
#include "src/error.hpp"
#include "src/io/image_format.hpp"
#include "src/report/format.hpp"
#include "src/report/json.hpp"

namespace imgpar::cli {

// --out-dir, --output, --skip-existing.
OptionGroup output_plan_options();

struct OutputRule {
    std::string out_dir;                // --out-dir, or empty
    std::string output_template;        // --output, or empty
    std::optional<ImageFormat> format;  // --format: with --out-dir, the extension it gets
};

// The rule the options give; nullopt when neither --out-dir nor --output is
// given (the IN OUT form). Throws imgpar::Error (usage) for both at once or a
// bad template.
std::optional<OutputRule> read_output_rule(const ParamValues& values);

// The parts of an input name a template can use: {name} "a.b.jpg",
// {stem} "a.b", {ext} "jpg" (without the dot; empty when there is none),
// {dir} its folder as given ("." when none). "{{" and "}}" are braces.
// Throws imgpar::Error (usage) naming an unknown or unclosed placeholder.
std::string expand_output_template(const std::string& output_template, const std::string& input);

// The output of `input` under `rule`.
std::string output_for(const OutputRule& rule, const std::string& input);

// Usage errors, before anything runs: standard input (which has no name to
// derive one from), two inputs with one output, or an output that is one of
// the inputs (by name, or by identity when it exists: a link to an input
// counts).
void check_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

// The files of a command that writes one output per input: the IN OUT form
// (at most `single_max` positional arguments) or many inputs named by
// --out-dir / --output, every output checked before anything runs, and
// --out-dir created. `fit(output, option)` checks each output for the
// command and returns its final name (option: "OUT" in the IN OUT form,
// else "--out-dir" or "--output"; the folders of the many form do not exist
// yet). Throws imgpar::Error (usage).
struct OutputPlan {
    std::vector<BatchItem> items;
    bool many = false;  // --out-dir / --output
};
OutputPlan plan_outputs(const Invocation& inv, int single_max,
                        const std::function<std::string(const std::string& output, const std::string& option)>& fit);

// Creates the folder `output` is to be written in, if missing. Throws
// imgpar::Error (output) naming it.
void make_output_folder(const std::string& output);

// An output as messages and --json name it: "<stdout>" for -.
std::string output_name(const std::string& output);

// The first members of a --json line for one file a run writes: `schema`,
// the command, the input and the output.
JsonObject output_record(const Invocation& inv, const BatchItem& item, const std::string& schema);

// What run_batch prints for a file --skip-existing skipped: under --json its
// record with "ok": true and "skipped": true, else nothing.
std::string output_skipped(const Invocation& inv, const BatchItem& item, ReportFormat report, const std::string& schema);

// What run_batch prints for a file that failed: under --json its record
// with "ok": false and the reason, else nothing.
std::string output_failure(const Invocation& inv, const BatchItem& item, const Error& error, ReportFormat report,
                           const std::string& schema);

}  // namespace imgpar::cli
