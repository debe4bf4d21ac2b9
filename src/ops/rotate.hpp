// Rotation by any angle that is not a multiple of 90 degrees (those are exact
// pixel moves: src/ops/geometry.hpp). The CPU reference (cpu::rotate) and the
// GPU (gpu::rotate, cuda/rotate.cu) run the same integer arithmetic, one
// definition in src/ops/rotate_math.hpp, and give byte-identical images.
//
// CONTRACT
// --------
// Pixels: 1-4 interleaved u8 channels (src/image.hpp; u16: 16 BITS below);
// the channel count is kept. A positive angle turns the picture clockwise as displayed (y down),
// as ImageMagick's -rotate; the angle is reduced modulo 360 into [0, 360)
// and theta is that in radians.
//
// Output size: with c = cos(theta), s = sin(theta) in double precision,
//   W' = max(1, ceil(w |c| + h |s| - 1e-6)),  H' = max(1, ceil(w |s| + h |c| - 1e-6))
// the smallest whole size that holds the rotated w x h rectangle (the
// 1e-6 keeps a side that is a whole number up to rounding, as at 90 degrees,
// from growing by one). ImageMagick rounds the same box to nearest; here it
// never cuts a corner.
//
// Mapping: the output's centre (W'/2, H'/2) shows the input's (w/2, h/2),
// pixel centres at (i + 0.5). Output pixel (ox, oy) reads the input at
//   sx = ( c dx + s dy) + (w - 1) / 2,   sy = (-s dx + c dy) + (h - 1) / 2,
//   dx = ox + 1/2 - W'/2,  dy = oy + 1/2 - H'/2   (input pixel indices)
// computed in integers only: C = llround(c 2^32), S = llround(s 2^32) once
// on the host; dx2 = 2 ox + 1 - W', dy2 = 2 oy + 1 - H' (twice dx, dy);
//   X = C dx2 + S dy2 + (w - 1) 2^32,   Y = -S dx2 + C dy2 + (h - 1) 2^32
// (2^33 sx and 2^33 sy in 64-bit integers: sides up to 2^24 keep every term
// below 2^59); the position in 1/256 pixel steps, rounded to nearest (ties
// up), qx = (X + 2^24) >> 25, then ix = qx >> 8 (floor) and fx = qx & 255
// (the same for y). At 0, 90, 180 and 270 degrees this lands exactly on the
// pixels the exact turns move.
//
// Interpolation, with integer weights in 1/256 per axis that sum to 256:
//   bilinear  taps ix, ix+1:         256 - fx, fx
//   bicubic   taps ix-1 .. ix+2:     Catmull-Rom (Keys' cubic with a = -0.5), each
//             weight round(256 w(t)), t = fx / 256, ties away from zero, from
//             exact integer polynomials; the rounding remainder (at most a few
//             units) goes to the larger middle weight (ix's for fx < 128, else
//             ix+1's), so every row of weights sums to exactly 256.
// A tap outside the image reads the background pixel (colour_pixel of
// --background; default transparent black, which is black without alpha),
// so the rotated edges blend into the background.
//
// Without alpha, each channel: S = sum wy_j (sum wx_i p_ij) (32-bit; exact,
// so the order does not matter), out = clamp((S + 2^15) >> 16, 0, 255).
// With alpha (gray+alpha, RGBA) colour is interpolated premultiplied, as the
// filters do (docs/exactness.md, "Alpha"), so transparent pixels do not bleed: with
// the same weights, A = sum w a and P = sum w (c a) (64-bit), then
//   alpha'  = clamp((A + 2^15) >> 16, 0, 255)
//   colour' = 0 where alpha' is 0, else min(255, round(P / A)) with
//             round(P / A) = floor((2P + A) / (2A)) (ties up), 0 for P <= 0.
// A constant image stays constant wherever every tap lies inside it (the
// weights sum to 2^16); a tap whose weight is 0 adds nothing.
// Images with a side above 2^24 are refused (the 64-bit bound above).
//
// 16 BITS (u16 samples; the output u16): the same positions, weights and
// order with 255 read as 65535. The background given in 8-bit terms becomes
// v * 257 per sample (colour_pixel16). A u16 sample times a weight product
// (up to 2^16 x 2^16 with Catmull-Rom's lobes past it) leaves 32 bits, so
// every sum is 64-bit: without alpha S = sum wy (sum wx p) and out =
// clamp((S + 2^15) >> 16, 0, 65535); with alpha c a reaches 2^32, and A, P
// (below 2^50) give alpha' = clamp((A + 2^15) >> 16, 0, 65535) and colour' =
// min(65535, floor((2P + A) / (2A))), 0 where alpha' or P is 0. The weights
// stay 1/256 per axis: the position is quantised to 1/256 pixel, so finer
// weights would not make a 16-bit result closer to a continuous rotation;
// the result is the exact rounding of that weighted mean, as for 8 bits.
#pragma once

