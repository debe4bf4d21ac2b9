// The arithmetic of the adaptive threshold (src/ops/adaptive_threshold.hpp),
// shared by the CPU reference and the GPU kernel so both decide every pixel
// with the same operations in the same order: window sums from the
// intensity's summed-area tables (exact integers), then the level in double
// precision with each product and sum rounded on its own (no fused
// multiply-add on either side).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "src/hd.hpp"
#include "src/ops/rounded_math.hpp"

namespace imgpar {

enum class AdaptiveMethod { Mean, Sauvola, Niblack };

// The part of a window's span along one axis (center - radius ..
// center + radius) that lies inside 0..size-1, and what stands for the rest:
// up to three ranges [lo, hi) of the image, each counted `weight` times.
// Replicate (mean, as OpenCV's adaptiveThreshold): the edge sample once per
// position outside. Reflect-101 (Sauvola, Niblack, as scikit-image's
// numpy.pad 'reflect'): -1 is 1, size is size-2. Needs radius < size.
struct AxisRanges {
    int lo[3], hi[3], weight[3];
    int count;
};

IMGPAR_HD AxisRanges axis_ranges(int center, int radius, int size, bool replicate) {
    AxisRanges r{};
    const int before = radius - center > 0 ? radius - center : 0;                 // positions below 0
    const int after = center + radius - (size - 1) > 0 ? center + radius - (size - 1) : 0;  // above size-1
    const int lo = center - radius < 0 ? 0 : center - radius;
    const int hi = center + radius + 1 > size ? size : center + radius + 1;
    r.lo[0] = lo, r.hi[0] = hi, r.weight[0] = 1, r.count = 1;
    if (before > 0) {
        if (replicate) r.lo[r.count] = 0, r.hi[r.count] = 1, r.weight[r.count] = before;
        else r.lo[r.count] = 1, r.hi[r.count] = before + 1, r.weight[r.count] = 1;
        ++r.count;
    }
    if (after > 0) {
        if (replicate) r.lo[r.count] = size - 1, r.hi[r.count] = size, r.weight[r.count] = after;
        else r.lo[r.count] = size - 1 - after, r.hi[r.count] = size - 1, r.weight[r.count] = 1;
        ++r.count;
    }
    return r;
}

// A summed-area table of one channel (cv2.integral's layout, u64), rows
// `pitch` bytes apart.
struct PlaneTable {
    const unsigned long long* data;
    std::size_t pitch;
    IMGPAR_HD unsigned long long at(int x, int y) const {
        return reinterpret_cast<const unsigned long long*>(reinterpret_cast<const unsigned char*>(data) +
                                                           static_cast<std::size_t>(y) * pitch)[x];
    }
    IMGPAR_HD unsigned long long rect(int x0, int x1, int y0, int y1) const {
        return at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0);
    }
};

// The window's sum over the tables (weights as axis_ranges says).
IMGPAR_HD unsigned long long window_sum(const PlaneTable& t, const AxisRanges& xs, const AxisRanges& ys) {
    unsigned long long sum = 0;
    for (int j = 0; j < ys.count; ++j)
        for (int i = 0; i < xs.count; ++i)
            sum += static_cast<unsigned long long>(xs.weight[i]) * static_cast<unsigned long long>(ys.weight[j]) *
                   t.rect(xs.lo[i], xs.hi[i], ys.lo[j], ys.hi[j]);
    return sum;
}

struct AdaptiveParams {
    AdaptiveMethod method;
    long long n;    // samples in a window: window^2
    int offset;     // mean: ceil(C), as OpenCV rounds it
    double k, r;    // Sauvola, Niblack
    // adaptive_decision_fast's single-precision constants: 1/n, 1/n^2, 1/r, k.
    float inv_n, inv_n2, inv_r, k_single;
};

