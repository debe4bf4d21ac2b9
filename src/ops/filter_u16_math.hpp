// Per-sample arithmetic of the filters on 16-bit images (the 16-bit contract
// in src/ops/filter.hpp), one definition shared by the CPU reference
// (src/ops/filter_cpu_u16.cpp) and the CUDA kernels (cuda/filter_u16.cu), so
// their results agree sample for sample.
//
// Two working domains, as for 8 bits:
//   Deep      images without alpha: the samples themselves, 0..65535;
//   DeepWide  images with alpha: P = c * a per colour and A = 65535 * a,
//             both up to 65535^2 = 4294836225 (exactly, in uint32), so that
//             P / A = c / 65535 with nothing rounded on the way in (a 16-bit
//             premultiply would keep only a + 1 levels of colour at alpha a).
// Accumulator widths follow from those ranges: 16-bit taps summing to 2^16
// times Deep samples fit uint32 exactly (65535 * 65536 + 32768 < 2^32);
// everything on DeepWide lanes, box windows and custom sums take 64 bits.
#pragma once

#include <cmath>
#include <cstdint>

#include "src/hd.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_math.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar {

constexpr int kTop16 = 65535;
constexpr std::uint64_t kWideTop16 = 65535ull * 65535ull;  // full scale of P and A
// 16-bit Gaussian taps: kGaussianTapSum16 = 2^16 in all (gaussian_taps16).
constexpr std::uint32_t kGaussianAdd16 = 1u << 15;
constexpr int kGaussianShift16 = 16;

// An 8-bit level (the border's constant V, a custom kernel's offset) in
// 16-bit terms: 255 -> 65535, as an 8-bit image widens (v * 257).
IMGPAR_HD int level16(int v8) { return 257 * v8; }

// --- Deep (no alpha) ------------------------------------------------------------

// One Gaussian rounding, both passes: (sum + 2^15) >> 16, sum in uint32.
// A row of constant V gives V back exactly (the taps sum to 2^16).
IMGPAR_HD std::uint32_t gaussian_round16(std::uint32_t sum) { return (sum + kGaussianAdd16) >> kGaussianShift16; }

// Box: (S + n/2) / n with S (uint64, up to 65535 * 2001^2 < 2^38) over n.
IMGPAR_HD int box_output16(std::uint64_t sum, int n) {
    return static_cast<int>((sum + static_cast<std::uint64_t>(n / 2)) / static_cast<std::uint64_t>(n));
}

// The unsharp threshold in 16-bit levels: ceil(threshold * 65535), with the
// slack the 8-bit level has (filter_plan.cpp), compared with 2|d|.
inline int threshold_level16(double threshold) {
    const double v = threshold * 65535.0 - 1e-9;
    const int level = static_cast<int>(v);
    return level < v ? level + 1 : (level < 0 ? 0 : level);
}

// Unsharp on 16-bit samples: amount_q8 * d fits int32 (5120 * 65535 < 2^29).
IMGPAR_HD int unsharp_output16(int x, int blurred, int amount_q8, int threshold_level) {
    return unsharp_value(x, blurred, amount_q8, threshold_level, kTop16);
}

// Edges: |gx|, |gy| <= 16 * 65535 (Scharr), so gx^2 + gy^2 (< 2^42) takes
// 64 bits; round_sqrt_div's conditions hold for top 65535 in int64.
IMGPAR_HD int edge_output16(EdgeOperator op, int gx, int gy) {
    const std::int64_t m = static_cast<std::int64_t>(gx) * gx + static_cast<std::int64_t>(gy) * gy;
    switch (op) {
        case EdgeOperator::Sobel: return round_sqrt_div<std::int64_t>(m, 4, kTop16);
        case EdgeOperator::Scharr: return round_sqrt_div<std::int64_t>(m, 16, kTop16);
        case EdgeOperator::Laplacian:
        default: {
            const int l = gx < 0 ? -gx : gx;
            return l > kTop16 ? kTop16 : l;
        }
    }
}

// Luma601 of 16-bit samples, the 8-bit weights (77, 150, 29; sum 256): the
// sum is below 2^25, exact in int.
IMGPAR_HD int luma601_16(int r, int g, int b) { return (77 * r + 150 * g + 29 * b + 128) >> 8; }

