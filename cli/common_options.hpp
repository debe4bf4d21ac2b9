// Option groups shared by several commands, and readers for their values.
#pragma once

#include <cxxopts.hpp>

#include <optional>
#include <string>

#include "cli/command.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "src/report/format.hpp"

namespace imgpar::cli {

// --device, -q/--quiet, -v/--verbose, --max-pixels, -h/--help (every command).
void add_global_options(cxxopts::Options& options);
GlobalOptions read_global_options(const cxxopts::ParseResult& args);

// --json and --csv, for commands that report.
void add_report_options(cxxopts::Options& options, bool csv);
ReportFormat read_report_format(const cxxopts::ParseResult& args);

// --quality and --format, for commands that write an image.
void add_image_output_options(cxxopts::Options& options);
SaveOptions read_save_options(const cxxopts::ParseResult& args);

LoadOptions load_options(const GlobalOptions& global);

// Prints each of `warnings` about `file` through diag.
void report_warnings(const Diagnostics& diag, const std::string& file, const std::vector<std::string>& warnings);

// Throws imgpar::Error (usage) if "-" (standard input) is named more than once.
void check_stdin_used_once(const std::vector<std::string>& inputs);

// Selects the backend and prints the one CPU-fallback notice if `auto` fell back.
BackendChoice choose_backend(const Invocation& inv);

}  // namespace imgpar::cli
