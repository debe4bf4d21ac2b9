// Resampling to another size. The CPU reference (cpu::resize) and the GPU
// (gpu::resize) give byte-identical images: both run the integer arithmetic
// of src/ops/resize_math.hpp over the same tables (resize_axis).
//
// CONTRACT
// --------
// Pixel i of an axis of n input pixels covers [i, i + 1), its centre at
// i + 0.5. Resizing the axis to m pixels maps output pixel j to the input
// interval [j s, (j + 1) s), s = n / m, centre c_j = (j + 0.5) s (libvips and
// Pillow's convention; OpenCV's INTER_AREA and INTER_LINEAR use it too). The
// two axes are resampled separately: first down the columns (each kept output
// row from the input rows its taps name, as wide as the input), then along
// the rows. (Down the columns first puts most of a shrink's work in the pass
// whose taps are whole rows, which vector units and the GPU read best.)
//
//   nearest   input pixel floor(c_j) (computed exactly as floor((2j + 1) n /
//             (2m))): numpy indexing img[(2j+1)*n // (2m)].
//   area      the exact mean over the output pixel's box [j s, (j + 1) s):
//             each input pixel weighs its overlap with the box. The weights
//             are whole numbers in units of gcd(n, m)/m and summed exactly in 64-bit
//             integers, so every output is the box mean rounded half up (at
//             integer factors: the plain mean of each k x k block).
//   bilinear  triangle, support 1; bicubic: Catmull-Rom (a = -0.5, as Pillow's
//   bicubic  and libvips' cubic; not Mitchell, which ImageMagick and libvips'
//   lanczos3 default thumbnails use), support 2; lanczos3: sinc(x) sinc(x/3),
//             support 3. Downscaling widens them by s (antialiasing, as
//             Pillow's and libvips' reduce; unlike NPP's point-sampled
//             linear): input pixel i weighs K((i + 0.5 - c_j) / max(s, 1)).
//             Border: input pixels outside the image do not exist; the
//             weights of those inside are normalised to sum to one (Pillow's
//             rule). The weights are 14-bit fixed point summing exactly to
//             2^14 (the rounding's leftover goes to the largest weight).
//             First pass: t = round(sum w v / 2^8), 6 fractional bits kept,
//             not clamped (the negative lobes' overshoot is kept, as a
//             float64 evaluation keeps it); second pass: out =
//             clamp(round(sum w t / 2^20), 0, 255). Rounding is half up (add
//             half, then floor).
//
// Alpha (gray+alpha, RGBA): colour is resampled premultiplied by alpha, so
// transparent pixels do not bleed their stored colour into opaque ones. With
// P the sums of colour x alpha and A the sums of alpha, each computed as
// above at full precision (area: exact; the filters: in 64 bits, the first
// pass keeping 6 fractional bits of P and A alike), the output alpha is A
// rounded as a plain channel and the output colour round(P / A) (0 where A is
// 0): a constant colour stays that colour at any alpha.
//
// Default filter (auto): lanczos3 on an axis that shrinks, bicubic on one that
// grows, nearest-free identity where the size does not change.
//
// 16 BITS (u16 samples, 0..65535; the output u16): the same geometry, taps,
// order and roundings with 255 read as 65535, the precision widened so a
// result stays within +-1 of a float64 evaluation of the same kernel:
//   nearest   the same pixel.
//   area      the same exact box mean rounded half up, its sums 64-bit (a
//             sample times the overlaps' product reaches 2^16 x sum_x x
//             sum_y; premultiplied 2^32 x ...): the plain mean of each block
//             at integer factors.
//   filters   weights in 22-bit fixed point summing exactly to 2^22 (14 bits
//             would put a 16-bit sample's error at a few units: 2^-15 of
//             65535 per tap); first pass t = round(sum w v / 2^18), 4
//             fractional bits kept, unclamped; second pass out =
//             clamp(round(sum w t / 2^26), 0, 65535). Widths: a first-pass
//             sum is below 2 x 2^22 x 65535 < 2^39 and t below 2^21, so a
//             64-bit sum and a 32-bit intermediate; the second pass's sum is
//             below 2^44, 64-bit. Premultiplied, c a < 2^32: first sums below
//             2^55, t below 2^37 (64-bit intermediate), second sums P below
//             2^60; alpha keeps 12 fractional bits after a filter's first pass
//             (colour is P / A, so A's rounding counts relative to A: with 4
//             bits an alpha of a few units moved colour by tens of levels),
//             its second sums A below 2^52; out alpha = round(A / 2^34),
//             colour = round(P 2^8 / A) (exact in 64 bits: P = q A + r, then
//             q 2^8 + floor((r 2^9 + A) / 2A)), 0 where A or P is not
//             positive. Area and copies keep exact sums, so alpha and colour
//             are the 8-bit formulas on them. The 4 kept bits hold the
//             intermediate's rounding to 2^-5 of a unit, the 22-bit weights
//             their quantisation to about 2^-23 of a sample each: far inside
//             the +-1 (colour where the output alpha is below about 16 of
//             65535 may stray further: it is nearly transparent).
// A 16-bit image takes a plan made for 16 bits (resize_plan(..., U16)).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"

