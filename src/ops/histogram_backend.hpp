// Runs the histogram family on the backend that selection chose; `kernel`
// receives what ran.
#pragma once

#include <string>

#include "src/backend.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/threshold.hpp"

namespace imgpar {

Histogram compute_histogram(ConstViewU8 image, bool with_luma, const BackendChoice& backend, std::string& kernel);
ImageU8 equalize(ConstViewU8 image, EqualizeMode mode, const BackendChoice& backend, std::string& kernel);
ThresholdResult threshold(ConstViewU8 image, const ThresholdSpec& spec, const BackendChoice& backend,
                          std::string& kernel);

}  // namespace imgpar
