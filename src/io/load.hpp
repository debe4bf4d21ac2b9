// Loading images, safely: the file is read within a bound, its header is
// read and checked against a pixel limit and a memory budget before anything
// is decoded, and every failure names the file and says that file's reason.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/image_format.hpp"
#include "src/io/metadata.hpp"

namespace imgpar {

// 2^28 pixels (16384 x 16384): a 1 GiB RGBA image once decoded.
constexpr std::uint64_t kDefaultMaxPixels = std::uint64_t{1} << 28;

// The memory one file may need by default: 4 GiB, or half of the machine's
// memory where that is less (at least 1 GiB). What it admits: a 16384x8192
// RGBA panorama through the heaviest command (box: 7 image-sized buffers,
// 3.5 GiB) and an 8K photo through anything; what it refuses: a file that
// decodes to a 16384x16384 RGBA image for blur (5.0 GiB), however small the
// file (a 1 MB PNG can claim that much).
std::uint64_t default_max_memory();

struct LoadOptions {
    std::uint64_t max_pixels = kDefaultMaxPixels;
    // Bytes one file may need at its peak, estimated from its header before
    // decoding (estimate_memory); the file itself must fit in it too.
    std::uint64_t max_memory = default_max_memory();
    // Image-sized buffers (width x height x channels bytes) the caller holds
    // at its peak, the decoded image included: 1 to decode, more for a
    // command's own buffers (measured: blur 5, box 7, ...). 0: the caller
    // reads headers only, and neither the budget nor the completeness of the
    // data is checked (imgpar info).
    double images = 1;
    // Image data that ends before the image does (a cut file, a scan too
    // short for its blocks) is an error unless this is set; then the part
    // that is there decodes (the rest black or gray) with a warning.
    bool allow_partial = false;
    // The page of a multi-page file (TIFF) to read, 0-based: a path's
    // "[N]" suffix (src/io/page_select.hpp) sets it for that file. Other
    // formats have one page, 0.
    int page = 0;
    // Whether a file of more than 8 bits per sample that imgpar reads at 16
    // bits (loads_16_bits) is decoded so, into LoadedImage::image16, rather
    // than reduced to 8 bits: set by runs whose every step takes u16.
    bool keep_16_bits = false;
};

// What the file's header says, before decoding.
struct ImageHeader {
    ImageFormat format = ImageFormat::Png;
    int width = 0;
    int height = 0;
    int channels = 0;   // as decoded: palette PNGs count as RGB(A)
    int bit_depth = 8;  // bits per sample in the file (16-bit PNGs load as 8; 32, 64: TIFF's floats)
    int page = 0;       // the page read (TIFF), 0-based, of `pages`
    std::size_t file_bytes = 0;
    // Memory the decoder needs beside the file and the decoded image:
    // libjpeg-turbo's coefficients of a progressive JPEG, libpng's rows,
    // stb's own buffers.
    std::uint64_t decoder_bytes = 0;
    // The colour space the file stores (src/io/color_space.hpp: "YCbCr",
    // "CMYK", "palette+tRNS"...; TIFF's, WebP's and GIF's from their
    // readers), or "" where its reader does not say (info then shows the
    // layout). The number of pages or frames the file holds
    // (1 for PNG, JPEG and BMP; a TIFF's pages, of which `page` is decoded;
    // an animation's frames, of which the first is decoded).
    std::string color_space;
    int pages = 1;
    // EXIF, ICC profile, XMP, IPTC and comments; what was dropped is in
    // metadata.problems, and in `notes` (warned of when the file is decoded).
    ImageMetadata metadata;
    // Read with the checks decoding needs (LoadOptions::images > 0): then
    // decode_image can take this header instead of reading it again, and
    // `notes` holds what a partial decode (--allow-partial) will warn of.
    bool decode_checked = false;
    std::vector<std::string> notes;
};

struct LoadedImage {
    ImageU8 image;      // the pixels, unless they are in image16
    ImageU16 image16;   // a 16-bit file's pixels, when LoadOptions::keep_16_bits asked for them
    bool sixteen() const { return !image16.empty(); }
    ImageHeader header;
    std::vector<std::string> warnings;  // e.g. "16-bit PNG reduced to 8 bits"
};

// Bytes the metadata of `h` takes while its file is processed: it goes to
// the output, held by the header and its copies (the source's, the file's
// run, the sink's), each vector up to twice its size as it was read (a
// PNG's profile is inflated in steps).
std::uint64_t metadata_memory(const ImageHeader& h);

// Whether a file with header `h` decodes to 16-bit samples when
// LoadOptions::keep_16_bits asks: a 16-bit PNG (read through libpng), a
// TIFF of 16-bit integers or 32- or 64-bit floats (mapped to 0..65535), a
// 10- or 12-bit AVIF (scaled to 0..65535 as libavif does).
bool loads_16_bits(const ImageHeader& h);

// The sample type a file with header `h` is decoded to under `options`.
inline SampleType loaded_type(const ImageHeader& h, const LoadOptions& options) {
    return options.keep_16_bits && loads_16_bits(h) ? SampleType::U16 : SampleType::U8;
}

// Bytes that decoding `h` and holding options.images image-sized buffers
// need at the peak: the file, the decoder's own memory, the metadata, the
// buffers.
std::uint64_t estimate_memory(const ImageHeader& h, const LoadOptions& options);

// Throws imgpar::Error (input, naming the file) when `need` bytes (what
// decoding `h`, and `processing` it, take at the peak) exceed
// options.max_memory.
void check_memory(const std::string& name, const ImageHeader& h, std::uint64_t need, bool processing,
                  const LoadOptions& options);

// Reads `path` ("-" = standard input) within the budget (and 2 GiB): a
// regular file too large is refused from its size, a stream or device once
// it passes the bound, and anything whose first bytes are no PNG, JPEG or
// BMP before the rest is read (/dev/zero fails at once). Throws
// imgpar::Error (input) naming the file.
std::vector<std::uint8_t> read_image_file(const std::string& path, const LoadOptions& options);

// Reads and checks the header of an in-memory file. `name` is used in
// messages. Throws imgpar::Error (input) for non-images, unsupported
// formats, corrupt headers and images above options.max_pixels; when the
// caller will decode (options.images > 0), also for images whose estimate
// is above options.max_memory and, unless options.allow_partial, for image
// data that ends before the image does (a JPEG without its end marker or
// with scan data too short for its blocks; a BMP or, without libpng, a PNG
// cut short). In builds that read JPEG with stb, a JPEG whose tables stb
// would mishandle is refused here (src/io/jpeg_check.hpp).
ImageHeader read_image_header(const std::string& name, const std::vector<std::uint8_t>& bytes,
                              const LoadOptions& options);

// Checks the header, then decodes to 8 bits per sample, channels as stored.
LoadedImage decode_image(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options);
// The same with the header the caller has already read from these bytes
// with these options; one read without the decoding checks is read again.
// `shrink` 2, 4 or 8 decodes a JPEG at that fraction of its size
// (shrink-on-load: libjpeg-turbo's DCT scaling, ceil(width / shrink) x
// ceil(height / shrink)); other formats take 1 only (usage error).
LoadedImage decode_image(const std::string& name, const std::vector<std::uint8_t>& bytes, const ImageHeader& header,
                         const LoadOptions& options, int shrink = 1);

// ceil(side / shrink): a side decoded with shrink-on-load.
inline int shrunk_side(int side, int shrink) { return (side + shrink - 1) / shrink; }

// Reads `path` ("-" = stdin) and decodes it; "scan.tif[N]" reads page N
// where no file has that name (src/io/page_select.hpp).
LoadedImage load_image(const std::string& path, const LoadOptions& options = {});

}  // namespace imgpar
