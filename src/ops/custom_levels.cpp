#include "src/ops/custom_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "src/ops/filter_math.hpp"

namespace imgpar {

CustomLevels make_custom_levels(double denominator, double offset) {
    CustomLevels levels;
    levels.negate = denominator < 0.0;
    levels.inverse = static_cast<float>(1.0 / std::fabs(denominator));
    levels.offset = static_cast<float>(offset);
    // Output for S' (non-decreasing in S').
    auto level = [&](std::int64_t s) {
        const int sum = static_cast<int>(levels.negate ? -s : s);
        return custom_output(sum, denominator, offset);
    };
    levels.bound[0] = std::numeric_limits<std::int32_t>::min();
    levels.bound[256] = std::numeric_limits<std::int32_t>::max();
    // Each bound is searched from the estimate (k - 1/2 - offset) * |denominator|:
    // a bracket that doubles outward from there, then bisection. A few
    // evaluations per level instead of 26, as this runs on every GPU call.
    const std::int64_t below = -static_cast<std::int64_t>(kMaxCustomSum) - 1;  // reaches nothing
    const std::int64_t above = static_cast<std::int64_t>(kMaxCustomSum) + 1;   // stands for "none"
    for (int k = 1; k <= 255; ++k) {
        auto reaches = [&](std::int64_t s) { return s >= above || (s > below && level(s) >= k); };
        const double guess = (k - 0.5 - offset) * std::fabs(denominator);
        const std::int64_t g = guess <= static_cast<double>(below)   ? below
                               : guess >= static_cast<double>(above) ? above
                                                                      : static_cast<std::int64_t>(guess);
        std::int64_t lo = g, hi = g;  // invariant once bracketed: !reaches(lo), reaches(hi)
        std::int64_t step = 1;
        if (reaches(g)) {
            do {
                hi = lo;
                lo = std::max(lo - step, below);
                step *= 2;
            } while (reaches(lo));
        } else {
            do {
                lo = hi;
                hi = std::min(hi + step, above);
                step *= 2;
            } while (!reaches(hi));
        }
        while (hi - lo > 1) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            (reaches(mid) ? hi : lo) = mid;
        }
        levels.bound[k] = static_cast<std::int32_t>(hi);
    }
    return levels;
}

}  // namespace imgpar
