// A faster, exact way to evaluate custom_output (src/ops/filter_math.hpp)
// for every sum of one plan.
//
// custom_output(S, denominator, offset) is monotone in S: IEEE division and
// addition are monotone, and so are rounding and clamping. Non-decreasing for
// a positive denominator, non-increasing for a negative one, so in terms of
// S' = sign(denominator) * S it steps up from 0 to 255 at (at most) 255
// places. Once those are known, a level costs one float estimate and a
// comparison or two against them instead of an IEEE double division per
// sample. The bounds are computed from custom_output itself, so the result is
// the contract's, bit for bit, for every |S| <= kMaxCustomSum.
#pragma once

#include <cstdint>

#include "src/hd.hpp"

namespace imgpar {

// |S| never exceeds 255 * 65535 (kMaxKernelAbsSum) < 2^24.
constexpr std::int32_t kMaxCustomSum = 1 << 24;

struct CustomLevels {
    // bound[k], k = 1..255: the smallest S' whose output is at least k
    // (kMaxCustomSum + 1 where no S' reaches k). bound[0] and bound[256] are
    // sentinels below and above every S'.
    std::int32_t bound[257];
    bool negate = false;  // S' = -S (negative denominator)
    float inverse = 0.f;  // 1 / |denominator|, for the estimate only
    float offset = 0.f;   // likewise
};

CustomLevels make_custom_levels(double denominator, double offset);

// custom_output(sum, denominator, offset) for the plan `levels` was made for:
// the estimate may be off by a level or so near a rounding boundary, and the
// bounds settle it exactly.
IMGPAR_HD int custom_level(int sum, const std::int32_t* bound, bool negate, float inverse, float offset) {
    const int s = negate ? -sum : sum;
    float e = static_cast<float>(s) * inverse + offset;
    e = e < 0.f ? 0.f : (e > 255.f ? 255.f : e);  // also maps NaN to 255 (never produced)
    int k = static_cast<int>(e + 0.5f);
    while (s >= bound[k + 1]) ++k;
    while (s < bound[k]) --k;
    return k;
}

}  // namespace imgpar
