// WebP through libwebp (decode and encode), libwebpdemux (animations, the
// metadata chunks) and libwebpmux (writing those chunks), where the build
// found them (IMGPAR_HAVE_LIBWEBP). Without them WebP files are refused with
// a message that says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/metadata.hpp"

namespace imgpar {

// The quality a lossy WebP is written at when --quality is not given.
// libwebp and cwebp default to 75, which smooths fine texture; imgpar's
// JPEG default is 92, for results that are looked at closely. Measured on
// two photos (1 and 8 MP, docs/io.md): WebP 90 is 46-47 dB PSNR in 31-32%
// of the bytes of JPEG 92 (51-52 dB); WebP 75 is 43-44 dB in 16-17%.
constexpr int kDefaultWebpQuality = 90;

// Whether WebP goes through libwebp in this build.
bool webp_codec_available();

// "libwebp 1.2.4", or "" in a build without it.
std::string webp_codec_name();

// What a WebP's chunks before its image data say. WebP holds RGB or RGBA
// only: a gray image written as WebP comes back RGB (as in dwebp and
// libvips). An animation is read as its first frame drawn on the canvas.
struct WebpHeaderInfo {
    int width = 0;   // the canvas
    int height = 0;
    int channels = 0;  // 3, or 4 with alpha
    bool lossless = false;
    bool animated = false;
    int frames = 1;
    // The file's length as its RIFF header gives it (8 + the RIFF size):
    // more than the bytes there are when the file was cut.
    std::uint64_t riff_bytes = 0;
    // Memory libwebp holds beside the file and the decoded image: the
    // lossless decoder's ARGB pixels, the animation decoder's two canvases.
    std::uint64_t decoder_bytes = 0;
};

// Reads the header (WebPGetFeatures; for an animation, the demuxer's frame
// count), nothing row-sized. Throws imgpar::Error (input) naming `name` when
// it is invalid or truncated, or when this build has no libwebp.
WebpHeaderInfo webp_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes);

// The EXIF and ICCP chunks, as JPEG and PNG keep them (a leading "Exif\0\0"
// dropped). Empty where there are none, the file is malformed or this build
// has no libwebp.
ImageMetadata webp_read_metadata(const std::vector<std::uint8_t>& bytes);

// Decodes to RGB or RGBA (h.channels), libwebp's fancy upsampling as dwebp
// and libvips decode; an animation's first frame. Throws imgpar::Error
// (input) naming `name` when the data is corrupt or ends early; with
// `allow_partial` a file cut short gives the rows decoded so far (the rest
// black) and a warning.
ImageU8 webp_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const WebpHeaderInfo& h,
                    std::vector<std::string>& warnings, bool allow_partial = false);

struct WebpEncodeOptions {
    int quality = kDefaultWebpQuality;  // lossy: libwebp's 0..100 (1..100 here); ignored when lossless
    // VP8L: every pixel kept exactly, RGB under transparent pixels included.
    bool lossless = false;
    // Written as ICCP and EXIF chunks (VP8X) when given and not empty.
    const ImageMetadata* metadata = nullptr;
};

// Encodes 1 to 4 channels (gray written as RGB, gray+alpha as RGBA) with
// libwebp's method 4 (cwebp's and libvips' default effort) on its threads.
// Throws imgpar::Error: usage for an image WebP cannot hold (more than
// 16383 pixels a side), output when libwebp fails or is absent.
std::vector<std::uint8_t> webp_encode(ConstViewU8 image, const WebpEncodeOptions& options);

// The largest side a WebP may have (the VP8 and VP8L headers' 14 bits).
constexpr int kMaxWebpSide = 16383;

}  // namespace imgpar
