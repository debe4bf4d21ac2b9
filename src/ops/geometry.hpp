// Geometry: crop, flip, flop, transpose, rotation by multiples of 90 degrees
// and pad. The CPU reference (cpu::) and the GPU (gpu::, cuda/geometry.cu)
// give byte-identical images. Rotation by any other angle: src/ops/rotate.hpp.
//
// CONTRACT
// --------
// Pixels: 1-4 interleaved u8 or u16 channels, rows top to bottom
// (src/image.hpp); the output keeps the input's sample type.
// These operations move whole pixels: every channel, alpha included, moves
// with its pixel, no sample value is computed (pad's constant border writes
// the background pixel) and the channel count is kept. In NumPy terms, for
// an image held as an array a of shape (H, W, C):
//
//   crop       a[y0:y1, x0:x1]         the box clipped to the image (CROP)
//   flip       a[::-1]        = np.flip(a, 0)  top <-> bottom (ImageMagick -flip)
//   flop       a[:, ::-1]     = np.flip(a, 1)  left <-> right (ImageMagick -flop)
//   transpose  a.transpose(1, 0, 2)            x <-> y (ImageMagick -transpose)
//   rotate 90  np.rot90(a, -1)  clockwise, as ImageMagick's -rotate 90
//   rotate 180 np.rot90(a, 2)
//   rotate 270 np.rot90(a, 1)   = rotate -90, counter-clockwise
//
// Angles are taken modulo 360 (-90 is 270; 0 and 360 copy the image); a
// positive angle turns the picture clockwise as it is displayed (y down).
//
// GRAVITY (crop's box and pad's placement; ImageMagick's -gravity rules,
// its GravityAdjustGeometry): a box of w x h in an image of iw x ih with
// offsets (X, Y) has its top-left corner at
//   x = X                      west, northwest, southwest
//   x = X + (iw / 2 - w / 2)   north, center, south    ('/' truncates each half)
//   x = iw - w - X             east, northeast, southeast (X counts leftwards)
// and likewise y with north (y = Y), west/center/east (Y + ih / 2 - h / 2) and
// south (y = ih - h - Y, Y counts upwards). Note the halves are truncated
// one by one: a 1-pixel box centred in a 4-pixel image starts at 2 - 0 = 2.
//
// CROP: the box is w x h (0: the image's width or height) at the gravity's
// corner moved by (X, Y), X and Y possibly negative; it is clipped to the
// image, as ImageMagick's -crop clips: x0 = max(x, 0), x1 = min(x + w, iw)
// (y likewise). A box that misses the image entirely (x1 <= x0 or y1 <= y0)
// is an error for that image.
//
// PAD adds T rows on top, B at the bottom, L columns left and R right (each
// >= 0), or extends the image to a W x H box placed by gravity (the image's
// place in the box: L = -x with x from GRAVITY above for the box in the
// image at offset 0, so L = W / 2 - iw / 2 for center, W - iw for east; T
// likewise; a box smaller than the image is an error for that image). The
// new samples follow the border rule of src/ops/border.hpp, repeated as far
// as the pad reaches, so pads wider than the image stay defined:
//   replicate   the edge pixel
//   reflect     the image and its mirror image alternate: ...cba|abc|cba|abc...
//               (period 2n along an axis of n pixels)
//   reflect101  the same without repeating the edge: ...dcb|abcd|cba...
//               (period 2n - 2; a 1-pixel axis repeats its pixel)
//   wrap        the image repeats: ...abc|abc|abc...
//   constant    the background pixel (src/ops/colour_spec.hpp's colour_pixel;
//               default transparent black: black where there is no alpha)
// Rows and columns are mapped independently: a corner takes the pixel at
// (mapped column, mapped row); with constant, any sample outside the image.
//
// 16 BITS: the same moves of whole u16 pixels, bit for bit (no sample is
// computed, so there is nothing to round). The background colour is given in
// 8-bit terms (src/ops/colour_spec.hpp) and becomes v * 257 per sample
// (colour_pixel16: 0 -> 0, 255 -> 65535, exactly the 8-bit colour's value
// on the 16-bit scale).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/hd.hpp"
#include "src/image.hpp"
#include "src/ops/border.hpp"
#include "src/ops/colour_spec.hpp"

