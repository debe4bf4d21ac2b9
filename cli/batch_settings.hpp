// The options of a run over many files, shared by every command that takes
// several inputs: the input list (--files-from, --shard), the workers
// (--jobs), the progress bar, --json-file and, for commands that write
// images, where the outputs go (cli/output_plan.hpp); and the engine's
// settings (src/run/engine.hpp) they and the common options make.
#pragma once

#include "cli/command.hpp"
#include "src/run/batch.hpp"
#include "src/run/engine.hpp"

namespace imgpar::cli {

OptionGroup many_files_options(bool writes_images);

// --jobs (default: every core), --progress / --no-progress.
BatchSettings read_batch_settings(const Invocation& inv);

// The engine's settings of this invocation: the command, --device, the
// limits (LoadOptions::images as given: 0 reads headers only), the workers.
RunSettings run_settings(const Invocation& inv, double images = 1);

}  // namespace imgpar::cli
