// The integer arithmetic of resize (src/ops/resize.hpp), one definition for
// the CPU reference and the CUDA kernels: the rows pass turns an input row
// into intermediate samples, the columns pass turns a column of those into an
// output sample; the scales and the exact division say what an intermediate
// and an accumulated sum mean.
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

// round(n / d), ties upward, for 0 <= n < 2^40 and 1 <= d < 2^40, without a
// hardware division: n + d/2 times a reciprocal of d rounded up, in 128 bits
// (the round-up method: exact for every n below 2^40 with k = 41 + ceil(log2 d)).
struct ExactDivider {
    std::uint64_t d = 1;
    std::uint64_t m = 0;  // floor(2^k / d) + 1
    int k = 0;

    static ExactDivider of(std::uint64_t d) {
        ExactDivider r;
        r.d = d;
        int l = 0;
        while ((std::uint64_t{1} << l) < d) ++l;
        r.k = 41 + l;
        const unsigned __int128 one = 1;
        r.m = static_cast<std::uint64_t>((one << r.k) / d + 1);
        return r;
    }
    // floor(n / d) for n < 2^41.
    IMGPAR_HD std::uint64_t floor_div(std::uint64_t n) const {
#if defined(__CUDA_ARCH__)
        const std::uint64_t lo = n * m, hi = __umul64hi(n, m);
        return k >= 64 ? hi >> (k - 64) : (hi << (64 - k)) | (lo >> k);
#else
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * m) >> k);
#endif
    }
    IMGPAR_HD std::uint64_t round(std::uint64_t n) const { return floor_div(n + d / 2); }
};

// floor(v / 2^bits) for any sign (a shift of a negative number is the
// compiler's choice before C++20).
template <typename T>
IMGPAR_HD T floor_shift(T v, int bits) {
    return v >= 0 ? v >> bits : ~((~v) >> bits);
}

// The rows pass of one sample: the weighted sum of its taps, as an
// intermediate. Filter: round(sum / 2^8), half up, keeping 6 fractional bits
// of the value (the weights have 14), signed and unclamped (a
// filter's negative lobes may overshoot; with its weights' magnitudes
// summing to at most 2, an 8-bit sample stays within 16 bits); area: the
// exact sum; gather: the tap.
template <typename Acc>
IMGPAR_HD std::int32_t rows_intermediate(AxisKind kind, Acc sum) {
    if (kind != AxisKind::Filter) return static_cast<std::int32_t>(sum);
    constexpr int shift = kResizeWeightBits - kResizeRowBits;
    return static_cast<std::int32_t>(floor_shift<Acc>(sum + (Acc{1} << (shift - 1)), shift));
}

// What the columns pass's sum of a sample means: the value times
// `divider.d` (the rows pass's scale times the columns pass's).
IMGPAR_HD std::uint64_t axis_scale(AxisKind kind, int in, bool rows) {
    if (kind == AxisKind::Gather) return 1;
    if (kind == AxisKind::Area) return static_cast<std::uint64_t>(in);
    return rows ? (std::uint64_t{1} << kResizeRowBits) : (std::uint64_t{1} << kResizeWeightBits);
}

// An output sample from the columns pass's sum (clamped to 0..255).
template <typename Acc>
IMGPAR_HD int resize_output(Acc sum, const ExactDivider& divider) {
    if (sum <= 0) return 0;
    const std::uint64_t v = divider.round(static_cast<std::uint64_t>(sum));
    return v > 255 ? 255 : static_cast<int>(v);
}

// Premultiplied colour from the columns pass's sums of colour x alpha and of
// alpha: round(p / a), 0 where either is not positive.
IMGPAR_HD int resize_unpremultiply(std::int64_t p, std::int64_t a) {
    if (p <= 0 || a <= 0) return 0;
    const std::int64_t v = (2 * p + a) / (2 * a);
    return v > 255 ? 255 : static_cast<int>(v);
}

}  // namespace imgpar
