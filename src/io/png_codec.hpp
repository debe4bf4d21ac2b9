// PNG through libpng (decoding) and imgpar's own encoder on zlib, where the
// build found libpng (IMGPAR_HAVE_LIBPNG, which brings zlib). Without it,
// load.cpp and save.cpp use stb.
//
// Why our own encoder: it splits the deflate work into segments compressed on
// several threads (libpng compresses on one), and picks each row's filter
// with vectorised loops. Measurements are in the README (--compression).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/metadata.hpp"

namespace imgpar {

// zlib level 1 with the run-length strategy (see png_encode): on photos and
// imgpar's results it is the fastest setting that compresses, and smaller
// than zlib's levels 1 to 3.
constexpr int kDefaultPngCompression = 1;

// Filtered bytes per deflate segment (whole rows, at least one): large enough
// that the segments' seams cost nothing measurable (a few bytes each), small
// enough that a 2 MP image keeps several threads busy.
constexpr std::size_t kDefaultPngSegmentBytes = std::size_t{1} << 20;

struct PngEncodeOptions {
    // 0: stored, no compression. 1: deflate with run-length matches only
    // (zlib's Z_RLE). 2-9: zlib's levels with its strategy for filtered
    // data (Z_FILTERED): slower, smaller on drawings and flat areas.
    int compression = kDefaultPngCompression;
    // Threads that deflate segments of the image at once; 0: as many as
    // cpu_thread_count() allows on the calling thread. The bytes written do
    // not depend on it.
    int threads = 0;
    // How the image is cut for deflate (see png_encode.cpp). The bytes
    // written depend on it, so it is a constant outside tests.
    std::size_t segment_bytes = kDefaultPngSegmentBytes;
    // Written before the image data when given: the ICC profile (iCCP) and
    // the EXIF block (eXIf).
    const ImageMetadata* metadata = nullptr;
};

// Throws imgpar::Error (usage) unless 0 <= level <= 9.
void check_png_compression(int level);

// Whether PNG goes through libpng and imgpar's encoder in this build.
bool png_codec_available();

// "libpng 1.6.39, zlib 1.2.13" or "stb_image": what reads and writes PNG here.
std::string png_codec_name();

// What a PNG's chunks before the image data say, as png_decode will deliver
// it: channels after expansion (palette: 3, or 4 with a transparency chunk;
// gray or RGB with one: 2 or 4); bit_depth as stored (1 to 16);
// file_channels, the samples a pixel has in the file (palette: 1 index).
struct PngHeaderInfo {
    int width = 0;
    int height = 0;
    int channels = 0;
    int bit_depth = 8;
    int file_channels = 0;
};

// Reads the chunks before the image data, checking their CRCs, and nothing
// row-sized: a few kilobytes whatever size the header claims. Throws
// imgpar::Error (input) naming `name` when they are invalid or truncated.
PngHeaderInfo png_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes);

// Bytes png_decode holds beside the file and the decoded image for a PNG
// with this header: libpng's two full-width rows at the widest the
// transforms make them (16-bit samples, palette and transparency
// expanded), its inflate state and read buffers.
std::uint64_t png_decode_memory(const PngHeaderInfo& h);

// The metadata of a PNG (src/io/metadata.hpp): eXIf and iCCP (inflated: at
// most 64 MiB) before the image data; the XMP packet, comments and raw
// profiles (ImageMagick's "Raw profile type iptc/exif/xmp/icc") from its
// text chunks wherever they are, each inflated within its kind's bound. A
// malformed chunk is left out and said in `problems`. A build without
// libpng (no zlib) keeps the EXIF block only.
ImageMetadata png_read_metadata(const std::vector<std::uint8_t>& bytes);

// Decodes a whole PNG to 8 bits per sample, whose header the caller has read
// (png_read_header) and checked as width x height x channels: 16-bit samples
// are rounded to nearest (libpng's png_set_scale_16: round(v / 257), as
// ImageMagick reduces them), interlaced images are deinterlaced. Throws
// imgpar::Error (input) naming `name` when the data is corrupt or truncated;
// a damaged ancillary chunk goes to `warnings`. With `allow_partial`, image
// data that ends early (the file cut, or too little of it before IEND) gives
// the rows decoded so far, the rest black, and a warning.
ImageU8 png_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                   int channels, std::vector<std::string>& warnings, bool allow_partial = false);

// The same for a PNG whose header says 16 bits per sample (for no other):
// its samples as they are, 0..65535, in the host's byte order.
ImageU16 png_decode_16(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                       int channels, std::vector<std::string>& warnings, bool allow_partial = false);

// The chunks that carry `m` in a PNG (with their CRCs), in the order
// written before the image data: iCCP, eXIf, iTXt "XML:com.adobe.xmp"
// (uncompressed), zTXt "Raw profile type iptc", then one text chunk per
// comment (tEXt; zTXt over 1 KiB; iTXt for UTF-8). What a PNG cannot hold
// (JPEG's extended XMP, a text with a NUL byte) is left out and, given
// `left_out`, said there.
std::vector<std::uint8_t> png_metadata_chunks(const ImageMetadata& m, std::vector<std::string>* left_out);

// Encodes 1 to 4 channels of 8 bits (gray, gray+alpha, RGB, RGBA) as a
// non-interlaced PNG, with no ancillary chunks but options.metadata's. Throws imgpar::Error (usage)
// for a compression level outside 0..9.
std::vector<std::uint8_t> png_encode(ConstViewU8 image, const PngEncodeOptions& options);
// The same for 16-bit samples, written as a 16-bit PNG (through a copy of
// the rows in PNG's big-endian order).
std::vector<std::uint8_t> png_encode(ConstViewU16 image, const PngEncodeOptions& options);

// Bytes png_encode holds at its peak beside the image it encodes, for an
// image of `shape` on `threads` threads with `metadata_bytes` of ICC profile
// and EXIF: every segment's deflated bytes and the file they are joined
// into (both at zlib's bound, what incompressible pixels take), and each
// thread's filtered rows, output buffer and deflate state.
std::uint64_t png_encode_memory(int width, int height, int channels, int threads, std::uint64_t metadata_bytes);

}  // namespace imgpar
