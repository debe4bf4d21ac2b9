// The colour family as operations (src/op/operation.hpp): grayscale,
// extract-channel, flatten and add-alpha, declared in colour_ops.cpp.
#pragma once

#include "src/op/operation.hpp"

namespace imgpar {

Operation grayscale_operation();
Operation extract_channel_operation();
Operation flatten_operation();
Operation add_alpha_operation();

}  // namespace imgpar
