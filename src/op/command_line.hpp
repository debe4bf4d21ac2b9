// A command's arguments read against its declared parameters
// (src/op/param.hpp): the one option syntax of every command.
//
//   --name            a flag
//   --name VALUE      an option's value: the next argument, whatever it
//   --name=VALUE      starts with ("--offset -5")
//   -x, -xVALUE, -x VALUE, -qv   one-letter aliases; flags may be grouped
//   --                every argument after it is a file name ("-photo.png")
//   -                 a file name: standard input or output
//
// Anything else is a positional argument, byte for byte. An option given
// twice keeps its last value. -h/--help anywhere (before "--") asks for help
// and wins over every other mistake on the line, so `imgpar blur --help
// --bogus` prints the help. An unknown option is a usage error that suggests
// the closest declared one: "unknown option --sigmaa for blur; did you mean
// --sigma?".
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "src/op/param.hpp"

namespace imgpar {

struct CommandLine {
    bool help = false;
    // Declared names and their values ("" for a flag), in the order given.
    std::vector<std::pair<std::string, std::string>> given;
    std::vector<std::string> positionals;
    // With stop_at_positional: where the first positional argument is (the
    // arguments from there on were not read); args.size() when none.
    std::size_t stopped_at = 0;
};

// Reads `args` (without the program and command names) against `specs`.
// `command` names the command in messages. With stop_at_positional, reading
// stops at the first positional argument (the options before a command
// name). Throws imgpar::Error (usage), unless help was asked for.
CommandLine parse_command_line(const std::vector<ParamSpec>& specs, const std::vector<std::string>& args,
                               const std::string& command, bool stop_at_positional = false);

// The declared long option nearest to `name` (without dashes) by edit
// distance, when it is near enough to be a likely typo or a unique prefix;
// empty otherwise.
std::string closest_option(const std::vector<ParamSpec>& specs, const std::string& name);

// Levenshtein distance: insertions, deletions and substitutions.
std::size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace imgpar
