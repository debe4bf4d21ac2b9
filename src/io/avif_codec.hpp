// AVIF through libavif, where the build found it (IMGPAR_HAVE_LIBAVIF).
// Debian 12's libavif 0.11 decodes with dav1d and encodes with libaom (the
// first encoder in its table; rav1e and SVT-AV1 are linked too). Without
// it, AVIF files are refused with a message that says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/metadata.hpp"

namespace imgpar {

// Quality 1..100 becomes one AV1 quantizer for colour (libavif 1.0's
// mapping: round((100 - quality) * 63 / 100)); alpha is kept lossless.
// The default, 60 (quantizer 25), measured on the photos of
// kDefaultWebpQuality: 45-48 dB PSNR (WebP 90's) in 12-15% of the bytes of
// JPEG 92.
constexpr int kDefaultAvifQuality = 60;

// libaom's speed imgpar encodes at (0 slowest, 10 fastest). Measured with
// avifenc on a 16 MP photo (4:4:4, quantizer 25) on the 2-core machine:
// speed 6 (avifenc's default) 6.8 s, 8 4.6 s for a file 6% larger, 9
// 5.5 s; SVT-AV1 writes only 4:2:0 and rav1e took 12 s (docs/io.md).
constexpr int kAvifEncodeSpeed = 8;

// Whether AVIF goes through libavif in this build, and whether that
// libavif has an encoder.
bool avif_codec_available();
bool avif_encoder_available();

// "libavif 0.11.1 (decoder dav1d, encoder aom)", or "" without it.
std::string avif_codec_name();

struct AvifHeaderInfo {
    int width = 0;
    int height = 0;
    int channels = 0;   // 1 or 3 (monochrome 4:0:0 or colour), + 1 with alpha
    int bit_depth = 8;  // 8, 10 or 12: deeper than 8 loads as 16-bit samples reduced
    int frames = 1;     // an image sequence: the first frame is read
    // The AV1 decoder's frames (YUV and alpha planes, references), and the
    // 16-bit RGB image of a deep file before it is reduced.
    std::uint64_t decoder_bytes = 0;
    ImageMetadata metadata;
};

// Parses the container (no AV1 data is decoded): the caller checks the
// size against its limit; libavif refuses more than 2^28 pixels itself.
// Throws imgpar::Error (input) naming `name` when the file is invalid or
// truncated, or when this build has no libavif.
AvifHeaderInfo avif_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes);

// Decodes the first image to 8 bits per sample (h.channels): libavif's YUV
// to RGB conversion, as avifdec does; a 10- or 12-bit image through
// avif_decode_16 and reduce_to_8_bits. Throws imgpar::Error (input) naming
// `name` when the AV1 data is corrupt or truncated. `max_pixels` is passed
// to libavif and the AV1 decoder as their own limit, a second guard.
ImageU8 avif_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const AvifHeaderInfo& h,
                    std::uint64_t max_pixels);

// The same image as 16-bit samples (full range, 0..65535), for files deeper
// than 8 bits: what the 16-bit path will take as it is.
ImageU16 avif_decode_16(const std::string& name, const std::vector<std::uint8_t>& bytes, const AvifHeaderInfo& h,
                        std::uint64_t max_pixels);

struct AvifEncodeOptions {
    int quality = kDefaultAvifQuality;  // 1..100
    const ImageMetadata* metadata = nullptr;  // ICC and EXIF, written when given
};

// Encodes 1 to 4 channels of 8 bits: gray as 4:0:0, colour as 4:4:4 (so
// that avifdec and libvips decode one set of pixels, within libheif's
// rounding), BT.601 full range; alpha lossless. Throws imgpar::Error (output) when libavif
// has no encoder or fails.
std::vector<std::uint8_t> avif_encode(ConstViewU8 image, const AvifEncodeOptions& options);

}  // namespace imgpar