// 255 when intensity v is above the window's level, else 0. `sum`, `squares`:
// the window's sums of v and v^2.
//   mean:    level = round(sum / n) - ceil(C)                       (OpenCV, mean rounded to 8 bits)
//   Niblack: level = m - k * s                                      (scikit-image)
//   Sauvola: level = m * (1 + k * (s / r - 1))                      (scikit-image)
// with m = sum / n and s = sqrt((n * squares - sum^2) / n^2), the variance's
// numerator an exact integer.
IMGPAR_HD int adaptive_decision(int v, unsigned long long sum, unsigned long long squares, const AdaptiveParams& p) {
    const unsigned long long n = static_cast<unsigned long long>(p.n);
    if (p.method == AdaptiveMethod::Mean) {
        // round(sum / n), n odd: never a tie. In 32 bits where it fits (the
        // same quotient; a 64-bit division costs the GPU several times more).
        const long long mean =
            sum < (1ull << 30) && n < (1ull << 15)
                ? static_cast<long long>((2u * static_cast<unsigned>(sum) + static_cast<unsigned>(n)) /
                                         (2u * static_cast<unsigned>(n)))
                : static_cast<long long>((2 * sum + n) / (2 * n));
        return v > mean - p.offset ? 255 : 0;
    }
    const double m = static_cast<double>(sum) / static_cast<double>(n);
    const long long spread = static_cast<long long>(n * squares) - static_cast<long long>(sum * sum);
    if (spread == 0) {
        // Every sample of the window is equal (Cauchy-Schwarz): s = 0 exactly,
        // and the level below reduces to m (Niblack) or m (1 - k) (Sauvola),
        // the same operations on the same values. Flat areas reach here for
        // every pixel (the fast estimate cannot decide v = level, as in a
        // scan's black margins), so they skip the square root and divisions.
        const double level = p.method == AdaptiveMethod::Niblack ? m : mul_rn(m, add_rn(1.0, -p.k));
        return static_cast<double>(v) > level ? 255 : 0;
    }
    const double variance = static_cast<double>(spread) / (static_cast<double>(n) * static_cast<double>(n));
    const double s = sqrt(variance > 0 ? variance : 0.0);
    double level;
    if (p.method == AdaptiveMethod::Niblack)
        level = add_rn(m, -mul_rn(p.k, s));
    else
        level = mul_rn(m, add_rn(1.0, mul_rn(p.k, add_rn(s / p.r, -1.0))));
    return static_cast<double>(v) > level ? 255 : 0;
}

// The mean method's decision without a division, for window sums that fit
// 31 bits: v > round(s / n) - offset  <=>  2 s < n (2 t - 1), t = v + offset,
// since round(s / n) = floor((2 s + n) / (2 n)) < t exactly when
// 2 s + n < 2 n t. t is clamped to 0..256 first (the rounded mean lies in
// 0..255, so no answer changes) to keep n (2 t - 1) within 31 bits for
// n * 511 < 2^31. Returns 255 or 0, as adaptive_decision does.
IMGPAR_HD int adaptive_mean_decision(std::uint32_t sum, int v, std::int32_t n, int offset) {
    int t = v + offset;
    t = t < 0 ? 0 : (t > 256 ? 256 : t);
    return 2 * static_cast<std::int32_t>(sum) < n * (2 * t - 1) ? 255 : 0;
}

// adaptive_mean_decision as one comparison with a bound linear in v, for a
// kernel that decides many pixels of one window size: with n odd (W odd) and
// o = offset clamped to -256..256,
//   2 s < n (2 t - 1)  <=>  s < n (v + o) - (n - 1) / 2.
// For t = v + offset in 1..256 both sides of 2 s < X (X = n (2t - 1), odd)
// are integers, so it is s <= (X - 1) / 2 = n t - (n + 1) / 2. Where the
// decision's clamp acts, the bound lies past every sum: v + o <= 0 gives a
// bound <= 0 (never, as t = 0), v + o >= 256 one above 255 n (always, as t =
// 256); clamping the offset to 256 keeps n (v + o) within 31 bits.
// adaptive_mean_bound_base(n, offset) is the part without v.
IMGPAR_HD std::int32_t adaptive_mean_bound_base(std::int32_t n, int offset) {
    const int o = offset < -256 ? -256 : (offset > 256 ? 256 : offset);
    return n * o - (n - 1) / 2;
}
IMGPAR_HD int adaptive_mean_decision_linear(std::int32_t sum, int v, std::int32_t n, std::int32_t base) {
    return sum < n * v + base ? 255 : 0;
}

