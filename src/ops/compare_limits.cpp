#include "src/ops/compare_limits.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "src/error.hpp"
#include "src/op/param.hpp"

namespace imgpar {

namespace {

std::string metric_list() {
    std::string s;
    const std::vector<std::string>& names = compare_metric_names();
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
    return s;
}

// Enough digits to show why a value is on the wrong side of its bound.
std::string value_text(double v) {
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

}  // namespace

const std::vector<std::string>& compare_metric_names() {
    static const std::vector<std::string> names = {"max_abs", "differ", "differ_share", "pixels_differ", "mae",
                                                   "mse",     "rmse",   "psnr",         "ssim"};
    return names;
}

std::string CompareLimit::option() const {
    return std::string(above ? "--fail-above " : "--fail-below ") + metric + "=" + bound_text;
}

CompareLimit parse_compare_limit(const std::string& text, bool above) {
    const std::string option = above ? "--fail-above" : "--fail-below";
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos)
        throw usage_error(option, "'" + text + "' is not METRIC=V (e.g. psnr=40; metrics: " + metric_list() + ")");
    CompareLimit limit;
    limit.above = above;
    limit.metric = text.substr(0, eq);
    bool known = false;
    for (const std::string& m : compare_metric_names()) known = known || m == limit.metric;
    if (!known)
        throw usage_error(option, "'" + limit.metric + "' is not a metric (allowed: " + metric_list() + ")");
    const std::optional<double> bound = parse_decimal(text.substr(eq + 1));
    if (!bound)
        throw usage_error(option, "'" + text.substr(eq + 1) + "' in '" + text + "' is not a number (e.g. " +
                                      limit.metric + "=0.95)");
    limit.bound = *bound;
    limit.bound_text = text.substr(eq + 1);
    return limit;
}

std::optional<double> compare_metric(const Comparison& c, const std::string& metric) {
    if (metric == "ssim") return c.ssim.defined ? std::optional<double>(c.ssim.mean) : std::nullopt;
    if (metric == "pixels_differ") return static_cast<double>(c.sums.pixels_differ);
    const DifferenceMetrics m = difference_metrics(c.sums, -1);
    if (metric == "max_abs") return m.max_abs;
    if (metric == "differ") return static_cast<double>(m.differ);
    if (metric == "differ_share") return m.differ_share;
    if (metric == "mae") return m.mae;
    if (metric == "mse") return m.mse;
    if (metric == "rmse") return m.rmse;
    if (metric == "psnr") return m.psnr;
    throw std::logic_error("compare_metric: unknown metric '" + metric + "'");
}

std::vector<std::string> compare_violations(const Comparison& c, const std::vector<CompareLimit>& limits,
                                            const std::string& no_ssim) {
    std::vector<std::string> lines;
    for (const CompareLimit& l : limits) {
        const std::optional<double> v = compare_metric(c, l.metric);
        if (!v) {
            lines.push_back(l.metric + " has no value (" + no_ssim + ") (" + l.option() + ")");
            continue;
        }
        if (l.above ? *v > l.bound : *v < l.bound)
            lines.push_back(l.metric + " " + value_text(*v) + " is " +  (l.above ? "above " : "below ") +
                            l.bound_text + " (" + l.option() + ")");
    }
    return lines;
}

}  // namespace imgpar
