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
#include "src/backend_pool.hpp"

namespace imgpar::cli {

// GPU sessions a run keeps open on each GPU at most: one per worker up to
// this many, so few workers wait for another's copies (each session holds two
// 8 MiB pinned staging buffers and device images as large as its largest file).
constexpr int kMaxGpuSessions = 16;

OptionGroup many_files_options(bool writes_images);

// --jobs (default: every core), --progress / --no-progress.
BatchSettings read_batch_settings(const Invocation& inv);

// Selects the backend for `request` (for BackendPool, which runs it on its
// own thread) and prints the notice when `auto` falls back to the CPU.
std::function<BackendChoice()> backend_selector(const DeviceRequest& request, const Diagnostics& diag);

// The pool of a run with `jobs` workers over `files` files: up to
// kMaxGpuSessions sessions on each GPU and one per worker in all; a GPU of
// several that cannot start is said as a warning.
PoolOptions pool_options(int jobs, std::size_t files, bool cpu_until_selected, const Diagnostics& diag);

// With -v, after a run over several GPUs: how many files each computed.
void report_gpu_shares(const BackendPool& backend, const Diagnostics& diag);

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
