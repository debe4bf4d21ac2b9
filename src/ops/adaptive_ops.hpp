// threshold --adaptive as a job of the threshold operation
// (src/ops/histogram_ops.cpp): its parameters and the job.
#pragma once

#include <memory>
#include <vector>

#include "src/op/operation.hpp"
#include "src/ops/adaptive_threshold.hpp"

namespace imgpar {

// --adaptive, --window, --k, --offset.
std::vector<ParamSpec> adaptive_threshold_params();

// The spec from the values (--adaptive given), validated: usage errors name
// the option.
AdaptiveSpec read_adaptive_spec(const ParamValues& values);

std::unique_ptr<ImageJob> adaptive_threshold_job(const AdaptiveSpec& spec);

}  // namespace imgpar
