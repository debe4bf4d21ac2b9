// Filter arithmetic for images with alpha (gray+alpha, RGBA): the wide
// premultiplied domain of the contract in src/ops/filter.hpp, one definition
// shared by the CPU reference and the CUDA kernels (cuda/filter_wide.cu), so
// their results agree byte for byte.
//
// Why wide: colour premultiplied into 8 bits keeps only a + 1 levels at alpha
// a (3 at alpha 2), so unpremultiplying a filtered pixel of low alpha lands
// far from the true colour. Here colour is premultiplied exactly, P = c * a
// (0..65025), and alpha rides on the same scale, A = 255 * a, so P / A is
// c / 255 with nothing rounded on the way in. Both fit 16 bits.
//
// Lanes: a filter that filters alpha (Gaussian, box, custom) works on
// colours + 1 lanes per pixel, the premultiplied colours P and the wide alpha
// A; the output alpha byte is A' rounded to 8 bits. Unsharp and edges keep
// alpha: their lanes are the colours only.
#pragma once

#include <cstdint>

#include "src/hd.hpp"
#include "src/ops/border.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_math.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar {

constexpr int kWideTop = 255 * 255;  // full scale of P and A
constexpr int kMaxWideLanes = kMaxChannels;

IMGPAR_HD int premultiply_wide(int c, int a) { return c * a; }
IMGPAR_HD int alpha_wide(int a) { return 255 * a; }

// c' = min(255, round(255 * P / A)), ties up; 0 where A is 0. For unsharp
// and edges, which keep the pixel's own alpha a, A = alpha_wide(a) and this
// is round(P / a). Exact in int32: 510 * 65025 + 65025 < 2^25.
IMGPAR_HD int unpremultiply_wide(int p, int a_wide) {
    if (a_wide <= 0) return 0;
    const int c = (510 * p + a_wide) / (2 * a_wide);
    return c > 255 ? 255 : c;
}

// The output alpha byte of a filter that filters alpha: A' rounded to the
// nearest of 0..255 (A' / 255 is never exactly halfway).
IMGPAR_HD int alpha_byte(int a_wide) { return (a_wide + 127) / 255; }

// Gaussian, box, custom: the colour of a pixel whose lanes came out as P' and
// A'. A pixel whose alpha byte is 0 is transparent and gets colour 0, as
// everywhere else, even where A' is not quite 0.
IMGPAR_HD int unpremultiply_filtered(int p, int a_wide) {
    return alpha_byte(a_wide) == 0 ? 0 : unpremultiply_wide(p, a_wide);
}

// Which filters filter alpha (the others copy it).
IMGPAR_HD bool filters_alpha(FilterKind kind) {
    return kind == FilterKind::Gaussian || kind == FilterKind::Box || kind == FilterKind::Custom;
}

// Lanes per pixel for an image of `channels` (2 or 4) channels.
IMGPAR_HD int wide_lanes(int channels, bool with_alpha) { return with_alpha ? channels : channels - 1; }

// Lane `lane` of a pixel whose colour byte for that lane is `c` (colour
// lanes) and alpha byte `a`; `colours` = channels - 1.
IMGPAR_HD int wide_lane(int lane, int colours, int c, int a) {
    return lane < colours ? premultiply_wide(c, a) : alpha_wide(a);
}

// Lane `lane` of a constant-border pixel, every channel of which is v.
IMGPAR_HD int wide_constant_lane(int lane, int colours, int v) { return wide_lane(lane, colours, v, v); }

// Gaussian: the intermediate keeps the wide scale, H = (sum + 2048) >> 12
// (0..65025, 16 bits), and out = (sum t * H + 2048) >> 12; every sum stays
// below 4096 * 65025 < 2^31. A constant row's H is the constant itself.
constexpr int kGaussianWideAdd = 2048, kGaussianWideShift = 12;
IMGPAR_HD int gaussian_round_wide(int sum) { return (sum + kGaussianWideAdd) >> kGaussianWideShift; }

// Box: S (int64, up to 65025 * 2001^2) over n samples, rounded half up.
IMGPAR_HD int box_output_wide(std::int64_t sum, int n) { return static_cast<int>((sum + n / 2) / n); }

// Custom: the offset on the wide scale, 255 * offset; results clipped to
// 0..65025 (custom_value with top kWideTop).
IMGPAR_HD double wide_offset(double offset) { return 255.0 * offset; }

// Unsharp on P: d and the threshold on the wide scale.
IMGPAR_HD int unsharp_output_wide(int x, int blurred, int amount_q8, int threshold_level) {
    return unsharp_value(x, blurred, amount_q8, 255 * threshold_level, kWideTop);
}

// Edges on P: |gx|, |gy| <= 16 * 2 * 65025 (Scharr), so gx^2 + gy^2 needs
// 64 bits; magnitudes clipped to the wide scale. Laplacian: gx is L.
IMGPAR_HD int edge_output_wide(EdgeOperator op, int gx, int gy) {
    const std::int64_t m = static_cast<std::int64_t>(gx) * gx + static_cast<std::int64_t>(gy) * gy;
    switch (op) {
        case EdgeOperator::Sobel: return round_sqrt_div<std::int64_t>(m, 4, kWideTop);
        case EdgeOperator::Scharr: return round_sqrt_div<std::int64_t>(m, 16, kWideTop);
        case EdgeOperator::Laplacian:
        default: {
            const int l = gx < 0 ? -gx : gx;
            return l > kWideTop ? kWideTop : l;
        }
    }
}

}  // namespace imgpar
