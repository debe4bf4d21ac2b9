// Runs the histogram family on the backend that selection chose.
#pragma once

#include "src/backend.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/threshold.hpp"

namespace imgpar {

Histogram compute_histogram(ConstViewU8 image, bool with_luma, const BackendChoice& backend);
ImageU8 equalize(ConstViewU8 image, EqualizeMode mode, const BackendChoice& backend);
ThresholdResult threshold(ConstViewU8 image, const ThresholdSpec& spec, const BackendChoice& backend);

}  // namespace imgpar
