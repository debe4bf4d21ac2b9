#include "cli/positional_errors.hpp"

#include <cctype>
#include <filesystem>
#include <system_error>

namespace imgpar::cli {
namespace {

// "0x1", "90", "-17.5", "50%", "640x480+10+20", "x600": a number or a
// geometry, which no file name in a command line looks like.
bool shaped_like_a_parameter(const std::string& arg) {
    std::size_t i = arg.size() > 1 && (arg[0] == '-' || arg[0] == '+' || arg[0] == 'x') ? 1 : 0;
    if (i < arg.size() && arg[i] == '.') ++i;
    return i < arg.size() && std::isdigit(static_cast<unsigned char>(arg[i])) && !names_a_file(arg);
}

std::string several_inputs(std::size_t n) {
    return std::to_string(n) + " arguments: several inputs need --out-dir DIR or -o TEMPLATE to name their outputs";
}

// "--sigma S, --radius R, --amount A, --threshold T, --border RULE".
std::string option_list(const Operation& op) {
    std::string list;
    for (const ParamSpec& p : op.params)
        list += (list.empty() ? "--" : ", --") + p.name + (p.value_name.empty() ? "" : " " + p.value_name);
    return list;
}

}  // namespace

bool names_a_file(const std::string& arg) {
    std::error_code ec;
    return written_as_a_file(arg) || std::filesystem::exists(arg, ec);
}

bool written_as_a_file(const std::string& arg) {
    if (arg.find('/') != std::string::npos) return true;
    const std::size_t dot = arg.find_last_of('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == arg.size()) return false;
    for (std::size_t i = dot + 1; i < arg.size(); ++i)
        if (!std::isalpha(static_cast<unsigned char>(arg[i]))) return false;
    return true;
}

std::string too_many_positionals(const Operation& op, const std::vector<std::string>& positionals) {
    const std::string& third = positionals.at(2);
    const std::string takes = op.name + " takes " + op.synopsis().front();
    if (!op.extra.name.empty()) {
        if (positionals.size() > 3) return several_inputs(positionals.size()) + " (" + takes + ")";
        // IN OUT and a third that is not op's extra argument: another file,
        // or a mistyped extra argument, whose own error says more.
        if (!names_a_file(third)) return "";
        return several_inputs(3) + " (" + third + " is not " + op.extra.name + ")";
    }
    if (positionals.size() == 3 && shaped_like_a_parameter(third)) {
        const std::string options = option_list(op);
        return third + ": " + op.name + " takes no geometry or other value after IN OUT; " +
               (options.empty() ? "it has no options of its own" : "its options are " + options);
    }
    return several_inputs(positionals.size()) + " (" + takes + ")";
}

std::string parameter_among_inputs(const Operation& op, const std::vector<std::string>& inputs) {
    for (const std::string& in : inputs)
        if (shaped_like_a_parameter(in)) {
            const std::string options = option_list(op);
            return in + ": with --out-dir or -o every argument is an input; " +
                   (options.empty() ? op.name + " has no options of its own"
                                    : "give " + op.name + "'s parameters as options: " + options);
        }
    return "";
}

std::string too_many_files(const std::string& command, const std::vector<std::string>& positionals) {
    return several_inputs(positionals.size()) + " (" + command + " takes IN OUT)";
}

}  // namespace imgpar::cli