namespace imgpar {

enum class ResizeFilter { Auto, Nearest, Bilinear, Bicubic, Lanczos3, Area };

const char* resize_filter_name(ResizeFilter f);  // "lanczos3"
// "nearest", "bilinear", "bicubic", "lanczos3", "area" or "auto". Throws
// imgpar::Error (usage) naming --filter.
ResizeFilter parse_resize_filter(const std::string& text);

// The filter an axis of n -> m pixels uses: `asked`, with auto resolved.
ResizeFilter resolved_filter(ResizeFilter asked, int n, int m);

constexpr int kResizeWeightBits = 14;  // a filter's weights sum to 2^14
constexpr int kResizeRowBits = 6;      // fractional bits the first pass keeps
// The same for 16-bit samples (see 16 BITS).
constexpr int kResizeWeightBits16 = 22;
constexpr int kResizeRowBits16 = 4;
constexpr int kResizeAlphaBits16 = 12;  // premultiplied alpha's fractional bits

// How one axis maps n input pixels to m output pixels, output pixels
// [first, first + count) of them (a crop of the resized axis: resize --fill).
// Output pixel k (0-based within the kept ones) reads `taps` input pixels
// from start[k] (never less than start[k - 1]); its weights are weight[k *
// taps + t], summing to `sum`. Taps past the last input
// pixel have weight 0 and are not read. Identity (n == m, no crop, or
// nearest) uses one tap of weight 1.
struct ResizeAxis {
    ResizeFilter filter = ResizeFilter::Nearest;  // resolved
    int in = 0;       // n
    int out = 0;      // m: the resized axis
    int first = 0;
    int count = 0;    // pixels kept
    int taps = 1;
    // What each output pixel's weights sum to: 2^14 for a filter; for area
    // the axis's length over gcd(n, m) (the overlaps are multiples of it, so
    // they are kept divided by it: whole pixels weigh 1 at integer factors);
    // 1 for a copy.
    std::int64_t sum = 1;
    // A filter's weight precision: kResizeWeightBits, or kResizeWeightBits16
    // in a plan for 16-bit samples.
    int weight_bits = kResizeWeightBits;
    std::vector<std::int32_t> start;   // count entries
    std::vector<std::int32_t> weight;  // count * taps entries
    bool identity() const { return filter == ResizeFilter::Nearest && in == out && count == out; }
};

// The table of one axis, a filter's weights in `weight_bits` bits. Throws
// imgpar::Error (usage) for sizes out of range.
ResizeAxis resize_axis(ResizeFilter filter, int in, int out, int first, int count,
                       int weight_bits = kResizeWeightBits);

// The output size and the crop of a resize: the image resampled to
// (width, height), then [x, x + crop_width) x [y, y + crop_height) kept.
struct ResizeGeometry {
    int width = 0, height = 0;
    int x = 0, y = 0, crop_width = 0, crop_height = 0;
};

struct ResizePlan {
    ResizeAxis x, y;  // columns (across a row) and rows
    SampleType type = SampleType::U8;  // the samples the plan is for (u8 or u16)
};
// The plan for images of sample type `type` (u8, or u16: 16 BITS).
ResizePlan resize_plan(ResizeFilter filter, int in_width, int in_height, const ResizeGeometry& g,
                       SampleType type = SampleType::U8);

// Whether the plan's sums fit the integers the arithmetic keeps them in, for
// an image of `channels` channels: area down a column of more than 8,421,504
// pixels (33,025 with alpha) does not, nor area both ways over more than
// 2^40 / 255 summed units. Throws imgpar::Error (usage) saying why.
// A plan for 16 bits: the 64-bit bounds of 16 BITS (sums below 2^50 where
// they are divided exactly, premultiplied colour's below 2^61).
void check_resize_range(const ResizePlan& plan, int channels);

// "lanczos3 7680x4320 -> 3840x2160 (taps 12 x 12)", for -v.
std::string describe_resize(const ResizePlan& plan);

namespace cpu {
// dst: plan.x.count x plan.y.count, src's channels. Multithreaded.
void resize(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst);
// The same by the general path only, the pass along the rows one sample at a
// time and whole-factor area not taken apart (src/ops/resize_blocks.hpp):
// the plain reference the faster forms are checked against (the same bytes).
void resize_one_lane(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst);
std::string resize_kernel_name(const ResizePlan& plan, int channels);
// 16-bit samples (src/ops/resize16.cpp); the plan made for U16.
void resize(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst);
void resize_one_lane(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst);  // the 16-bit general path only
std::string resize_kernel_name16(const ResizePlan& plan, int channels);
}  // namespace cpu

namespace gpu {
class Session;
// cpu::resize's bytes on the session's GPU (asynchronous on its stream; the
// tables are uploaded through the session).
void resize(Session& session, const ResizePlan& plan, ConstDeviceViewU8 src, DeviceViewU8 dst,
            std::string* kernel = nullptr);
void resize(Session& session, const ResizePlan& plan, ConstDeviceViewU16 src, DeviceViewU16 dst,
            std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
