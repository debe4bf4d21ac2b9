// Colour: grayscale, extract-channel, flatten and add-alpha, per-pixel maps
// from C to C' channels. The CPU reference (cpu::apply_colour) and the GPU
// (gpu::apply_colour, cuda/colour.cu) call the same per-pixel function
// (src/ops/colour_math.hpp) and give byte-identical images.
//
// CONTRACT
// --------
// Pixels: 1-4 interleaved u8 channels: gray, gray+alpha, RGB, RGBA
// (src/image.hpp). The size is kept; the channel count may change.
//
// grayscale   RGB -> gray, RGBA -> gray+alpha (alpha copied); gray and
//             gray+alpha are copied unchanged. Luma in 8-bit fixed point:
//               Rec. 601 (default)  Y = (77 R + 150 G + 29 B + 128) >> 8
//                                   (exactly the histogram's luma,
//                                   src/ops/pixel_math.hpp's luma601)
//               Rec. 709 (--rec709) Y = (54 R + 183 G + 19 B + 128) >> 8
//                                   (0.2126, 0.7152, 0.0722 times 256 are
//                                   54.4, 183.1, 18.5: rounded, with the
//                                   blue weight rounded up so they sum to 256)
//             The weights sum to 256, so gray R = G = B = v gives v.
// extract-channel N
//             a gray image of channel N (0-based; names: gray = 0 of gray and
//             gray+alpha images, red, green, blue = 0, 1, 2 of RGB and RGBA,
//             alpha = the last channel of gray+alpha and RGBA). A channel the
//             image does not have is an error for that image.
// flatten     alpha composited onto an opaque background colour (default
//             white, as ImageMagick's -flatten), then dropped: RGBA -> RGB,
//             gray+alpha -> gray (the background's Rec. 601 luma). For each
//             colour sample c with alpha a and background b:
//               out = (c a + b (255 - a) + 127) / 255   (integer division:
//             the nearest integer; c a + b (255 - a) is never halfway)
//             so a = 255 keeps c and a = 0 gives b. Images without alpha are
//             copied unchanged.
// add-alpha   gray -> gray+alpha, RGB -> RGBA with every alpha V (default
//             255, opaque); images that have alpha are copied unchanged.
//
// 16 BITS (u16 samples, 0..65535; the output u16 too): the same maps with
// 255 read as 65535, in integers wide enough that nothing is lost:
// grayscale   the same weights (sum 256) on 16-bit values: Y = (77 R + 150 G
//             + 29 B + 128) >> 8 (Rec. 709: 54, 183, 19); the sum is below
//             2^25, so 32-bit; gray R = G = B = v still gives v.
// extract-channel, add-alpha's copies: the samples unchanged.
// flatten     out = (c a + b (65535 - a) + 32767) / 65535, b the background
//             given in 8-bit terms times 257 (gray: its 8-bit luma times
//             257); c a + b (65535 - a) <= 65535^2, so with the half it
//             fits unsigned 32 bits, and 65535 is odd, so it is never
//             halfway. a = 65535 keeps c; a = 0 gives b.
// add-alpha   V (0..255, as for 8 bits) becomes V * 257: 255 -> 65535, opaque.
#pragma once

#include <string>

#include "src/image.hpp"
#include "src/ops/colour_math.hpp"
#include "src/ops/colour_spec.hpp"

namespace imgpar {

enum class LumaWeights { Rec601, Rec709 };

struct ColourPlan {
    ColourOp op = ColourOp::Grayscale;
    LumaWeights weights = LumaWeights::Rec601;  // grayscale
    std::string channel;                        // extract-channel: "0".."3" or a name
    Rgba background{255, 255, 255, 255};        // flatten
    int alpha = 255;                            // add-alpha

    // The output's channel count for an input of `channels` channels.
    int output_channels(int channels) const;
    // "grayscale (Rec. 601)", "extract-channel 2 (blue)", ...
    std::string describe() const;
};

// The allowed forms of --channel, in words.
extern const char* const kChannelForms;
// Throws imgpar::Error (usage) naming --channel unless `spec` is one of
// them (whatever the image).
void check_channel_spec(const std::string& spec);
// The index of channel `spec` in an image of `channels` channels. Throws
// imgpar::Error (usage, naming --channel) when the image lacks it.
int resolve_channel(const std::string& spec, int channels);
// Throws imgpar::Error (usage) for values outside their ranges (naming the
// option) and for a background that is not opaque (flatten).
void check_colour_plan(const ColourPlan& plan);
// The per-pixel arguments for an image of `channels` channels (resolves the
// channel, so it throws as resolve_channel does).
ColourArgs colour_args(const ColourPlan& plan, int channels);

namespace cpu {
// Multithreaded over rows.
ImageU8 apply_colour(ConstViewU8 src, const ColourPlan& plan);
ImageU16 apply_colour(ConstViewU16 src, const ColourPlan& plan);  // 16 BITS
}  // namespace cpu

namespace gpu {
class Session;
// cpu::apply_colour's bytes on the session's GPU, asynchronous on its
// stream; dst has src's size and plan.output_channels(src's) channels.
void apply_colour(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const ColourPlan& plan,
                  std::string* kernel = nullptr);
void apply_colour(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const ColourPlan& plan,
                  std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
