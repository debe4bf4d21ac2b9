// Colours as the command line names them, one parser for every option that
// takes one (pad, rotate and flatten's --background).
//
// FORMS (case-insensitive; no spaces)
//   #rgb        each hex digit doubled: #f80 = 255,136,0, opaque
//   #rrggbb     opaque
//   #rrggbbaa   with alpha (00 transparent, ff opaque)
//   r,g,b       decimal 0-255, opaque
//   r,g,b,a     decimal 0-255 each
//   names       black (0,0,0), white (255,255,255), gray or grey (128,128,128),
//               red (255,0,0), green (0,128,0), blue (0,0,255): opaque, the
//               values of CSS and SVG (and ImageMagick's); transparent (0,0,0,0)
// Anything else is a usage error naming the option and these forms.
//
// ON AN IMAGE of C channels a colour is one pixel (colour_pixel): gray
// images take its Rec. 601 luma, (77 R + 150 G + 29 B + 128) >> 8 (as the
// histogram computes luma: src/ops/pixel_math.hpp), RGB images its R, G, B;
// the alpha channel of gray+alpha and RGBA images takes its alpha, and
// images without alpha ignore it.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace imgpar {

struct Rgba {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    bool operator==(const Rgba& o) const { return r == o.r && g == o.g && b == o.b && a == o.a; }
    bool operator!=(const Rgba& o) const { return !(*this == o); }
};

// The allowed forms, in words, for help texts and declarations.
extern const char* const kColourForms;

// Parses `text` (see FORMS). Throws imgpar::Error (usage) naming `option`
// ("--background") and the allowed forms.
Rgba parse_colour(const std::string& text, const std::string& option);

// "#rrggbbaa", for -v and --json.
std::string colour_text(const Rgba& c);

// The pixel `c` is on an image of `channels` channels (see ON AN IMAGE);
// samples past `channels` are 0.
std::array<std::uint8_t, 4> colour_pixel(const Rgba& c, int channels);
// The same pixel on a 16-bit image: each of colour_pixel's samples v as
// v * 257 (0 -> 0, 255 -> 65535: the 8-bit value on the 16-bit scale; gray
// takes the 8-bit luma times 257).
std::array<std::uint16_t, 4> colour_pixel16(const Rgba& c, int channels);

}  // namespace imgpar
