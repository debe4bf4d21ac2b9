// Per-sample arithmetic of the filters, shared by the CPU reference and the
// CUDA kernels (see the contract in src/ops/filter.hpp).
#pragma once

#include <cmath>
#include <cstdint>

#include "src/hd.hpp"
#include "src/ops/border.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar {

// The Gaussian intermediate keeps 3 fractional bits (0..2040): small enough
// to be an exact FP16 integer, so the GPU can feed it to FP16 tensor cores.
// Each rounding is (sum + add) >> shift; the constants serve code that takes
// them apart (the CPU's vector sums, src/ops/simd/weighted_rows.hpp).
constexpr int kGaussianHAdd = 256, kGaussianHShift = 9;
constexpr int kGaussianVAdd = 16384, kGaussianVShift = 15;
IMGPAR_HD int gaussian_h_round(int sum) { return (sum + kGaussianHAdd) >> kGaussianHShift; }
IMGPAR_HD int gaussian_v_round(int sum) { return (sum + kGaussianVAdd) >> kGaussianVShift; }
// Intermediate value of a constant-border row in the vertical pass.
IMGPAR_HD int gaussian_h_constant(int v) { return (4096 * v + 256) >> 9; }

IMGPAR_HD int box_output(int sum, int n) { return (sum + n / 2) / n; }

// ImageMagick's test: a sample is left alone where 2|d| < T * QuantumRange,
// i.e. where 2|d| < threshold_level = ceil(T * 255) for integer d. `top` is
// the domain's full scale (255; 65025 in the wide domain, whose threshold
// level is scaled by 255 too).
IMGPAR_HD int unsharp_value(int x, int blurred, int amount_q8, int threshold_level, int top) {
    int d = x - blurred;
    int ad = d < 0 ? -d : d;
    if (2 * ad < threshold_level) return x;
    int v = x + floor_div(amount_q8 * d + 128, 256);
    return v < 0 ? 0 : (v > top ? top : v);
}
IMGPAR_HD int unsharp_output(int x, int blurred, int amount_q8, int threshold_level) {
    return unsharp_value(x, blurred, amount_q8, threshold_level, 255);
}

// |gx|, |gy| <= 4 * 255 (Sobel) or 16 * 255 (Scharr): gx^2 + gy^2 < 2^26.
IMGPAR_HD int sobel_output(int gx, int gy) { return round_sqrt_div_u8(gx * gx + gy * gy, 4); }
IMGPAR_HD int scharr_output(int gx, int gy) { return round_sqrt_div_u8(gx * gx + gy * gy, 16); }
IMGPAR_HD int laplacian_output(int l) {
    int a = l < 0 ? -l : l;
    return a > 255 ? 255 : a;
}

// min(top, max(0, round half away from zero of S / denominator + offset)),
// in IEEE double with no contraction, so host and device round identically.
// S is exact in double (|S| < 2^53 for every sum the contract allows).
IMGPAR_HD int custom_value(double sum, double denominator, double offset, int top) {
#if defined(__CUDA_ARCH__)
    double v = __dadd_rn(__ddiv_rn(sum, denominator), offset);
    double r = v >= 0.0 ? floor(__dadd_rn(v, 0.5)) : ceil(__dadd_rn(v, -0.5));
#else
    volatile double q = sum / denominator;  // volatile: no fused/extended precision
    double v = q + offset;
    double r = v >= 0.0 ? std::floor(v + 0.5) : std::ceil(v - 0.5);
#endif
    if (r < 0.0) return 0;
    if (r > static_cast<double>(top)) return top;
    return static_cast<int>(r);
}
IMGPAR_HD int custom_output(int sum, double denominator, double offset) {
    return custom_value(static_cast<double>(sum), denominator, offset, 255);
}

}  // namespace imgpar
