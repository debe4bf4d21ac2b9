// The driver of image -> array commands (integral): IN OUT.npy, or many
// inputs with --out-dir / --output, run through the batch runner as the
// image commands are: each file read, decoded, computed on the run's backend
// and its array written atomically as a .npy file.
#pragma once

#include "cli/command.hpp"
#include "src/op/operation.hpp"

namespace imgpar::cli {

int run_array_files(Invocation& inv, const ArrayJob& job);

}  // namespace imgpar::cli
