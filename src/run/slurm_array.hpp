// --shard slurm: the share of a Slurm array task, from the variables Slurm
// sets in each task's environment. Every task computes its own share from
// them alone, so the tasks agree on the split without talking to each other.
#pragma once

#include <functional>
#include <string>

#include "src/run/input_list.hpp"

namespace imgpar {

// Looks a variable up; null when it is not set (std::getenv by default).
using EnvLookup = std::function<const char*(const char*)>;

// K/N of the array task: N is SLURM_ARRAY_TASK_COUNT (or, without it, the
// number of ids from SLURM_ARRAY_TASK_MIN to SLURM_ARRAY_TASK_MAX in steps of
// SLURM_ARRAY_TASK_STEP, 1 when unset), K is the task's place among them:
// (SLURM_ARRAY_TASK_ID - MIN) / STEP + 1. So --array=0-15, 1-16 and 0-30:2
// all give 16 shares. An id list that is not a range with one step
// (--array=1,4,9) cannot be numbered this way and is refused. Throws
// imgpar::Error (usage, as --shard) naming the variable that is missing,
// not a number, or inconsistent with the others.
Shard slurm_array_shard(const EnvLookup& lookup);

}  // namespace imgpar
