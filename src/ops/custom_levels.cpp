#include "src/ops/custom_levels.hpp"

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
    for (int k = 1; k <= 255; ++k) {
        // Smallest s in [-kMaxCustomSum, kMaxCustomSum + 1] with level(s) >= k,
        // where kMaxCustomSum + 1 stands for "none".
        std::int64_t lo = -kMaxCustomSum;
        std::int64_t hi = static_cast<std::int64_t>(kMaxCustomSum) + 1;
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            if (level(mid) >= k)
                hi = mid;
            else
                lo = mid + 1;
        }
        levels.bound[k] = static_cast<std::int32_t>(lo);
    }
    return levels;
}

}  // namespace imgpar
