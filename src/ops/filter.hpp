// Convolution filters: Gaussian blur, box (mean), unsharp mask, edge
// magnitude and custom kernels. One FilterPlan describes a filter completely;
// the CPU reference (cpu::apply_filter) and the GPU (cuda::apply_filter) take
// the same plan and produce byte-identical images.
//
// ARITHMETIC CONTRACT (the specification both backends implement)
// ---------------------------------------------------------------
// Samples are 8-bit. Outside the image, samples come from the plan's border
// rule (src/ops/border.hpp), applied to rows and columns independently.
//
// Alpha (gray+alpha, RGBA): colour is filtered premultiplied by alpha, so
// transparent pixels do not bleed dark halos, in a wide domain with nothing
// rounded on the way in (src/ops/wide_math.hpp): an 8-bit premultiply keeps
// only a + 1 levels of colour at alpha a. Per pixel, the lanes
//   P = c * a (0..65025) per colour, and A = 255 * a on the same scale.
//   Gaussian, Box, Custom: P and A are filtered, each by the rules below with
//     samples up to 65025: the Gaussian's H = (sum t s + 2048) >> 12 and
//     out = (sum t H + 2048) >> 12 (constant-border rows: H = V' itself),
//     box and custom sums in 64 bits, a custom kernel's offset scaled to
//     255 * offset and its results clipped to 0..65025. Then
//       alpha a' = round(A' / 255) = (A' + 127) / 255,
//       colour c' = a' == 0 ? 0 : min(255, round(255 * P' / A')), ties up.
//     (a' comes from the wide alpha, not from an 8-bit filter of the alpha
//     plane: one lane fewer on both backends, and --max-memory's peaks
//     hold. The two differ by one level at most: on a photo, about 1% of a
//     Gaussian's alpha bytes, none of a box's or a 3x3 kernel's.)
//   Unsharp, Edges: only P is filtered; alpha is copied unchanged and
//     c' = min(255, round(P' / a)) with the original a (0 where a is 0).
//     Unsharp: d = P - b and the threshold scaled by 255 (2|d| < 255 *
//     threshold_level), clamped to 0..65025. Edges: gx, gy of P (or of
//     luma601 of the P lanes for gray=true), magnitudes as below clipped at
//     65025 (gx^2 + gy^2 in 64 bits).
// With a constant border V, a border pixel has every channel equal to V: its
// lanes are V' = V * V and 255 * V. Images without alpha filter c directly.
// Against a float64 premultiplied filter, colour stays within a level
// wherever the output alpha is not 0 (tests/test_filter_alpha.cpp).
//
// Gaussian (separable, 12-bit fixed-point taps t[0..2r], sum exactly 4096):
//   horizontal  H(x,y) = (sum_i t[i] * s(x+i-r, y) + 256) >> 9       in 0..2040
//   vertical    out    = (sum_j t[j] * H(x, y+j-r) + 16384) >> 15     in 0..255
// where rows outside the image in the vertical pass are H of the row the
// border rule names; for a constant border they are (4096*V + 256) >> 9
// (with alpha, the wide rules above: H = V' itself).
// Every partial sum stays below 2^23, so float arithmetic is also exact, and
// H (3 fractional bits, at most 2040) and every tap the GPU's FP16 path takes
// (at most 2048) are exact FP16 integers.
//
// Box (radius R, n = (2R+1)^2): S = sum of the (2R+1)x(2R+1) window,
//   out = (S + n/2) / n.
//
// Unsharp (Gaussian blur b of the same image as above, per colour channel):
//   d = x - b;  out = 2|d| < threshold_level ? x
//                   : clamp_u8(x + floor_div(amount_q8 * d + 128, 256)).
//
// Edges: gradients of the 3x3 operator (correlation), per colour channel (or
//   on luma601 of the filtered colour p, i.e. premultiplied first, for gray=true):
//   sobel     gx = [-1 0 1; -2 0 2; -1 0 1], gy = its transpose,
//             out = min(255, round(sqrt(gx^2 + gy^2) / 4)), ties up
//   scharr    gx = [-3 0 3; -10 0 10; -3 0 3], gy = transpose,
//             out = min(255, round(sqrt(gx^2 + gy^2) / 16)), ties up
//   laplacian L = [0 1 0; 1 -4 1; 0 1 0], out = min(255, |L|)
//
// Custom (correlation: coefficient (i, j) multiplies the sample at
//   (x + i - anchor_x, y + j - anchor_y); `flip` at plan time rotates the
//   kernel 180 degrees to give true convolution). Coefficients are integers
//   in fixed point with frac_bits fractional bits, chosen so every sum is
//   exact in 32-bit integers and in float:
//   S = sum coeffs[j*kw+i] * s(...),  out = custom_output(S, denominator, offset)
//   with denominator = scale * 2^frac_bits (src/ops/filter_math.hpp).
//
// 16-BIT CONTRACT (u16 samples, 0..65535; src/ops/filter_u16_math.hpp)
// --------------------------------------------------------------------
// The same rules written for 16 bits; a 16-bit image gives a 16-bit image.
// Levels given in 8-bit terms map to 16 bits by x 257 (255 -> 65535): the
// constant border's V reads 257 V, a custom kernel's offset is 257 * offset.
//
// Gaussian: 16-bit taps T, 2r+1 of them summing exactly to 65536, made from
//   sigma and radius as the 12-bit ones are (gaussian_taps16). Why 16 bits:
//   12-bit taps would quantise the kernel's shape to 1/4096, ~16 levels of a
//   16-bit sample; 16 bits is the most that keeps every sum in uint32:
//     H(x,y) = (sum_i T[i] s(x+i-r, y) + 32768) >> 16   in 0..65535
//     out    = (sum_j T[j] H(x, y+j-r) + 32768) >> 16
//   (sum <= 65535 * 65536 + 32768 < 2^32; a constant-border row's H is 257 V
//   itself). Error bound: against float64 arithmetic with the same taps,
//   |out - exact| <= 1 level (H is within 1/2, the taps' weights sum to 1, the
//   last rounding adds 1/2); against the ideal sampled Gaussian g (float64,
//   normalised), add 65535 * sum_i |T[i] / 65536 - g[i]| per pass
//   (tests/test_filter_u16.cpp checks both).
// Box: S in 64 bits (<= 65535 * 2001^2), out = (S + n/2) / n.
// Unsharp: the 16-bit Gaussian b; d = x - b, threshold level
//   L16 = ceil(threshold * 65535); out = 2|d| < L16 ? x
//   : clamp(x + floor_div(amount_q8 * d + 128, 256), 0, 65535).
// Edges: the 8-bit operators; |gx|,|gy| <= 16 * 65535, gx^2 + gy^2 in 64 bits;
//   sobel min(65535, round(sqrt(m) / 4)), scharr / 16, laplacian min(65535, |L|),
//   ties up; gray: luma601 with the 8-bit weights, (77r + 150g + 29b + 128) >> 8.
// Custom: S = sum coeffs * s in 64 bits (|S| < 2^32), out =
//   min(65535, max(0, round half away of S / denominator + 257 * offset)).
// Alpha (gray+alpha, RGBA): the 8-bit rules on exact 32-bit lanes
//   P = c * a and A = 65535 * a (0..65535^2), every sum in 64 bits:
//   Gaussian, Box, Custom filter P and A (Gaussian rounding as above, in
//   uint64; custom offset 65535 * 257 * offset, clipped to 0..65535^2), then
//     a' = round(A' / 65535) = (A' + 32767) / 65535,
//     c' = a' == 0 ? 0 : min(65535, round(65535 * P' / A')), ties up.
//   Unsharp, Edges: P only; alpha copied; c' = min(65535, round(P' / a)) (0
//   where a is 0). Unsharp: threshold 65535 * L16 against 2|d|, result
//   clamped to 0..65535^2. Edges: gx^2 + gy^2 in 128 bits, magnitudes clipped
//   at 65535^2; gray: luma601 of the P lanes in 64 bits.
//   A constant border pixel has every channel 257 V: lanes (257 V)^2, 65535 * 257 V.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/ops/border.hpp"

