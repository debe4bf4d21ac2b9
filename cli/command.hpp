// The command table: every operation of src/op/catalog.cpp becomes a command
// (cli/op_commands.cpp), next to the commands that only read or write files
// (info, convert, devices); main and --help iterate the same table. Every
// option of every command is a declared parameter (src/op/param.hpp): main
// builds the parser, the help and the strict parsing of values from them, so
// only main knows the option parser.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "src/backend.hpp"
#include "src/op/param.hpp"
#include "src/op/usage.hpp"
#include "src/run/diagnostics.hpp"
#include "src/run/engine.hpp"

namespace imgpar::cli {

// How much a run says on stderr: -q and -v set it, the last one given wins.
enum class Verbosity { Quiet, Normal, Verbose };

// Options every command shares.
struct GlobalOptions {
    DeviceRequest device;
    Verbosity verbosity = Verbosity::Normal;
    std::uint64_t max_pixels = 0;
    std::uint64_t max_memory = 0;  // bytes one file may need (--max-memory)
    bool allow_partial = false;    // decode image data that ends early (--allow-partial)
    int threads = 0;               // CPU threads (--threads); 0: every core
    bool quiet() const { return verbosity == Verbosity::Quiet; }
    bool verbose() const { return verbosity == Verbosity::Verbose; }
};

// What a command's run function gets.
struct Invocation {
    std::string command;                   // e.g. "blur"
    const ParamValues& values;             // every option of the command, as given or defaulted
    std::vector<std::string> positionals;  // IN, OUT, ...
    GlobalOptions global;
    const Diagnostics& diag;
    std::ostream& out;                     // data only (reports, images on "-")
};

// Options under one heading of --help.
struct OptionGroup {
    std::string name;
    std::vector<ParamSpec> params;
};

struct Command {
    std::string name;
    std::string summary;  // one line, for `imgpar --help`
    // The forms of its command line after "imgpar NAME", one a line, with
    // "[OPTION...]" left out: "IN OUT [RADIUSxSIGMA]", "--out-dir DIR IN...";
    // none for a command that takes only options.
    std::vector<std::string> synopsis;
    std::string description;  // paragraph(s) for `imgpar NAME --help`
    int min_positionals;
    int max_positionals;  // -1: any number
    std::vector<OptionGroup> options;  // its own; main adds the common ones (common_options())
    std::function<int(Invocation& invocation)> run;  // returns the exit code
    // Two or three command lines (src/op/usage.hpp says which files they name).
    std::vector<Usage> examples;
    // What the shells complete its positional arguments with: these words
    // (completion: bash, zsh, fish), else file names (none when it takes none).
    std::vector<std::string> positional_words;
};

// All commands, in the order `imgpar --help` lists them.
const std::vector<Command>& command_table();

}  // namespace imgpar::cli
