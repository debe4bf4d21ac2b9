// The histogram family as operations (src/op/operation.hpp): histo (a
// report), equalize and threshold, declared in histogram_ops.cpp.
#pragma once

#include "src/op/operation.hpp"

namespace imgpar {

Operation histo_operation();
Operation equalize_operation();
Operation threshold_operation();

}  // namespace imgpar
