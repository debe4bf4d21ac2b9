// GIF, read only, through giflib's low-level API (IMGPAR_HAVE_GIFLIB): the
// first frame, its palette expanded to RGB, its transparent colour to
// alpha. imgpar writes no GIF (a 256-colour format would quantize every
// result); without giflib GIF files are refused with a message that says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"

namespace imgpar {

bool gif_codec_available();

// "giflib 5.2.1", or "" without it.
std::string gif_codec_name();

struct GifHeaderInfo {
    int width = 0;   // the logical screen the frames are drawn on
    int height = 0;
    int channels = 0;  // 3, or 4 when the first frame has a transparent colour or leaves part of the screen bare
    int frames = 0;    // images in the file, counted without decoding them (up to 10,000)
    // The first frame's rectangle, and whether its data ends before its
    // end marker (the file was cut).
    int frame_left = 0, frame_top = 0, frame_width = 0, frame_height = 0;
    bool frame_cut = false;
};

// Walks the file's blocks (no LZW data is decoded) to the first frame's
// descriptor and its colour table, and counts the frames. Throws
// imgpar::Error (input) naming `name` when the header or the first frame's
// descriptor is missing or malformed, or when this build has no giflib.
GifHeaderInfo gif_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes);

// Decodes the first frame onto the screen (interlaced rows put in place):
// palette colours, the transparent index and the screen outside the frame
// as alpha 0. A second frame adds a warning. Throws imgpar::Error (input)
// naming `name` when the data is corrupt or ends early; with
// `allow_partial`, a frame cut short gives its rows decoded so far (the rest
// transparent) and a warning.
ImageU8 gif_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const GifHeaderInfo& h,
                   std::vector<std::string>& warnings, bool allow_partial = false);

}  // namespace imgpar