#include <optional>
#include <string>
#include <type_traits>

#include "src/image.hpp"
#include "src/ops/colour_spec.hpp"
#include "src/ops/rotate_math.hpp"

namespace imgpar {

enum class Interpolation { Bilinear, Bicubic };

const char* interpolation_name(Interpolation i);  // "bilinear" / "bicubic"
// Throws imgpar::Error (usage) naming `option` and the allowed words.
Interpolation parse_interpolation(const std::string& text, const std::string& option = "--interpolation");

struct RotateSpec {
    double degrees = 0;
    Interpolation interpolation = Interpolation::Bilinear;
    std::optional<Rgba> background;  // none: transparent black
};

// The largest side rotate takes at an angle that is not a multiple of 90.
constexpr int kMaxRotateSide = 1 << 24;

// Throws imgpar::Error (usage, naming --angle) for an angle that is not finite.
void check_rotate_spec(const RotateSpec& spec);
// The angle reduced into [0, 360).
double reduced_degrees(double degrees);
// The output size for a w x h input (see CONTRACT).
void rotated_size(double degrees, int w, int h, int& out_w, int& out_h);
// Everything the per-pixel arithmetic needs for one input shape. Throws
// imgpar::Error (usage, subject "rotate") for a side above kMaxRotateSide.
RotateMap rotate_map(const RotateSpec& spec, int w, int h, int channels);

// f(std::integral_constant<int, C>, std::integral_constant<int, kTaps>) for
// a map of `channels` (1-4) and m.taps (2 or 4): the per-pixel templates'
// arguments from run-time values, in one place.
template <typename F>
void with_rotate_layout(int channels, int taps, F&& f) {
    const auto with_taps = [&](auto c) {
        if (taps == 4)
            f(c, std::integral_constant<int, 4>{});
        else
            f(c, std::integral_constant<int, 2>{});
    };
    switch (channels) {
        case 1: with_taps(std::integral_constant<int, 1>{}); break;
        case 2: with_taps(std::integral_constant<int, 2>{}); break;
        case 3: with_taps(std::integral_constant<int, 3>{}); break;
        default: with_taps(std::integral_constant<int, 4>{}); break;
    }
}

namespace cpu {
// Multithreaded over output rows.
ImageU8 rotate(ConstViewU8 src, const RotateSpec& spec);
ImageU16 rotate(ConstViewU16 src, const RotateSpec& spec);  // 16 BITS
}  // namespace cpu

namespace gpu {
class Session;
// Which kernel rotates an 8-bit image on the GPU: output tiles reading the
// input through shared memory (Auto's choice), or one thread a pixel reading
// its taps from global memory (Auto's with IMGPAR_ROTATE_PER_PIXEL=1; the
// one 16-bit images take). Both give cpu::rotate's bytes.
enum class RotateKernel { Auto, Tiles, PerPixel };
// cpu::rotate's bytes on the session's GPU, asynchronous on its stream; dst
// has the rotated shape (src and dst must not overlap).
void rotate(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const RotateSpec& spec,
            std::string* kernel = nullptr, RotateKernel choice = RotateKernel::Auto);
void rotate(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const RotateSpec& spec,
            std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
