// The geometry family as operations (src/op/operation.hpp): crop, flip, flop,
// transpose, rotate and pad, declared in geometry_ops.cpp.
#pragma once

#include "src/op/operation.hpp"

namespace imgpar {

Operation crop_operation();
Operation flip_operation();
Operation flop_operation();
Operation transpose_operation();
Operation rotate_operation();
Operation pad_operation();

}  // namespace imgpar