namespace imgpar {

enum class FilterKind { Gaussian, Box, Unsharp, Edges, Custom };
enum class EdgeOperator { Sobel, Scharr, Laplacian };

const char* filter_kind_name(FilterKind k);       // "gaussian", "box", ...
const char* edge_operator_name(EdgeOperator op);  // "sobel", ...
EdgeOperator parse_edge_operator(const std::string& name);  // throws usage

// Limits, validated when a plan is made.
constexpr int kGaussianTapSum = 4096;  // 12-bit taps per pass
constexpr int kGaussianTapSum16 = 1 << 16;  // 16-bit images' taps per pass
constexpr double kMaxSigma = 50.0;
constexpr int kMaxGaussianRadius = 150;
constexpr int kMaxBoxRadius = 1000;
constexpr int kMaxKernelSide = 63;          // custom kernels up to 63x63
constexpr std::int64_t kMaxKernelAbsSum = 65535;  // sum |fixed-point coefficient|
constexpr int kMaxFracBits = 12;
constexpr double kMaxUnsharpAmount = 20.0;

struct FilterPlan {
    FilterKind kind = FilterKind::Gaussian;
    Border border;

    // Gaussian and Unsharp: sigma, radius r, 2r+1 taps summing to 4096.
    // Box: radius only.
    double sigma = 0.0;
    int radius = 0;
    std::vector<std::int32_t> taps;

    // Unsharp.
    double amount = 1.0;
    int amount_q8 = 256;         // round(amount * 256)
    double threshold = 0.0;      // fraction of full scale
    int threshold_level = 0;     // ceil(threshold * 255), compared with 2|d| as ImageMagick does

    // Edges.
    EdgeOperator edge_op = EdgeOperator::Sobel;
    bool edges_gray = false;     // luma first; output gray (+alpha)

