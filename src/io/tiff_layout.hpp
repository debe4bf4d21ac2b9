// One TIFF page's layout as its directory gives it, shared by the header
// reader and the decoder (libtiff builds only).
#pragma once

#if IMGPAR_HAVE_LIBTIFF

#include <cstdint>
#include <string>

#include "src/io/tiff_file.hpp"

namespace imgpar {

// How a page's samples become imgpar's: read strips or tiles and convert
// the samples (Samples), or let libtiff's RGBA interface convert colour
// models imgpar does not (Rgba: 8 bits).
enum class TiffPath { Samples, Rgba };

struct TiffLayout {
    std::uint32_t width = 0, height = 0;
    int samples = 1;         // samples per pixel in the file
    int bits = 1;            // bits per sample
    bool floating = false;   // IEEE float samples (32 or 64 bits)
    int photometric = PHOTOMETRIC_MINISBLACK;
    int compression = COMPRESSION_NONE;
    bool separate = false;   // PLANARCONFIG_SEPARATE
    bool tiled = false;
    std::uint32_t tile_width = 0, tile_height = 0;  // tiled
    std::uint32_t rows_per_strip = 0;               // striped (at most height)
    int colour_samples = 1;  // 1 gray or palette index, 3 RGB, 4 CMYK
    bool alpha = false;      // the first sample after the colour ones is alpha
    bool associated = false; // ... premultiplied
    int channels = 1;        // decoded: gray, gray+alpha, RGB, RGBA
    TiffPath path = TiffPath::Samples;
    std::uint32_t striles = 0;  // strips or tiles, all planes

    int sample_bytes() const { return bits <= 8 ? 1 : bits / 8; }
    // The samples kept in memory once read: 1 byte (up to 8 bits), 2 (16 bits, and floats once mapped).
    int kept_bytes() const { return bits <= 8 ? 1 : 2; }
};

// Reads the current directory's layout and checks that imgpar decodes it;
// sets libtiff's JPEG colour mode to RGB for YCbCr JPEG pages, so that
// their strips decode to RGB. Throws imgpar::Error (input) naming `f`.
TiffLayout read_tiff_layout(TiffFile& f);

// "gray", "RGB", "palette", "CMYK", ... for a photometric interpretation.
std::string tiff_colour_name(int photometric);
// "none", "LZW", "Deflate", "PackBits", "JPEG", ... for a compression.
std::string tiff_compression_label(int compression);

}  // namespace imgpar

#endif
