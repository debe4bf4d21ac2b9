#include "cli/help_text.hpp"

#include <cxxopts.hpp>

#include <ostream>

#include "cli/common_options.hpp"

namespace imgpar::cli {
namespace {

// cxxopts lays out the options (the declarations parse them, not cxxopts):
// every option under its group's heading, values as text.
cxxopts::Options option_layout(const Command& cmd, const std::vector<OptionGroup>& groups) {
    cxxopts::Options options("imgpar " + cmd.name, "");
    options.custom_help("");
    options.set_width(100);
    for (const OptionGroup& g : groups) {
        auto adder = options.add_options(g.name);
        for (const ParamSpec& p : g.params) {
            // A one-letter name is its own short form (cxxopts shows it as -k).
            const std::string names =
                p.short_name.empty() || p.short_name == p.name ? p.name : p.short_name + "," + p.name;
            if (p.kind == ParamKind::Flag) {
                adder(names, p.help_text());
                continue;
            }
            auto value = cxxopts::value<std::string>();
            const std::string shown = p.default_text();
            if (!shown.empty()) value->default_value(shown);
            adder(names, p.help_text(), value, p.value_name);
        }
    }
    return options;
}

std::vector<std::string> help_groups(const cxxopts::Options& options) {
    std::vector<std::string> groups;
    for (const auto& g : options.groups())
        if (g != "Common") groups.push_back(g);
    groups.push_back("Common");
    return groups;
}

}  // namespace

std::vector<OptionGroup> option_groups(const Command& cmd) {
    std::vector<OptionGroup> groups = cmd.options;
    groups.push_back(common_options());
    return groups;
}

std::vector<std::string> synopsis_lines(const Command& cmd) {
    std::vector<std::string> lines;
    for (const std::string& form : cmd.synopsis)
        lines.push_back("imgpar " + cmd.name + (form.empty() ? "" : " " + form) + " [OPTION...]");
    if (lines.empty()) lines.push_back("imgpar " + cmd.name + " [OPTION...]");
    return lines;
}

void print_help(std::ostream& os, const Command& cmd) {
    const std::vector<std::string> synopsis = synopsis_lines(cmd);
    for (std::size_t i = 0; i < synopsis.size(); ++i) os << (i == 0 ? "Usage: " : "       ") << synopsis[i] << "\n";
    os << "\n" << cmd.summary << "\n\n" << cmd.description << "\n";
    const cxxopts::Options options = option_layout(cmd, option_groups(cmd));
    std::string text = options.help(help_groups(options), false);
    text.erase(0, text.find_first_not_of('\n'));
    os << "\n" << text;
    if (cmd.examples.empty()) return;
    os << "\nExamples:\n";
    for (const Usage& u : cmd.examples) os << "  " << u.line << "\n      " << u.what << "\n";
}

void print_usage_hint(std::ostream& os, const Command& cmd) {
    const std::vector<std::string> synopsis = synopsis_lines(cmd);
    for (std::size_t i = 0; i < synopsis.size(); ++i) os << (i == 0 ? "usage: " : "       ") << synopsis[i] << "\n";
    os << "Run 'imgpar " << cmd.name << " --help' for the options and examples.\n";
}

std::vector<ExitStatus> exit_statuses() {
    return {{kExitOk, "success"},
            {kExitFileFailed, "an input or output failed (the message names the file and the reason)"},
            {kExitUsage, "usage error (an unknown option, a value out of range, a missing argument)"},
            {kExitGpuUnavailable, "the requested GPU is unavailable or failed; the files are not at fault, so the job "
                                  "can be run again on another machine"},
            {kExitCheckFailed, "every input was read and a check failed (compare --fail-above, --fail-below); 1 wins "
                               "when an input also failed"}};
}

}  // namespace imgpar::cli
