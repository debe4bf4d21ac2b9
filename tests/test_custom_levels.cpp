// custom_level (the table form of custom_output the GPU's tensor-core path
// uses) against custom_output itself, the contract's definition.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "src/ops/custom_levels.hpp"
#include "src/ops/filter_math.hpp"

using namespace imgpar;

namespace {

// With `worst_estimates`, also from estimates of 0 and 255 whatever the sum:
// the bounds alone must settle the level.
void check_sum(const CustomLevels& lv, int sum, double den, double off, bool worst_estimates = false) {
    const int expect = custom_output(sum, den, off);
    int got[3] = {custom_level(sum, lv.bound, lv.negate, lv.inverse, lv.offset), expect, expect};
    if (worst_estimates) {
        got[1] = custom_level(sum, lv.bound, lv.negate, 0.f, 0.f);
        got[2] = custom_level(sum, lv.bound, lv.negate, 0.f, 255.f);
    }
    for (int g : got)
        if (g != expect) {
            INFO("denominator ", den, " offset ", off, " S ", sum);
            CHECK(g == expect);
        }
}

}  // namespace

TEST_CASE("custom levels: equal custom_output for every sum tried") {
    struct Plan {
        double den, off;
    };
    // Plain, negative, fractional, tiny and huge denominators; offsets that
    // put rounding ties on integers; the benchmark's normalised kernels.
    const std::vector<Plan> plans = {{1, 0},       {-1, 0},        {2, 0},         {3, 128},     {-7, 100},
                                     {160, 128},   {-10, 33.25},   {4096, 0.5},    {0.25, -3},   {1 << 20, 127.5},
                                     {-(1 << 23), 0}, {61, 0},     {3 * 4096, 200}, {1e-3, 0},   {65535, -0.5}};
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> any(-kMaxCustomSum, kMaxCustomSum);
    for (const Plan& p : plans) {
        const CustomLevels lv = make_custom_levels(p.den, p.off);
        for (int s = -70000; s <= 70000; ++s) check_sum(lv, s, p.den, p.off);
        for (int i = 0; i < 20000; ++i) check_sum(lv, any(rng), p.den, p.off, true);
        for (int k = 1; k <= 255; ++k)
            for (int d = -2; d <= 2; ++d) {
                const std::int64_t s = static_cast<std::int64_t>(lv.bound[k]) * (lv.negate ? -1 : 1) + d;
                if (s >= -kMaxCustomSum && s <= kMaxCustomSum) check_sum(lv, static_cast<int>(s), p.den, p.off, true);
            }
        check_sum(lv, kMaxCustomSum, p.den, p.off);
        check_sum(lv, -kMaxCustomSum, p.den, p.off);
    }
}

TEST_CASE("custom levels: bounds are non-decreasing, with sentinels") {
    const CustomLevels lv = make_custom_levels(-13.0, 77.0);
    CHECK(lv.negate);
    for (int k = 0; k < 256; ++k) CHECK(lv.bound[k] <= lv.bound[k + 1]);
    CHECK(lv.bound[0] < -kMaxCustomSum);
    CHECK(lv.bound[256] > kMaxCustomSum + 1);
}
