// Image statistics as an operation (src/op/operation.hpp): stats, a report
// command, declared in stats_ops.cpp.
#pragma once

#include "src/op/operation.hpp"

namespace imgpar {

Operation stats_operation();

}  // namespace imgpar