namespace imgpar {

// The largest box side, pad and offset the options take (the largest that
// the help prints in full; images that large are rare, and a crop of one can
// still take its whole width or height with a side of 0).
constexpr int kMaxGeometrySide = 999999;

enum class Gravity { NorthWest, North, NorthEast, West, Center, East, SouthWest, South, SouthEast };

// "northwest", ..., in the order of the enum.
const std::vector<std::string>& gravity_names();
const char* gravity_name(Gravity g);
// Throws imgpar::Error (usage) naming `option` and the allowed words.
Gravity parse_gravity(const std::string& text, const std::string& option = "--gravity");

// The top-left corner of a w x h box in an iw x ih image under gravity `g`
// with offsets (dx, dy) (see GRAVITY). 64-bit: the inputs are below 2^31.
struct Corner {
    long long x = 0, y = 0;
};
Corner gravity_corner(Gravity g, long long iw, long long ih, long long w, long long h, long long dx, long long dy);

// A rectangle of pixels inside an image.
struct PixelBox {
    int x = 0, y = 0, width = 0, height = 0;
};

// --- crop --------------------------------------------------------------------

struct CropSpec {
    int width = 0, height = 0;  // 0: the image's
    long long x = 0, y = 0;     // from the gravity's corner
    Gravity gravity = Gravity::NorthWest;
};

// Throws imgpar::Error (usage) naming the option when a value is outside its
// range (sides 0 to kMaxGeometrySide, offsets -kMaxGeometrySide to kMaxGeometrySide).
void check_crop_spec(const CropSpec& spec);
// "640x480+10+20 northwest" (a 0 side as the image's: "0x480+0+0").
std::string crop_text(const CropSpec& spec);
// The clipped box in an image of iw x ih (see CROP). Throws imgpar::Error
// (usage, subject "crop") when the box misses the image.
PixelBox crop_box(const CropSpec& spec, int iw, int ih);

// --- flip, flop, transpose, rotations by multiples of 90 ----------------------

enum class Turn { None, Flip, Flop, Transpose, Rotate90, Rotate180, Rotate270 };

const char* turn_name(Turn t);  // "copy", "flip", "flop", "transpose", "rotate 90", ...
// Whether the output's width and height are the input's height and width.
IMGPAR_HD bool turn_swaps_sides(Turn t) { return t == Turn::Transpose || t == Turn::Rotate90 || t == Turn::Rotate270; }
// The turn of an exact multiple of 90 degrees (after reduction modulo 360),
// or nullopt for any other angle (and for non-finite ones).
std::optional<Turn> turn_of_angle(double degrees);

// The input pixel (sx, sy) that output pixel (ox, oy) of a turned w x h
// image shows (the NumPy table above, written out).
IMGPAR_HD void turn_source(Turn t, int w, int h, int ox, int oy, int& sx, int& sy) {
    switch (t) {
        case Turn::Flip: sx = ox; sy = h - 1 - oy; return;
        case Turn::Flop: sx = w - 1 - ox; sy = oy; return;
        case Turn::Transpose: sx = oy; sy = ox; return;
        case Turn::Rotate90: sx = oy; sy = h - 1 - ox; return;
        case Turn::Rotate180: sx = w - 1 - ox; sy = h - 1 - oy; return;
        case Turn::Rotate270: sx = w - 1 - oy; sy = ox; return;
        case Turn::None:
        default: sx = ox; sy = oy; return;
    }
}

// --- pad ---------------------------------------------------------------------

struct PadSpec {
    int top = 0, bottom = 0, left = 0, right = 0;
    bool to_size = false;  // extend to width x height instead
    int width = 0, height = 0;
    Gravity gravity = Gravity::NorthWest;
    BorderMode border = BorderMode::Constant;
    std::optional<Rgba> background;  // none: transparent black
};

struct PadSides {
    int top = 0, bottom = 0, left = 0, right = 0;
};

// Throws imgpar::Error (usage) naming the option for values outside their
// ranges, sides that add nothing, and a size below 1.
void check_pad_spec(const PadSpec& spec);
// Parses --size "WxH" (each 1 to kMaxGeometrySide). Throws imgpar::Error (usage) naming `option`.
void parse_pad_size(const std::string& text, int& width, int& height, const std::string& option = "--size");
// The sides for an iw x ih image (see PAD). Throws imgpar::Error (usage,
// subject "pad") when --size is smaller than the image.
PadSides pad_sides(const PadSpec& spec, int iw, int ih);
// The background pixel of an image of `channels` channels; of a 16-bit
// image (each sample v * 257).
std::array<std::uint8_t, 4> pad_fill(const PadSpec& spec, int channels);
std::array<std::uint16_t, 4> pad_fill16(const PadSpec& spec, int channels);
// "top 2, bottom 3, left 4, right 5, border constant, background #000000ff".
std::string pad_text(const PadSpec& spec);

namespace cpu {
// Each returns a new packed image; multithreaded over rows (or tiles).
ImageU8 crop(ConstViewU8 src, const PixelBox& box);  // the box lies inside src
ImageU8 turn(ConstViewU8 src, Turn t);
ImageU8 pad(ConstViewU8 src, const PadSides& sides, BorderMode border, const std::array<std::uint8_t, 4>& fill);
// 16-bit samples: the same moves.
ImageU16 crop(ConstViewU16 src, const PixelBox& box);
ImageU16 turn(ConstViewU16 src, Turn t);
ImageU16 pad(ConstViewU16 src, const PadSides& sides, BorderMode border, const std::array<std::uint16_t, 4>& fill);
}  // namespace cpu

namespace gpu {
class Session;
// The CPU's bytes on the session's GPU, asynchronous on its stream; dst has
// the output's shape (src and dst must not overlap). `kernel` names the
// kernel that ran.
// dst is the box at (x, y) of src.
void crop(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, int x, int y, std::string* kernel = nullptr);
void turn(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, Turn t, std::string* kernel = nullptr);
void pad(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const PadSides& sides, BorderMode border,
         const std::array<std::uint8_t, 4>& fill, std::string* kernel = nullptr);
// 16-bit samples: the same kernels, a pixel moved as 2C bytes.
void crop(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, int x, int y, std::string* kernel = nullptr);
void turn(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, Turn t, std::string* kernel = nullptr);
void pad(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const PadSides& sides, BorderMode border,
         const std::array<std::uint16_t, 4>& fill, std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
