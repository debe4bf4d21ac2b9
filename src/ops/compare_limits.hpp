// compare --fail-above METRIC=V and --fail-below METRIC=V: a comparison
// turned into a check for scripts and CI. The metrics are the overall ones,
// named as compare's --json keys; a limit is violated when the metric is
// above (below) V, or when it has no value (SSIM of an image smaller than
// its window): a check that cannot be made is not passed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/ops/compare.hpp"

namespace imgpar {

// max_abs, differ, differ_share, pixels_differ, mae, mse, rmse, psnr, ssim.
const std::vector<std::string>& compare_metric_names();

struct CompareLimit {
    std::string metric;
    double bound = 0;
    std::string bound_text;  // V as given
    bool above = true;  // --fail-above (fails when metric > bound), else --fail-below (metric < bound)
    std::string option() const;  // "--fail-above psnr=40" as the user could have written it
};

// "METRIC=V". Throws imgpar::Error (usage) naming the option and what is
// allowed: a known metric, a finite decimal number.
CompareLimit parse_compare_limit(const std::string& text, bool above);

// The overall metric (PSNR: +infinity for identical images); nullopt for
// "ssim" when the comparison has none.
std::optional<double> compare_metric(const Comparison& c, const std::string& metric);

// One line per violated limit: "psnr 31.25 is below 40 (--fail-below
// psnr=40)"; `no_ssim` says why SSIM has no value, for a limit on it.
std::vector<std::string> compare_violations(const Comparison& c, const std::vector<CompareLimit>& limits,
                                            const std::string& no_ssim);

}  // namespace imgpar