// adaptive_decision's result, for most pixels without its double-precision
// arithmetic: the level estimated in single precision is at most
// 14 * 2^-24 * (|m| + |k| m (s/r + 1)) from the exact level (Sauvola; m +
// |k| s for Niblack: a few roundings of 2^-24 each, relative to the terms'
// magnitudes), and the double level far closer still. Where v lies more
// than 64 * 2^-24 times those magnitudes from the estimate, both levels are
// on the same side of v; only nearer pixels (a small fraction on photos)
// run the reference. Fused multiply-adds only shrink the estimate's error.
IMGPAR_HD int adaptive_decision_fast(int v, unsigned long long sum, unsigned long long squares, const AdaptiveParams& p) {
    if (p.method == AdaptiveMethod::Mean) return adaptive_decision(v, sum, squares, p);
    const unsigned long long n = static_cast<unsigned long long>(p.n);
    const float m = static_cast<float>(sum) * p.inv_n;
    const long long spread = static_cast<long long>(n * squares) - static_cast<long long>(sum * sum);
    const float variance = static_cast<float>(spread) * p.inv_n2;
    const float s = sqrtf(variance > 0 ? variance : 0.0f);
    const float k = p.k_single, abs_k = k < 0 ? -k : k;
    constexpr float kTolerance = 64.0f / 16777216.0f;  // 64 * 2^-24
    float level, bound;
    if (p.method == AdaptiveMethod::Niblack) {
        level = m - k * s;
        bound = kTolerance * (m + abs_k * s);
    } else {
        const float t = s * p.inv_r;
        level = m * (1.0f + k * (t - 1.0f));
        bound = kTolerance * m * (1.0f + abs_k * (t + 1.0f));
    }
    const float d = static_cast<float>(v) - level;
    if (d > bound) return 255;
    if (d < -bound) return 0;
    return adaptive_decision(v, sum, squares, p);
}

// --- 16 bits ---------------------------------------------------------------------

// a * b as 128 bits (hi, lo): the same integers on the host and the device.
IMGPAR_HD void mul_u64_wide(unsigned long long a, unsigned long long b, unsigned long long& hi, unsigned long long& lo) {
#if defined(__CUDA_ARCH__)
    hi = __umul64hi(a, b);
    lo = a * b;
#else
    const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
    hi = static_cast<unsigned long long>(p >> 64);
    lo = static_cast<unsigned long long>(p);
#endif
}

// adaptive_decision for 16-bit intensities (src/ops/adaptive_threshold.hpp,
// 16-BIT CONTRACT): 65535 when v is above the level, else 0. A window's sum
// of squares reaches n * 65535^2 (2^54 for n = 2047^2), so n * squares and
// sum^2 need 128 bits: the variance's numerator is computed exactly as two
// 64-bit words (hi, lo) and converted as hi * 2^64 + lo, each step rounded
// on its own, the same on both backends. `r` is p.r (the caller passes the
// 16-bit spec's). Every level is computed in double in the 8-bit order.
IMGPAR_HD int adaptive_decision16(int v, unsigned long long sum, unsigned long long squares, const AdaptiveParams& p) {
    const unsigned long long n = static_cast<unsigned long long>(p.n);
    if (p.method == AdaptiveMethod::Mean) {
        const long long mean = static_cast<long long>((2 * sum + n) / (2 * n));  // n odd: no tie
        return v > mean - p.offset ? 65535 : 0;
    }
    const double m = static_cast<double>(sum) / static_cast<double>(n);
    unsigned long long a_hi, a_lo, b_hi, b_lo;
    mul_u64_wide(n, squares, a_hi, a_lo);
    mul_u64_wide(sum, sum, b_hi, b_lo);
    // n * squares >= sum^2 (Cauchy-Schwarz): the difference is >= 0.
    const unsigned long long d_lo = a_lo - b_lo;
    const unsigned long long d_hi = a_hi - b_hi - (a_lo < b_lo ? 1ull : 0ull);
    if (d_hi == 0 && d_lo == 0) {
        const double level = p.method == AdaptiveMethod::Niblack ? m : mul_rn(m, add_rn(1.0, -p.k));
        return static_cast<double>(v) > level ? 65535 : 0;
    }
    const double spread = add_rn(mul_rn(static_cast<double>(d_hi), 18446744073709551616.0), static_cast<double>(d_lo));
    const double variance = spread / (static_cast<double>(n) * static_cast<double>(n));
    const double s = sqrt(variance > 0 ? variance : 0.0);
    double level;
    if (p.method == AdaptiveMethod::Niblack)
        level = add_rn(m, -mul_rn(p.k, s));
    else
        level = mul_rn(m, add_rn(1.0, mul_rn(p.k, add_rn(s / p.r, -1.0))));
    return static_cast<double>(v) > level ? 65535 : 0;
}

}  // namespace imgpar
