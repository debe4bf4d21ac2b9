// The integer arithmetic of resize (src/ops/resize.hpp), one definition for
// the CPU reference and the CUDA kernels: the first pass (down the columns)
// turns input rows into intermediate samples, the second (along the rows)
// turns a row's run of those into an output sample; the scales and the exact
// division say what an intermediate and an accumulated sum mean.
#pragma once

#include <cstdint>

#include "src/hd.hpp"
#include "src/ops/resize.hpp"

namespace imgpar {

// How an axis's pass treats its taps: one tap copied (nearest, identity), a
// fixed-point filter (weights sum to 2^14), or area (weights sum to n).
enum class AxisKind : std::uint8_t { Gather, Filter, Area };

IMGPAR_HD AxisKind axis_kind(ResizeFilter f) {
    return f == ResizeFilter::Area ? AxisKind::Area : f == ResizeFilter::Nearest ? AxisKind::Gather : AxisKind::Filter;
}

// round(n / d), ties upward, for 0 <= n < 2^50 and 1 <= d < 2^40: a shift
// when d is a power of two, else a double-precision estimate corrected with
// integer tests, so the result is exact whatever the estimate's rounding.
struct ExactDivider {
    std::uint64_t d = 1;
    int log2 = 0;  // d = 2^log2, or -1
    double inverse = 1;

    static ExactDivider of(std::uint64_t d) {
        ExactDivider r;
        r.d = d;
        r.log2 = -1;
        for (int b = 0; b < 63; ++b)
            if (d == (std::uint64_t{1} << b)) r.log2 = b;
        r.inverse = 1.0 / static_cast<double>(d);
        return r;
    }
    IMGPAR_HD std::uint64_t round(std::uint64_t n) const {
        const std::uint64_t m = 2 * n + d;  // round(n / d) = floor(m / 2d)
        if (log2 >= 0) return m >> (log2 + 1);
        std::uint64_t q = static_cast<std::uint64_t>(static_cast<double>(n) * inverse + 0.5);
        while (q > 0 && 2 * d * q > m) --q;
        while (2 * d * (q + 1) <= m) ++q;
        return q;
    }
};

// floor(v / 2^bits) for any sign (a shift of a negative number is the
// compiler's choice before C++20).
template <typename T>
IMGPAR_HD T floor_shift(T v, int bits) {
    return v >= 0 ? v >> bits : ~((~v) >> bits);
}

// The first pass of one sample: the weighted sum of its taps, as an
// intermediate. Filter: round(sum / 2^8), half up, keeping 6 fractional bits
// of the value (the weights have 14), signed and unclamped (a
// filter's negative lobes may overshoot; with its weights' magnitudes
// summing to at most 2, an 8-bit sample stays within 16 bits); area: the
// exact sum; gather: the tap.
template <typename Acc>
IMGPAR_HD std::int32_t first_pass_value(AxisKind kind, Acc sum) {
    if (kind != AxisKind::Filter) return static_cast<std::int32_t>(sum);
    constexpr int shift = kResizeWeightBits - kResizeRowBits;
    return static_cast<std::int32_t>(floor_shift<Acc>(sum + (Acc{1} << (shift - 1)), shift));
}

// The same for 16-bit samples (16 BITS in src/ops/resize.hpp): 22-bit
// weights, 4 fractional bits kept, so a filter's first pass drops 18 bits;
// the value is 64-bit (premultiplied colour reaches 2^37 after a filter, and
// area's exact sums more).
// Premultiplied alpha keeps kResizeAlphaBits16 (12) fractional bits: colour
// is P / A, so A's rounding error counts relative to A itself, and an alpha
// a few units above 0 with 4 bits would move a 16-bit colour by tens of
// levels.
IMGPAR_HD std::int64_t first_pass_value16(AxisKind kind, std::int64_t sum, bool premultiplied_alpha = false) {
    if (kind != AxisKind::Filter) return sum;
    const int shift = kResizeWeightBits16 - (premultiplied_alpha ? kResizeAlphaBits16 : kResizeRowBits16);
    return floor_shift<std::int64_t>(sum + (std::int64_t{1} << (shift - 1)), shift);
}

// What premultiplied alpha's first-pass scale is beyond colour's: 2^k, k = 8
// after a filter, 0 otherwise (area and copies keep exact sums).
IMGPAR_HD constexpr int premultiplied_alpha_shift16(AxisKind first_kind) {
    return first_kind == AxisKind::Filter ? kResizeAlphaBits16 - kResizeRowBits16 : 0;
}

// Output alpha from its second-pass sum `a` (scale d 2^k, d the plain
// channels' divisor): round(a / (d 2^k)), half up, in 64-bit integers (a
// below 2^61).
IMGPAR_HD int resize_alpha16(std::int64_t a, std::uint64_t d, int k) {
    if (a <= 0) return 0;
    const std::uint64_t D = d << k;
    const std::uint64_t v = (2 * static_cast<std::uint64_t>(a) + D) / (2 * D);
    return v > 65535 ? 65535 : static_cast<int>(v);
}

// Colour from the sums of colour x alpha `p` and of alpha `a` (a's scale 2^k
// times p's): round(p 2^k / a), half up, 0 where either is not positive.
// Exact in 64 bits for a below 2^52 and k <= 8: with p = q a + r (r < a),
// round(p 2^k / a) = q 2^k + floor((r 2^(k+1) + a) / (2a)).
IMGPAR_HD int resize_unpremultiply16(std::int64_t p, std::int64_t a, int k) {
    if (p <= 0 || a <= 0) return 0;
    const std::int64_t q = p / a, r = p - q * a;
    if (q > 65535) return 65535;
    const std::int64_t v = (q << k) + ((r << (k + 1)) + a) / (2 * a);
    return v > 65535 ? 65535 : static_cast<int>(v);
}

// What a pass's sums mean: the value times this, for an axis whose
// weights sum to `sum` (ResizeAxis::sum). The second pass's sum of a sample
// is the value times the first pass's scale times the second's.
// `row_bits`: the fractional bits a filter's first pass keeps
// (kResizeRowBits; kResizeRowBits16 for 16-bit samples).
IMGPAR_HD std::uint64_t axis_scale(AxisKind kind, std::int64_t sum, bool first_pass, int row_bits = kResizeRowBits) {
    if (kind == AxisKind::Filter && first_pass) return std::uint64_t{1} << row_bits;
    return static_cast<std::uint64_t>(sum);
}

// An output sample from the second pass's sum (clamped to 0..top: 255, or
// 65535 for 16-bit samples).
template <typename Acc>
IMGPAR_HD int resize_output(Acc sum, const ExactDivider& divider, int top = 255) {
    if (sum <= 0) return 0;
    const std::uint64_t v = divider.round(static_cast<std::uint64_t>(sum));
    return v > static_cast<std::uint64_t>(top) ? top : static_cast<int>(v);
}

// Premultiplied colour from the second pass's sums of colour x alpha and of
// alpha: round(p / a), 0 where either is not positive (clamped to top).
IMGPAR_HD int resize_unpremultiply(std::int64_t p, std::int64_t a, int top = 255) {
    if (p <= 0 || a <= 0) return 0;
    const std::int64_t v = (2 * p + a) / (2 * a);
    return v > top ? top : static_cast<int>(v);
}

}  // namespace imgpar
