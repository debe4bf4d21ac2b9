// JPEG through libjpeg-turbo (its libjpeg API), where the build found it
// (IMGPAR_HAVE_LIBJPEG): 3-10x faster than stb's codec, with the pixels that
// OpenCV, libvips and ImageMagick decode. Without it, load.cpp and save.cpp
// use stb.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/metadata.hpp"

namespace imgpar {

// How JPEG stores colour (chroma) relative to luma: full resolution (4:4:4),
// halved across (4:2:2) or halved both ways (4:2:0). Auto: 4:4:4 above
// quality 90, 4:2:0 at 90 and below (what imgpar's JPEGs have always had,
// and what stb's encoder does). Gray images have no chroma.
enum class ChromaSubsampling { Auto, S444, S422, S420 };

// From a --chroma-subsampling value: auto, 444, 422, 420. Throws
// imgpar::Error (usage) for anything else.
ChromaSubsampling parse_chroma_subsampling(const std::string& text);

// What Auto means at `quality` (the others stay as they are).
ChromaSubsampling resolved_chroma(ChromaSubsampling chroma, int quality);

// Whether JPEG goes through libjpeg-turbo in this build.
bool jpeg_codec_available();

// "libjpeg-turbo 2.1.5" or "stb_image": what reads and writes JPEG here.
std::string jpeg_codec_name();

// What a JPEG's markers up to its first scan say, read by libjpeg-turbo
// itself (jpeg_read_header, which checks every table it reads: a Huffman
// table of more than 256 codes is refused). Nothing is decoded.
struct JpegHeaderInfo {
    int width = 0;
    int height = 0;
    int components = 0;  // in the file: 1 gray, 3 colour, 4 CMYK/YCCK
    int channels = 0;    // as decoded: 1 gray, else 3 (CMYK converted to RGB)
    bool progressive = false;
    // The DCT coefficients of the whole image, which libjpeg-turbo holds
    // while it decodes a progressive (or any multi-scan) file.
    std::uint64_t coefficient_bytes = 0;
};

// Throws imgpar::Error (input) naming `name` when the header is invalid,
// truncated or of a kind this build cannot decode (output when this build
// has no libjpeg-turbo).
JpegHeaderInfo jpeg_read_header_info(const std::string& name, const std::vector<std::uint8_t>& bytes);

struct JpegDecodeOptions {
    // Scan data that ends before the image does (libjpeg-turbo's warnings
    // "Premature end of JPEG file" and "premature end of data segment",
    // after which it fills the rest) is an error unless this is set; then it
    // is a warning and the missing part decodes gray.
    bool allow_partial = false;
    // Passed to libjpeg-turbo as the most memory it may allocate (0: no
    // bound of its own): the caller's estimate has been checked already.
    std::uint64_t max_memory = 0;
    // libjpeg-turbo's DCT scaling (shrink-on-load): 1, 2, 4 or 8 decodes at
    // 1/scale_denom of the size, ceil(width / d) x ceil(height / d), with its
    // reduced inverse DCTs (no full-size pixels are made).
    int scale_denom = 1;
};

// Decodes a whole JPEG to gray or RGB (CMYK converted to RGB), whose header
// the caller has read and checked as width x height: a frame of another size
// is refused before anything is allocated. A large sequential file decodes in
// bands on cpu_thread_count() threads, to the same pixels. Throws imgpar::Error (input)
// naming `name` when the data is corrupt or ends early (see JpegDecodeOptions);
// recoverable damage (libjpeg's warnings) goes to `warnings`.
ImageU8 jpeg_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                    std::vector<std::string>& warnings, const JpegDecodeOptions& options = {});

// Encodes gray (1 channel) or RGB (3); alpha is the caller's to drop. With
// `metadata`, its EXIF block goes into an APP1 segment (when it fits in one:
// 64 KiB, as the standard allows) and its ICC profile into APP2 segments.
// An image of 2 MP or more is encoded in stripes on cpu_thread_count()
// threads, joined with restart markers (see jpeg_codec.cpp): the pixels
// decoded are those of a one-piece encode (`stripes` false: the tests' way to
// make one), the bytes depend on the image's size only.
std::vector<std::uint8_t> jpeg_encode(ConstViewU8 image, int quality, ChromaSubsampling chroma = ChromaSubsampling::Auto,
                                      const ImageMetadata* metadata = nullptr, bool stripes = true);

// The markers jpeg_encode writes before the entropy-coded data of a `width` x
// `height` image of `channels` (1-4: alpha is not stored), without metadata:
// SOI to the end of SOS, with the restart interval (DRI) of its stripes when
// it would encode in stripes. libjpeg-turbo's own bytes (from an encode of a
// small image with the same settings), for an encoder that writes the rest
// (src/io/jpeg_encode_plan.hpp). Throws imgpar::Error: usage for a size or
// quality JPEG cannot hold, output when this build has no libjpeg-turbo.
std::vector<std::uint8_t> jpeg_stream_header(int width, int height, int channels, int quality, ChromaSubsampling chroma);

}  // namespace imgpar
