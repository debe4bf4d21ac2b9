// Integer pixel arithmetic shared, as one definition, by the CPU reference and
// the CUDA kernels. This is where the exactness contract lives: both backends
// call these functions, so their results agree byte for byte.
#pragma once

#include <cmath>
#include <cstdint>

#include "src/hd.hpp"

namespace imgpar {

IMGPAR_HD int clamp_u8(int v) { return v < 0 ? 0 : (v > 255 ? 255 : v); }

// Luma from 8-bit R'G'B' with Rec. 601 weights in 8-bit fixed point
// (0.299, 0.587, 0.114 -> 77, 150, 29; they sum to 256).
IMGPAR_HD int luma601(int r, int g, int b) { return (77 * r + 150 * g + 29 * b + 128) >> 8; }

// floor(a / b) for b > 0 (C++ '/' truncates toward zero).
IMGPAR_HD int floor_div(int a, int b) {
    int q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

// min(top, round(sqrt(m) / d)), exactly, ties upward, for m >= 0 and
// 1 <= d <= 16, where (2 top + 1)^2 d^2 and 4m fit T (int: top 255, m < 2^28;
// int64: top 65025 for the wide domain of src/ops/wide_math.hpp). The rounded
// value is the k with (2k-1)^2 d^2 <= 4m < (2k+1)^2 d^2; at least top exactly
// when k = top passes the left test. Otherwise a float estimate is corrected
// with those integer tests, so the host and device agree whatever their sqrtf.
// On the device the estimate is m times the hardware's reciprocal square root
// (within 2 ulp, one instruction and a multiply, where sqrtf's correctly
// rounded result takes a sequence with a branch): the tests need only a k
// within a step or two of the answer.
template <typename T>
IMGPAR_HD int round_sqrt_div(T m, int d, int top) {
    const T dd = static_cast<T>(d) * d;
    const T edge = 2 * static_cast<T>(top) - 1;
    if (edge * edge * dd <= 4 * m) return top;
#if defined(__CUDA_ARCH__)
    const float fm = static_cast<float>(m);
    const float root = m > 0 ? fm * rsqrtf(fm) : 0.0f;
    T k = static_cast<T>(root / static_cast<float>(d) + 0.5f);
#else
    T k = static_cast<T>(sqrtf(static_cast<float>(m)) / static_cast<float>(d) + 0.5f);
#endif
    while (k > 0 && (2 * k - 1) * (2 * k - 1) * dd > 4 * m) --k;
    while ((2 * k + 1) * (2 * k + 1) * dd <= 4 * m) ++k;
    return static_cast<int>(k);
}

IMGPAR_HD int round_sqrt_div_u8(int m, int d) { return round_sqrt_div<int>(m, d, 255); }

}  // namespace imgpar
