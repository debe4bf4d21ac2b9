// Runs a filter on the backend that selection chose.
#pragma once

#include <string>

#include "src/backend.hpp"
#include "src/image.hpp"
#include "src/ops/filter.hpp"

namespace imgpar {

// `kernel` receives what ran.
ImageU8 apply_filter(const FilterPlan& plan, ConstViewU8 src, const BackendChoice& backend, std::string& kernel);

}  // namespace imgpar
