// Where a command that writes one output per input writes: the IN OUT form,
// or many inputs with --out-dir DIR / --output TEMPLATE, named and checked by
// src/run/output_names.hpp before any file is touched.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "src/run/batch.hpp"
#include "src/run/output_names.hpp"

namespace imgpar::cli {

// --out-dir, --output, --skip-existing.
OptionGroup output_plan_options();

// The rule the options give; nullopt when neither --out-dir nor --output is
// given (the IN OUT form). Throws imgpar::Error (usage) for both at once or a
// bad template.
std::optional<OutputRule> read_output_rule(const ParamValues& values);

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

}  // namespace imgpar::cli
