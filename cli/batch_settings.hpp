// The options of a run over many files, shared by every command that takes
// several inputs: the input list (--files-from, --shard), the workers
// (--jobs), the progress bar and, for commands that write images, where the
// outputs go (cli/output_plan.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/batch_runner.hpp"
#include "cli/command.hpp"

namespace imgpar::cli {

OptionGroup many_files_options(bool writes_images);

// --jobs (default: every core), --progress / --no-progress.
BatchSettings read_batch_settings(const Invocation& inv);

// Selects the backend for `request` (for BackendPool, which runs it on its
// own thread) and prints the notice when `auto` falls back to the CPU.
std::function<BackendChoice()> backend_selector(const DeviceRequest& request, const Diagnostics& diag);

// The inputs as batch items (outputs left empty). Throws imgpar::Error
// (usage) when there are none.
std::vector<BatchItem> batch_items(const std::vector<std::string>& inputs);

// "blur: 498 written, 2 failed, 0 skipped; 500 files in 12.3 s (40.6 files/s)";
// `verb` says what happened to a file that succeeded.
std::string summary_line(const std::string& command, const BatchSummary& s, const std::string& verb);

// Prints the summary of a run over several files (an error when some
// failed, else a notice) and returns the exit code.
int finish_batch(const Invocation& inv, const BatchSummary& s, const std::string& verb, bool print_summary);

}  // namespace imgpar::cli