// min(top, max(0, round half away from zero of S / denominator + offset)) in
// IEEE double with no contraction (custom_value's rule, a 64-bit top). S is
// exact in double: |S| <= 65535 * 65535^2 < 2^53 in either domain.
IMGPAR_HD std::int64_t custom_value64(double sum, double denominator, double offset, std::int64_t top) {
#if defined(__CUDA_ARCH__)
    const double v = __dadd_rn(__ddiv_rn(sum, denominator), offset);
    const double r = v >= 0.0 ? floor(__dadd_rn(v, 0.5)) : ceil(__dadd_rn(v, -0.5));
#else
    volatile double q = sum / denominator;  // volatile: no fused/extended precision
    const double v = q + offset;
    const double r = v >= 0.0 ? std::floor(v + 0.5) : std::ceil(v - 0.5);
#endif
    if (r < 0.0) return 0;
    if (r > static_cast<double>(top)) return top;
    return static_cast<std::int64_t>(r);
}

// --- DeepWide (alpha) -------------------------------------------------------------

IMGPAR_HD std::uint32_t premultiply16(int c, int a) {
    return static_cast<std::uint32_t>(c) * static_cast<std::uint32_t>(a);
}
IMGPAR_HD std::uint32_t alpha_wide16(int a) { return 65535u * static_cast<std::uint32_t>(a); }
// Lane `lane` of a pixel with colour `c` for that lane and alpha `a`.
IMGPAR_HD std::uint32_t wide_lane16(int lane, int colours, int c, int a) {
    return lane < colours ? premultiply16(c, a) : alpha_wide16(a);
}

// Luma of three P lanes (int64: 256 * 65535^2 < 2^41).
IMGPAR_HD std::int64_t luma601_wide16(std::int64_t r, std::int64_t g, std::int64_t b) {
    return (77 * r + 150 * g + 29 * b + 128) >> 8;
}

// Which lanes a pixel gives a filter.
enum class LaneKind16 : int {
    Samples = 0,    // Deep: every channel
    Luma = 1,       // Deep RGB, gray edges: luma601_16
    WithAlpha = 2,  // DeepWide: P per colour, then A (Gaussian, box, custom)
    Colours = 3,    // DeepWide: P per colour (unsharp, edges)
    WideLuma = 4,   // DeepWide RGBA, gray edges: luma601_wide16 of the P lanes
};
IMGPAR_HD bool lane_kind_wide(LaneKind16 k) { return static_cast<int>(k) >= static_cast<int>(LaneKind16::WithAlpha); }
IMGPAR_HD constexpr int lane_count16(LaneKind16 k, int channels) {
    switch (k) {
        case LaneKind16::Samples:
        case LaneKind16::WithAlpha: return channels;
        case LaneKind16::Colours: return channels - 1;
        default: return 1;
    }
}
// Lane l of the pixel at px (`channels` samples), as the kind says.
IMGPAR_HD std::uint32_t lane16(LaneKind16 k, const std::uint16_t* px, int channels, int l) {
    const int colours = channels - 1;
    switch (k) {
        case LaneKind16::Samples: return px[l];
        case LaneKind16::Luma: return static_cast<std::uint32_t>(luma601_16(px[0], px[1], px[2]));
        case LaneKind16::WithAlpha: return wide_lane16(l, colours, px[l < colours ? l : 0], px[colours]);
        case LaneKind16::Colours: return premultiply16(px[l], px[colours]);
        case LaneKind16::WideLuma:
        default:
            return static_cast<std::uint32_t>(
                luma601_wide16(premultiply16(px[0], px[3]), premultiply16(px[1], px[3]), premultiply16(px[2], px[3])));
    }
}

// Gaussian on DeepWide lanes: the same rounding in uint64 (sum <= 2^16 *
// 65535^2 < 2^48); the result is a lane again (<= 65535^2, uint32).
IMGPAR_HD std::uint32_t gaussian_round_wide16(std::uint64_t sum) {
    return static_cast<std::uint32_t>((sum + kGaussianAdd16) >> kGaussianShift16);
}

// Box on DeepWide lanes: S up to 2001^2 * 65535^2 < 2^54 (not exact in
// double, so an integer division), rounded half up.
IMGPAR_HD std::uint32_t box_output_wide16(std::uint64_t sum, int n) {
    return static_cast<std::uint32_t>((sum + static_cast<std::uint64_t>(n / 2)) / static_cast<std::uint64_t>(n));
}

// The output alpha of a filter that filters alpha: round(A' / 65535) (never
// halfway: 65535 is odd).
IMGPAR_HD int alpha16(std::uint64_t a_wide) { return static_cast<int>((a_wide + 32767u) / 65535u); }

