// TIFF through libtiff (IMGPAR_HAVE_LIBTIFF): reading 1- to 16-bit integer
// and 32- and 64-bit float samples, gray / gray+alpha / RGB / RGBA, palette and
// CMYK (converted to RGB), in strips or tiles, contiguous or in separate
// planes, with any compression libtiff decodes; writing 8- and 16-bit
// gray / gray+alpha / RGB / RGBA, uncompressed, LZW or Deflate. Without
// libtiff, TIFF files are refused with a message that says so.
//
// Why libtiff: it is the format's reference library (every TIFF tool on
// Debian reads through it), it decodes every compression the field uses
// (LZW, Deflate old and new, PackBits, JPEG in both colour models, ...),
// and it checks directories, offsets and counts against the file. imgpar
// reads strips and tiles itself (TIFFReadEncodedStrip/Tile) instead of
// libtiff's TIFFReadRGBAImage, which keeps 8 bits only; the RGBA interface
// is the fallback for colour models imgpar does not convert itself
// (YCbCr without JPEG, CIE L*a*b*, LogLuv).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/metadata.hpp"

namespace imgpar {

// Whether this build reads and writes TIFF.
bool tiff_codec_available();

// "libtiff 4.5.0", or "" without it.
std::string tiff_codec_name();

enum class TiffCompression { None, Lzw, Deflate };

// none, lzw, deflate (what --compression takes for TIFF outputs).
const char* tiff_compression_name(TiffCompression c);

// Deflate with the horizontal predictor: lossless, and on photos and scans
// a third to a half of the uncompressed size, as fast to read as LZW.
constexpr TiffCompression kDefaultTiffCompression = TiffCompression::Deflate;

// What one page's directory says, as tiff_decode will deliver it.
struct TiffHeaderInfo {
    int width = 0;
    int height = 0;
    int channels = 0;       // as decoded: palette and CMYK become RGB(A)
    int bit_depth = 8;      // bits per sample in the file: 1, 2, 4, 8, 16, or 32 and 64 (float)
    bool floating = false;  // 32- or 64-bit IEEE float samples
    int page = 0;           // the page this describes (0-based)
    int pages = 1;          // pages (directories) in the file
    // The colour space as stored (the photometric interpretation, with its
    // alpha): "gray", "gray+alpha", "RGB", "RGBA", "palette", "CMYK",
    // "YCbCr", ... as ImageHeader::color_space takes it.
    std::string color_space;
    std::string compression;  // "none", "LZW", "Deflate", "PackBits", "JPEG", ...
    bool tiled = false;
    bool separate_planes = false;
    bool associated_alpha = false;
    // Bytes the decoder holds beside the file and the 8-bit image: a strip
    // or tile, the samples as stored, the 16-bit image before reduction.
    std::uint64_t decoder_bytes = 0;
    // Strips or tiles whose data lies beyond the end of the file (a cut
    // file), as a sentence; empty when all are there.
    std::string truncated;
    // The ICC profile (TIFFTAG_ICCPROFILE).
    std::vector<std::uint8_t> icc;
    // The page's Orientation tag (2 to 8; 1, upright, and none give an
    // empty block) as an EXIF block with that one entry, so --auto-orient,
    // info and other formats' outputs see it as they see a JPEG's.
    std::vector<std::uint8_t> exif;
    // The XMP packet (XMLPacket, tag 700), the IPTC-IIM records
    // (RichTIFFIPTC, tag 33723, its padding to 4 bytes removed) and the
    // ImageDescription (tag 270), read as a comment: what libvips and
    // ImageMagick keep there.
    std::vector<std::uint8_t> xmp;
    std::vector<std::uint8_t> iptc;
    std::string description;
};

// Reads page `page`'s directory (0-based; a page beyond the last is an
// error that says how many there are) and checks that imgpar can decode
// it: a supported sample format, bit depth and colour model. Reads no
// pixel data. Throws imgpar::Error (input) naming `name`.
TiffHeaderInfo tiff_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes, int page,
                                std::uint64_t max_memory);

// The samples of a page with more than 8 bits (16-bit integers, or 32- and
// 64-bit floats mapped to 0..65535: clamped to [0, 1], times 65535, rounded to
// nearest; NaN is 0), converted to gray / gray+alpha / RGB / RGBA as
// tiff_decode describes. Throws imgpar::Error (input) as tiff_decode.
ImageU16 tiff_decode_u16(const std::string& name, const std::vector<std::uint8_t>& bytes, const TiffHeaderInfo& h,
                         std::vector<std::string>& warnings, bool allow_partial, std::uint64_t max_memory);

// Decodes page h.page (whose header the caller read and checked) to 8 bits
// per sample: 1/2/4-bit gray scaled to 0..255; min-is-white inverted;
// palette through its colour map and CMYK as R = (1 - C)(1 - K) ... (no
// colour management), each with a warning; associated (premultiplied)
// alpha divided out, since imgpar's images carry unassociated alpha;
// samples beyond the alpha dropped with a warning; 16-bit and float pages
// through tiff_decode_u16, then rounded to nearest as 16-bit PNGs are
// (round(v / 257)). A strip or tile that cannot be read is an error, or
// with `allow_partial` left black with a warning. libtiff's warnings go to
// `warnings`, prefixed "TIFF data: ".
ImageU8 tiff_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const TiffHeaderInfo& h,
                    std::vector<std::string>& warnings, bool allow_partial, std::uint64_t max_memory);

struct TiffEncodeOptions {
    TiffCompression compression = kDefaultTiffCompression;
    // Written when given: the ICC profile (TIFFTAG_ICCPROFILE) and the EXIF
    // block's orientation (TIFFTAG_ORIENTATION; the rest of the EXIF block
    // is not written to TIFF yet).
    const ImageMetadata* metadata = nullptr;
};

// Encodes one page, in strips of about 64 KiB, with the horizontal
// predictor for LZW and Deflate; alpha is stored as unassociated
// (ExtraSamples = 2), as imgpar's images carry it. Throws imgpar::Error
// (output) when libtiff fails.
std::vector<std::uint8_t> tiff_encode(ConstViewU8 image, const TiffEncodeOptions& options);
std::vector<std::uint8_t> tiff_encode(ConstViewU16 image, const TiffEncodeOptions& options);

// The same file written to `fd` (open for writing, at its start, left open)
// strip by strip as it is made, so the encoded file is never held in
// memory. Throws imgpar::Error (output) naming `name` when libtiff or a
// write fails (a full disk says so).
void tiff_encode_to_file(int fd, const std::string& name, ConstViewU8 image, const TiffEncodeOptions& options);
void tiff_encode_to_file(int fd, const std::string& name, ConstViewU16 image, const TiffEncodeOptions& options);

// Whether an EXIF block holds nothing TIFF's writer leaves out: at most
// the one entry of an orientation (as TiffHeaderInfo::exif is made).
bool tiff_keeps_whole_exif(const std::vector<std::uint8_t>& exif);

// Bytes tiff_encode holds at its peak beside the image: the file (at the
// size of the samples, what incompressible ones take, plus its growth by
// doubling) and a strip and its compressed copy.
std::uint64_t tiff_encode_memory(int width, int height, int channels, int sample_bytes, std::uint64_t metadata_bytes);
// The same when the file is written strip by strip as it is made
// (saves_streamed): the strips' buffers only, never the file.
std::uint64_t tiff_stream_memory(int width, int height, int channels, int sample_bytes);

}  // namespace imgpar
