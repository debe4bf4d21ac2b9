// The CPU box filter's rounding, out = (S + n/2) / n (filter.hpp), as a
// multiply by a precomputed reciprocal instead of an integer division per
// sample: a multiply vectorises and is many times cheaper than a divide.
//
// Why it is exact. Let a = S + n/2 >= 0, Q = a / n = k + f/n with k the wanted
// quotient and 0 <= f <= n - 1, and n = (2R+1)^2 <= 2001^2 < 2^22, so
// f/n <= 1 - 2^-22. Q <= top + 1 with top = 65025 (wide) or 255 (narrow),
// so Q < 2^17, and a < 2^53 converts to double exactly.
//   inv = fl(1/n) = (1 + e1)/n and p = fl(a * inv) = Q (1 + e1)(1 + e2) with
//   |e1|, |e2| <= 2^-53, so |p - Q| < Q * 2^-51 < 2^-34. Adding the bias
//   2^-30 rounds once more, by at most half an ulp of a number below 2^17,
//   2^-36 (with a fused multiply-add, where the flags allow one, only once
//   in all: the bound holds too). So Q < p + bias < Q + 2^-29: above k, and
//   below k + 1 - 2^-22 + 2^-29 < k + 1. Truncation gives k.
// tests/test_filter_box_oracle.cpp checks every step of every n the filter
// can use; the result is monotonic in a, so the steps are every case.
#pragma once

#include <cstdint>

namespace imgpar::cpu::detail {

class BoxRounding {
public:
    explicit BoxRounding(int n) : half_(n / 2), inv_(1.0 / n) {}
    // (sum + n/2) / n for 0 <= sum <= 65025 * n.
    int operator()(std::int32_t sum) const { return quotient(static_cast<double>(sum + half_)); }
    int operator()(std::int64_t sum) const { return quotient(static_cast<double>(sum + half_)); }
    int half() const { return half_; }
    // floor(a / n) for the a above, given as a double.
    int quotient(double a) const { return static_cast<int>(a * inv_ + kBias); }

private:
    static constexpr double kBias = 1.0 / (1 << 30);
    int half_;
    double inv_;
};

}  // namespace imgpar::cpu::detail
