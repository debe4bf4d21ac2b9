// What the suites need to iterate the declared operations (src/op/).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/op/operation.hpp"

namespace imgpar::test {

using Values = std::vector<std::pair<std::string, std::string>>;

// The README's table of an operation's parameters, as its declaration says.
std::string markdown_parameters(const Operation& op);

// The values to vary `param` from: an example of `op` that sets it, or else
// the first example (so required parameters such as convolve's kernel are
// there).
Values base_values_for(const Operation& op, const std::string& param);

// The declared operation `name`'s image job for `values`.
std::unique_ptr<ImageJob> image_job(const std::string& name, const Values& values);

// `values` with `name` set to `value` (replaced or added).
Values with(Values values, const std::string& name, const std::string& value);

// A report's JSON without the members that name the backend ("backend",
// "kernel"), so that a CPU and a GPU report of the same input compare equal.
std::string without_backend(const std::string& json);

}  // namespace imgpar::test
