// The command of a declared operation (src/op/operation.hpp).
#pragma once

#include "cli/command.hpp"
#include "src/op/operation.hpp"

namespace imgpar::cli {

// `op` must outlive the command (operations() lives for the whole process).
Command operation_command(const Operation& op);

}  // namespace imgpar::cli