// c' = min(65535, round(65535 * P / A)), ties up; 0 where A is 0. With A =
// alpha_wide16(a) this is round(P / a). 2 * 65535 * P < 2^50.
IMGPAR_HD int unpremultiply16(std::uint64_t p, std::uint64_t a_wide) {
    if (a_wide == 0) return 0;
    const std::uint64_t c = (2u * 65535u * p + a_wide) / (2u * a_wide);
    return c > 65535u ? 65535 : static_cast<int>(c);
}
// A pixel whose output alpha is 0 gets colour 0 (as for 8 bits).
IMGPAR_HD int unpremultiply_filtered16(std::uint64_t p, std::uint64_t a_wide) {
    return alpha16(a_wide) == 0 ? 0 : unpremultiply16(p, a_wide);
}
// Unsharp and edges keep the pixel's own alpha a: round(P' / a), 0 where a is 0.
IMGPAR_HD int unpremultiply_kept16(std::uint64_t p, int a) {
    if (a <= 0) return 0;
    const std::uint64_t c = (2u * p + static_cast<std::uint64_t>(a)) / (2u * static_cast<std::uint64_t>(a));
    return c > 65535u ? 65535 : static_cast<int>(c);
}

// floor(a / b) for b > 0, 64-bit.
IMGPAR_HD std::int64_t floor_div64(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

// Unsharp on P: d = P - b (|d| < 2^32), the threshold scaled by 65535, the
// result clamped to 0..65535^2; amount_q8 * d < 5120 * 2^32 < 2^45.
IMGPAR_HD std::uint32_t unsharp_output_wide16(std::uint32_t x, std::uint32_t blurred, int amount_q8,
                                              int threshold_level) {
    const std::int64_t d = static_cast<std::int64_t>(x) - static_cast<std::int64_t>(blurred);
    const std::int64_t ad = d < 0 ? -d : d;
    if (2 * ad < 65535ll * threshold_level) return x;
    const std::int64_t v = static_cast<std::int64_t>(x) + floor_div64(amount_q8 * d + 128, 256);
    return static_cast<std::uint32_t>(
        v < 0 ? 0 : (v > static_cast<std::int64_t>(kWideTop16) ? static_cast<std::int64_t>(kWideTop16) : v));
}

// Edges on P: |gx|, |gy| <= 16 * 65535^2 < 2^37, so gx^2 + gy^2 < 2^75 takes
// 128 bits. min(top, round(sqrt(m) / d)), ties up: the k with
// (2k-1)^2 d^2 <= 4m < (2k+1)^2 d^2 (top as soon as k = top passes the left
// test), from a double estimate corrected with exact integer tests, so the
// host and the device agree whatever their sqrt.
__extension__ typedef unsigned __int128 u128;
IMGPAR_HD std::uint64_t round_sqrt_div128(u128 m, int d, std::uint64_t top) {
    const u128 dd = static_cast<u128>(d) * static_cast<u128>(d);
    const u128 m4 = 4 * m;
    const u128 edge = 2 * static_cast<u128>(top) - 1;
    if (edge * edge * dd <= m4) return top;
    const double md = static_cast<double>(static_cast<std::uint64_t>(m >> 64)) * 18446744073709551616.0 +
                      static_cast<double>(static_cast<std::uint64_t>(m));
    std::uint64_t k = static_cast<std::uint64_t>(sqrt(md) / d + 0.5);
    while (k > 0 && (2 * static_cast<u128>(k) - 1) * (2 * static_cast<u128>(k) - 1) * dd > m4) --k;
    while ((2 * static_cast<u128>(k) + 1) * (2 * static_cast<u128>(k) + 1) * dd <= m4) ++k;
    return k;
}

IMGPAR_HD std::uint64_t edge_output_wide16(EdgeOperator op, std::int64_t gx, std::int64_t gy) {
    switch (op) {
        case EdgeOperator::Sobel:
        case EdgeOperator::Scharr: {
            const u128 ax = static_cast<u128>(gx < 0 ? -gx : gx), ay = static_cast<u128>(gy < 0 ? -gy : gy);
            return round_sqrt_div128(ax * ax + ay * ay, op == EdgeOperator::Sobel ? 4 : 16, kWideTop16);
        }
        case EdgeOperator::Laplacian:
        default: {
            const std::uint64_t l = static_cast<std::uint64_t>(gx < 0 ? -gx : gx);
            return l > kWideTop16 ? kWideTop16 : l;
        }
    }
}

}  // namespace imgpar
