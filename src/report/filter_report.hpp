// The JSON description of a filter plan (what --json and the benchmark report).
#pragma once

#include "src/ops/filter.hpp"
#include "src/report/json.hpp"

namespace imgpar {

// {"filter":"gaussian","kernel":{"width":13,"height":13,"separable":true},"sigma":2,"radius":6,"border":"replicate",...}
JsonObject filter_json(const FilterPlan& plan);

}  // namespace imgpar
