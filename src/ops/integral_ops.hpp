// The summed-area table as an operation (src/op/operation.hpp): integral,
// an image -> array command, declared in integral_ops.cpp.
#pragma once

#include "src/op/operation.hpp"

namespace imgpar {

Operation integral_operation();

}  // namespace imgpar