    // Custom.
    int kernel_width = 0;
    int kernel_height = 0;
    int anchor_x = 0;            // kernel_width / 2
    int anchor_y = 0;            // kernel_height / 2
    std::vector<std::int32_t> coeffs;  // row-major, correlation order (already flipped if asked)
    int frac_bits = 0;
    double scale = 1.0;
    double offset = 0.0;
    bool flipped = false;        // true convolution was asked for
    bool separable_hint = false; // reporting only

    // Output channels for an input with `channels` channels.
    int output_channels(int channels) const;
    // Effective kernel footprint, e.g. 13x13 for a Gaussian of radius 6.
    int footprint_width() const;
    int footprint_height() const;
    // Whether the filter is computed as two 1-D passes.
    bool separable() const;
    // One line for verbose output: "gaussian sigma=2 radius=6 (13x13, separable), border replicate".
    std::string describe() const;
};

// --- Plan constructors: validate everything before any work, throwing
// --- imgpar::Error (usage) that names the parameter and the allowed range.

// radius 0 (or none) means ceil(3 * sigma), at least 1.
FilterPlan make_gaussian(double sigma, int radius, Border border);
FilterPlan make_box(int radius, Border border);
FilterPlan make_unsharp(double sigma, int radius, double amount, double threshold, Border border);
FilterPlan make_edges(EdgeOperator op, bool gray, Border border);

// A parsed kernel matrix (text or libvips matrix file).
struct KernelMatrix {
    int width = 0;
    int height = 0;
    std::vector<double> values;   // row-major
    std::optional<double> scale;  // from a file header
    std::optional<double> offset;
};

// "1 2 1; 2 4 2; 1 2 1": rows separated by ';' (or new lines), values by
// spaces or commas. Throws imgpar::Error (usage) naming the problem: an empty
// kernel, a bad number, rows of different lengths, a side above 63.
KernelMatrix parse_kernel_text(const std::string& text);
// libvips matrix format: first line "width height [scale [offset]]", then
// `height` rows of `width` numbers. Throws imgpar::Error (input) naming the
// file and line.
KernelMatrix parse_kernel_file(const std::string& path);

struct CustomKernelOptions {
    bool normalize = false;          // scale = sum of coefficients
    std::optional<double> scale;     // overrides the file's scale
    std::optional<double> offset;    // overrides the file's offset
    bool flip = false;               // true convolution (rotate 180 degrees)
};
FilterPlan make_custom(const KernelMatrix& kernel, const CustomKernelOptions& options, Border border);

// The Gaussian's 2r+1 fixed-point taps (exposed for tests): symmetric,
// non-negative, summing exactly to 4096.
std::vector<std::int32_t> gaussian_taps(double sigma, int radius);
// The 16-bit images' taps of a Gaussian or unsharp plan (its sigma and
// radius): symmetric, non-negative, summing exactly to 65536.
std::vector<std::int32_t> gaussian_taps16(const FilterPlan& plan);

// The one validator of a plan: throws imgpar::Error (usage) unless every
// field is consistent (what make_* produce always is). Both backends run it
// first, so they accept and reject exactly the same plans; make_* check the
// user's parameters, with messages naming the options.
void check_plan(const FilterPlan& plan);

namespace cpu {
// Filters src into dst (same size; dst.channels == plan.output_channels(src.channels)).
// Multithreaded over all cores. Throws imgpar::Error (usage) on a bad plan or
// a shape mismatch.
void apply_filter(const FilterPlan& plan, ConstViewU8 src, ViewU8 dst);
ImageU8 apply_filter(const FilterPlan& plan, ConstViewU8 src);
// How the CPU computes this plan on an image of `channels` channels, for -v
// and --json ("separable passes, ...").
std::string filter_kernel_name(const FilterPlan& plan, int channels);
// 16-bit images, per the 16-bit contract (src/ops/filter_cpu_u16.cpp).
void apply_filter(const FilterPlan& plan, ConstViewU16 src, ViewU16 dst);
ImageU16 apply_filter(const FilterPlan& plan, ConstViewU16 src);
std::string filter_kernel_name_u16(const FilterPlan& plan, int channels);
}  // namespace cpu

namespace gpu {
class Session;
// Filters src into dst on the session's GPU, with cpu::apply_filter's bytes:
// same size, dst.channels == plan.output_channels(src.channels), dst not
// overlapping src. Asynchronous on the session's stream; allocates nothing
// once the session has run this plan on an image of this shape. `kernel`, if
// given, receives the name of the kernel that runs. Throws imgpar::Error
// (usage) on a bad plan or shape, before any GPU work.
void apply_filter(Session& session, const FilterPlan& plan, ConstDeviceViewU8 src, DeviceViewU8 dst,
                  std::string* kernel = nullptr);
// 16-bit images, with cpu::apply_filter's (16-bit) samples.
void apply_filter(Session& session, const FilterPlan& plan, ConstDeviceViewU16 src, DeviceViewU16 dst,
                  std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
