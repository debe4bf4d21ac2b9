#include "src/io/load.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <new>

#include "src/error.hpp"
#include "src/io/byte_size.hpp"
#include "src/io/color_space.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/header_peek.hpp"
#include "src/io/jpeg_check.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/io/page_select.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/sample_depth.hpp"
#include "src/io/avif_codec.hpp"
#include "src/io/gif_codec.hpp"
#include "src/io/webp_codec.hpp"
#include "src/io/stb_decode.hpp"
#include "src/io/stb_guard.hpp"
#include "src/io/tiff_codec.hpp"

namespace imgpar {

namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
// The decoders take the file's size as an int.
constexpr std::uint64_t kMaxFileBytes = INT_MAX;

// Names formats we recognise but do not read, so the message can say so.
const char* foreign_format(const std::uint8_t* b, std::size_t size) {
    auto starts = [&](const char* sig, std::size_t n, std::size_t at = 0) {
        return size >= at + n && std::memcmp(b + at, sig, n) == 0;
    };
    if (starts("GIF8", 4)) return "GIF (other than GIF87a and GIF89a)";
    if (starts("\0\0\0\x0c" "jP  ", 8)) return "JPEG 2000";
    if (starts("ftyp", 4, 4)) return "HEIF (other than AVIF)";
    if (starts("8BPS", 4)) return "PSD";
    if (starts("%PDF", 4)) return "PDF";
    return nullptr;
}

// The format the signature names, or an error saying what the file is not.
ImageFormat format_of(const std::string& name, const std::uint8_t* b, std::size_t size) {
    if (auto format = sniff_format(b, size)) return *format;
    if (const char* other = foreign_format(b, size))
        throw input_error(name, std::string(other) + " files are not supported (imgpar reads PNG, JPEG, BMP, WebP, AVIF, GIF and TIFF)");
    throw input_error(name, "not a PNG, JPEG, BMP, WebP, AVIF, GIF or TIFF image (unrecognised file signature)");
}

void check_pixel_limit(const std::string& name, std::uint64_t w, std::uint64_t h, std::uint64_t max_pixels) {
    const std::uint64_t pixels = w * h;  // both < 2^32: no overflow
    if (pixels > max_pixels)
        throw input_error(name, "image is " + std::to_string(w) + "x" + std::to_string(h) + " = " + std::to_string(pixels) +
                                    " pixels, above the limit of " + std::to_string(max_pixels) +
                                    " (raise it with --max-pixels)");
}

// The limit stb has always had (and imgpar with it), kept for libpng so that
// a raised --max-pixels still cannot ask for more memory than this.
constexpr std::uint64_t kMaxDecodedSamples = std::uint64_t{1} << 30;
void check_decoder_capacity(const std::string& name, std::uint64_t w, std::uint64_t h, std::uint64_t channels) {
    if (w * h * channels > kMaxDecodedSamples)  // each below 2^32, channels <= 4: no overflow
        throw input_error(name, "image is " + std::to_string(w) + "x" + std::to_string(h) +
                                    ", more than the decoder can hold (1 GiB of decoded samples)");
}

[[noreturn]] void refuse_partial(const std::string& name, ImageFormat f, const std::string& how) {
    throw input_error(name, std::string(format_label(f)) + " data is truncated: " + how +
                                "; --allow-partial decodes what is there");
}

// Whether a JPEG's scan data is all there: its end marker, data enough for
// its blocks, every component filled. Refused unless partial images are
// allowed; then what is missing is said in `notes`.
void check_jpeg_whole(const std::string& name, const JpegCheck& c, const LoadOptions& options,
                      std::vector<std::string>& notes) {
    std::string how;
    if (c.data_too_short())
        how = "its scans hold " + std::to_string(c.scan_bytes) + " bytes of coded data, fewer than the " +
              std::to_string(c.min_scan_bytes) + " that the blocks of its frame need at the least";
    else if (!c.ends)
        how = "the file ends before its end-of-image marker";
    else if (!c.uncovered.empty())
        how = c.uncovered;
    if (how.empty()) return;
    if (!options.allow_partial) refuse_partial(name, ImageFormat::Jpeg, how);
    notes.push_back("JPEG data is truncated (" + how + "): decoding what is there (--allow-partial)");
}

// libjpeg-turbo reads the header (and checks its tables); the walk over the
// markers serves the checks before decoding. Problems the walk finds but
// libjpeg-turbo accepts (Motion JPEG's missing Huffman tables) are left to
// it, except a number of scans no photo has.
void read_jpeg_with_libjpeg(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options,
                            ImageHeader& h) {
    const JpegHeaderInfo j = jpeg_read_header_info(name, bytes);
    h.width = j.width;
    h.height = j.height;
    h.channels = j.channels;
    h.decoder_bytes = j.coefficient_bytes;
    if (options.images <= 0) return;
    const JpegCheck c = check_jpeg(bytes.data(), bytes.size());
    if (c.scans > kMaxJpegScans) throw input_error(name, "the JPEG is malformed: " + c.problem);
    if (c.problem.empty()) check_jpeg_whole(name, c, options, h.notes);
}

// libtiff reads the page's directory; strips or tiles past the end of the
// file are found before decoding, as a JPEG's missing scan data is.
std::string read_tiff(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options,
                      ImageHeader& h) {
    const TiffHeaderInfo t = tiff_read_header(name, bytes, options.page, options.max_memory);
    h.width = t.width;
    h.height = t.height;
    h.channels = t.channels;
    h.bit_depth = t.bit_depth;
    h.page = t.page;
    h.pages = t.pages;
    h.color_space = t.color_space;
    h.decoder_bytes = t.decoder_bytes;
    h.metadata.icc = t.icc;
    h.metadata.exif = t.exif;
    h.metadata.xmp = t.xmp;
    h.metadata.iptc = t.iptc;
    if (!t.description.empty()) h.metadata.comments.push_back(Comment{"Comment", t.description, false});
    return t.truncated;
}

// Strips or tiles past the end of a TIFF (read_tiff's sentence), once the
// size is known to be within the limits: refused, or a note for the decode.
void check_tiff_whole(const std::string& name, const std::string& missing, const LoadOptions& options, ImageHeader& h) {
    if (options.images <= 0 || missing.empty()) return;
    if (!options.allow_partial) refuse_partial(name, ImageFormat::Tiff, missing);
    h.notes.push_back("TIFF data is truncated (" + missing + "): what is missing is black (--allow-partial)");
}

// The header decode_image gives tiff_decode: what read_tiff took from it.
TiffHeaderInfo tiff_header_of(const ImageHeader& h) {
    TiffHeaderInfo t;
    t.width = h.width;
    t.height = h.height;
    t.channels = h.channels;
    t.bit_depth = h.bit_depth;
    t.floating = h.bit_depth == 32 || h.bit_depth == 64;
    t.page = h.page;
    t.pages = h.pages;
    return t;
}

// stb's buffers for a JPEG: a plane per component in whole MCUs, the
// coefficients of a progressive one (2 bytes a sample), its own output.
std::uint64_t stb_jpeg_bytes(const std::vector<std::uint8_t>& bytes, const ImageHeader& h) {
    const JpegLayout l = read_jpeg_layout(bytes.data(), bytes.size());
    int hmax = 1, vmax = 1;
    for (int c = 0; c < l.components && c < 4; ++c) {
        hmax = std::max(hmax, l.sampling_h[c]);
        vmax = std::max(vmax, l.sampling_v[c]);
    }
    const std::uint64_t mx = (static_cast<std::uint64_t>(l.width) + 8 * hmax - 1) / (8 * hmax);
    const std::uint64_t my = (static_cast<std::uint64_t>(l.height) + 8 * vmax - 1) / (8 * vmax);
    std::uint64_t planes = 0;
    for (int c = 0; c < l.components && c < 4; ++c)
        planes += mx * 8 * static_cast<std::uint64_t>(l.sampling_h[c]) * my * 8 * static_cast<std::uint64_t>(l.sampling_v[c]);
    const bool progressive = l.frame_marker == 0xC2;
    return planes * (progressive ? 3 : 1) +
           static_cast<std::uint64_t>(h.width) * static_cast<std::uint64_t>(h.height) * static_cast<std::uint64_t>(h.channels);
}

// stb reads the header; imgpar's guards stand in front of it first
// (src/io/jpeg_check.hpp, src/io/stb_guard.hpp).
void read_with_stb(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options,
                   ImageHeader& h) {
    const bool decoding = options.images > 0;
    const std::uint8_t* d = bytes.data();
    bool transparent_color = false;
    int png_channels_in_file = 0;
    switch (h.format) {
        case ImageFormat::Jpeg: {
            const JpegCheck c = check_jpeg(d, bytes.size());
            if (!c.problem.empty() && (c.problem_in_header || decoding))
                throw input_error(name, "the JPEG is malformed: " + c.problem);
            if (c.frame && c.arithmetic)
                throw input_error(name, "arithmetic-coded JPEG is not supported by this build's decoder (stb_image; "
                                        "imgpar built with libjpeg-turbo reads it)");
            if (decoding) check_jpeg_whole(name, c, options, h.notes);
            break;
        }
        case ImageFormat::Png: {
            const PngChunks c = check_png_chunks(d, bytes.size());
            if (!c.guard.problem.empty()) throw input_error(name, "the PNG is malformed: " + c.guard.problem);
            if (decoding && !c.guard.truncated.empty()) {
                if (!options.allow_partial) refuse_partial(name, ImageFormat::Png, c.guard.truncated);
                throw input_error(name, "PNG data is truncated (" + c.guard.truncated +
                                            "), and this build's PNG decoder (stb_image) cannot decode part of a file");
            }
            transparent_color = c.transparent_color;
            // Samples a pixel of each colour type has (palette: one index).
            png_channels_in_file = c.color_type == 2 ? 3 : c.color_type == 4 ? 2 : c.color_type == 6 ? 4 : 1;
            break;
        }
        case ImageFormat::Tiff: break;  // (read_tiff)
        case ImageFormat::Bmp: {
            const StbGuard g = check_bmp(d, bytes.size(), decoding);
            if (!g.problem.empty()) throw input_error(name, "the BMP is malformed: " + g.problem);
            if (decoding && !g.truncated.empty()) {
                if (!options.allow_partial) refuse_partial(name, ImageFormat::Bmp, g.truncated);
                h.notes.push_back("BMP data is truncated (" + g.truncated +
                                  "): the rows it does not reach are black (--allow-partial)");
            }
            break;
        }
        default: break;  // (read by their libraries: read_library_header)
    }
    const StbHeader s = stb_read_header(name, bytes, h.format, transparent_color);
    h.width = s.width;
    h.height = s.height;
    h.channels = s.channels;
    h.bit_depth = s.sixteen_bit ? 16 : 8;
    const std::uint64_t pixels = static_cast<std::uint64_t>(h.width) * static_cast<std::uint64_t>(h.height);
    const std::uint64_t sample_bytes = s.sixteen_bit ? 2 : 1;
    switch (h.format) {
        case ImageFormat::Jpeg: h.decoder_bytes = stb_jpeg_bytes(bytes, h); break;
        case ImageFormat::Png: {  // the joined image data, the inflated rows, the unfiltered image
            const std::uint64_t row = 1 + static_cast<std::uint64_t>(h.width) *
                                              static_cast<std::uint64_t>(png_channels_in_file) * sample_bytes;
            h.decoder_bytes = bytes.size() + static_cast<std::uint64_t>(h.height) * row +
                              pixels * static_cast<std::uint64_t>(h.channels) * sample_bytes;
            break;
        }
        case ImageFormat::Bmp: h.decoder_bytes = pixels * static_cast<std::uint64_t>(h.channels); break;
        default: break;  // (read_tiff, read_library_header)
    }
}

// WebP, AVIF and GIF: their codec libraries read the header (nothing
// row-sized); a file cut short is found from it where the format tells
// (WebP's RIFF size, GIF's first frame without its end) before decoding.
void read_library_header(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options,
                         ImageHeader& h) {
    const bool decoding = options.images > 0;
    std::string cut;
    if (h.format == ImageFormat::Webp) {
        const WebpHeaderInfo w = webp_read_header(name, bytes);
        h.width = w.width;
        h.height = w.height;
        h.channels = w.channels;
        // An animation whose frames are all cut or missing has nothing to read.
        if (w.animated && w.frames < 1) throw input_error(name, "WebP animation without a complete frame");
        h.pages = std::max(w.frames, 1);
        // A still: lossless (VP8L) stores ARGB, lossy (VP8) YCbCr 4:2:0 with
        // its alpha apart. An animation's frames may be either: not said.
        if (w.animated) h.color_space.clear();
        else if (w.lossless) h.color_space = w.channels == 4 ? "RGBA" : "RGB";
        else h.color_space = w.channels == 4 ? "YCbCr+alpha" : "YCbCr";
        h.decoder_bytes = w.decoder_bytes;
        h.metadata = webp_read_metadata(bytes);
        if (w.riff_bytes > bytes.size())
            cut = "the file has " + std::to_string(bytes.size()) + " of the " + std::to_string(w.riff_bytes) +
                  " bytes its RIFF header gives";
        if (!cut.empty() && w.animated && decoding) throw input_error(name, "WebP animation is truncated: " + cut);
    } else if (h.format == ImageFormat::Avif) {
        const AvifHeaderInfo a = avif_read_header(name, bytes);
        h.width = a.width;
        h.height = a.height;
        h.channels = a.channels;
        h.bit_depth = a.bit_depth;
        h.pages = std::max(a.frames, 1);
        h.decoder_bytes = a.decoder_bytes;
        h.metadata = a.metadata;
    } else {
        const GifHeaderInfo g = gif_read_header(name, bytes);
        // The first frame is decoded row by row whatever the screen: its
        // own size is limited as the screen's is.
        check_pixel_limit(name, static_cast<std::uint64_t>(g.frame_width), static_cast<std::uint64_t>(g.frame_height),
                          options.max_pixels);
        h.width = g.width;
        h.height = g.height;
        h.channels = g.channels;
        h.pages = std::max(g.frames, 1);
        h.color_space = "palette";
        h.decoder_bytes = static_cast<std::uint64_t>(g.frame_width) + (std::uint64_t{1} << 16);  // a row, LZW tables
        if (g.frame_cut) cut = "the first frame's data ends before its end marker";
    }
    if (!decoding || cut.empty()) return;
    if (!options.allow_partial) refuse_partial(name, h.format, cut);
    h.notes.push_back(std::string(format_label(h.format)) + " data is truncated (" + cut +
                      "): decoding what is there (--allow-partial)");
}

bool read_by_library(ImageFormat f) { return f == ImageFormat::Webp || f == ImageFormat::Avif || f == ImageFormat::Gif; }

// The header, checked; its notes get what a partial decode should say.
ImageHeader read_header(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options) {
    if (bytes.empty()) throw input_error(name, "file is empty (0 bytes)");
    ImageHeader h;
    h.format = format_of(name, bytes.data(), bytes.size());
    if (bytes.size() > kMaxFileBytes) throw input_error(name, "file is larger than 2 GiB, which the decoder cannot read");
    h.file_bytes = bytes.size();
    if (options.page > 0 && h.format != ImageFormat::Tiff)
        throw input_error(name, "page " + std::to_string(options.page) + " does not exist: a " + format_label(h.format) +
                                    " file has one page (0)");
    // The limit is checked on the size the header claims, before the decoder
    // is asked anything, so a hostile header costs microseconds.
    const auto claimed = peek_dimensions(h.format, bytes);
    if (claimed) check_pixel_limit(name, claimed->width, claimed->height, options.max_pixels);

    const bool libjpeg = h.format == ImageFormat::Jpeg && jpeg_codec_available();
    std::string tiff_missing;
    // A size beyond libpng's or stb's capacity is refused before they read
    // anything.
    if (claimed && !libjpeg) check_decoder_capacity(name, claimed->width, claimed->height, 1);
    if (h.format == ImageFormat::Png && png_codec_available()) {
        // libpng reads the chunks before the image data too: a transparency
        // chunk adds an alpha channel.
        const PngHeaderInfo png = png_read_header(name, bytes);
        h.width = png.width;
        h.height = png.height;
        h.channels = png.channels;
        h.bit_depth = png.bit_depth == 16 ? 16 : 8;
        h.decoder_bytes = png_decode_memory(png);
    } else if (libjpeg) {
        read_jpeg_with_libjpeg(name, bytes, options, h);
    } else if (h.format == ImageFormat::Tiff) {
        tiff_missing = read_tiff(name, bytes, options, h);
        // Its directory is its header: the size it claims meets the limit
        // first, as a PNG's does from peek_dimensions.
        check_pixel_limit(name, static_cast<std::uint64_t>(h.width), static_cast<std::uint64_t>(h.height), options.max_pixels);
    } else if (read_by_library(h.format)) {
        read_library_header(name, bytes, options, h);
    } else {
        read_with_stb(name, bytes, options, h);
    }
    if (!libjpeg)
        check_decoder_capacity(name, static_cast<std::uint64_t>(std::max(h.width, 0)),
                               static_cast<std::uint64_t>(std::max(h.height, 0)), static_cast<std::uint64_t>(std::max(h.channels, 0)));
    if (h.width <= 0 || h.height <= 0) throw input_error(name, "the header gives a zero image size");
    if (h.channels < 1 || h.channels > 4)
        throw input_error(name, "the header gives " + std::to_string(h.channels) + " channels (supported: 1 to 4)");
    check_pixel_limit(name, static_cast<std::uint64_t>(h.width), static_cast<std::uint64_t>(h.height), options.max_pixels);
    if (h.format == ImageFormat::Jpeg) h.metadata = read_jpeg_metadata(bytes.data(), bytes.size());
    if (h.format == ImageFormat::Png) h.metadata = png_read_metadata(bytes);
    for (const std::string& p : h.metadata.problems) h.notes.push_back("metadata: " + p);
    if (h.color_space.empty()) h.color_space = stored_color_space(h.format, bytes.data(), bytes.size(), h.channels);

    if (options.images > 0) {
        check_memory(name, h, estimate_memory(h, options), options.images > 1, options);
        if (h.format == ImageFormat::Tiff) check_tiff_whole(name, tiff_missing, options, h);
        h.decode_checked = true;
    }
    return h;
}

LoadedImage decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& given,
                   const ImageHeader* known, int shrink = 1) {
    LoadOptions options = given;
    options.images = std::max(options.images, 1.0);
    if (known) options.page = known->page;
    LoadedImage out;
    out.header = known && known->decode_checked ? *known : read_header(name, bytes, options);
    const ImageHeader& h = out.header;
    out.warnings = h.notes;
    if (options.keep_16_bits && loads_16_bits(h) && shrink == 1) {
        if (h.format == ImageFormat::Tiff) {
            out.image16 =
                tiff_decode_u16(name, bytes, tiff_header_of(h), out.warnings, options.allow_partial, options.max_memory);
            if (h.bit_depth > 16)
                out.warnings.push_back(std::to_string(h.bit_depth) +
                                       "-bit float TIFF read as 16-bit samples (clamped to [0, 1], times 65535, rounded)");
        } else if (h.format == ImageFormat::Png) {
            out.image16 = png_decode_16(name, bytes, h.width, h.height, h.channels, out.warnings, options.allow_partial);
        } else {
            out.image16 = avif_decode_16(name, bytes, avif_read_header(name, bytes), options.max_pixels);
        }
        if (out.image16.width() != h.width || out.image16.height() != h.height || out.image16.channels() != h.channels)
            throw input_error(name, "the decoded image differs from its header in size or channels (corrupt file)");
        return out;
    }
    if (h.format == ImageFormat::Tiff) {
        out.image = tiff_decode(name, bytes, tiff_header_of(h), out.warnings, options.allow_partial, options.max_memory);
    } else if (h.format == ImageFormat::Png && png_codec_available()) {
        out.image = png_decode(name, bytes, h.width, h.height, h.channels, out.warnings, options.allow_partial);
    } else if (h.format == ImageFormat::Jpeg && jpeg_codec_available()) {
        JpegDecodeOptions jpeg;
        jpeg.allow_partial = options.allow_partial;
        jpeg.max_memory = options.max_memory;
        jpeg.scale_denom = shrink;
        out.image = jpeg_decode(name, bytes, h.width, h.height, out.warnings, jpeg);
        if (out.image.channels() != h.channels)
            throw input_error(name, "decoded channel count differs from the header (corrupt file)");
    } else if (h.format == ImageFormat::Webp) {
        out.image = webp_decode(name, bytes, webp_read_header(name, bytes), out.warnings, options.allow_partial);
    } else if (h.format == ImageFormat::Avif) {
        const AvifHeaderInfo a = avif_read_header(name, bytes);
        out.image = avif_decode(name, bytes, a, options.max_pixels);
        if (a.frames > 1)
            out.warnings.push_back("AVIF image sequence of " + std::to_string(a.frames) + " frames: the first frame is read");
    } else if (h.format == ImageFormat::Gif) {
        out.image = gif_decode(name, bytes, gif_read_header(name, bytes), out.warnings, options.allow_partial);
    } else {
        StbHeader s;
        s.width = h.width;
        s.height = h.height;
        s.channels = h.channels;
        s.sixteen_bit = h.bit_depth == 16;
        // stb_image stops at a JPEG's end marker, and fails where the file
        // ends without one: a partial file gets one (a copy of the file's
        // bytes, not of pixels), so the blocks its data does not reach decode
        // from zeros. The two bytes may complete a segment the file cut
        // (a table's code counts): the copy is checked again.
        if (options.allow_partial && h.format == ImageFormat::Jpeg && !check_jpeg(bytes.data(), bytes.size()).ends) {
            std::vector<std::uint8_t> closed;
            closed.reserve(bytes.size() + 2);
            closed.assign(bytes.begin(), bytes.end());
            closed.push_back(0xFF);
            closed.push_back(0xD9);
            const JpegCheck c = check_jpeg(closed.data(), closed.size());
            if (!c.problem.empty()) throw input_error(name, "the JPEG is malformed where it is cut: " + c.problem);
            out.image = stb_decode(name, closed, h.format, s, true);
        } else {
            out.image = stb_decode(name, bytes, h.format, s, options.allow_partial);
        }
    }
    if (out.image.width() != shrunk_side(h.width, shrink) || out.image.height() != shrunk_side(h.height, shrink) ||
        out.image.channels() != h.channels)
        throw input_error(name, "the decoded image differs from its header in size or channels (corrupt file)");
    // (tiff_decode warns of its own reduction, floats' included)
    if (h.bit_depth > 8 && h.format != ImageFormat::Tiff)
        out.warnings.insert(out.warnings.begin(), depth_reduced_warning(h.bit_depth, format_label(h.format)));
    return out;
}

}  // namespace

std::uint64_t default_max_memory() {
    static const std::uint64_t value = [] {
        const long pages = ::sysconf(_SC_PHYS_PAGES);
        const long page = ::sysconf(_SC_PAGESIZE);
        if (pages <= 0 || page <= 0) return 4 * kGiB;
        const std::uint64_t mib = std::uint64_t{1} << 20;
        const std::uint64_t half = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2 / mib * mib;
        return std::clamp(half, kGiB, 4 * kGiB);
    }();
    return value;
}

void check_memory(const std::string& name, const ImageHeader& h, std::uint64_t need, bool processing,
                  const LoadOptions& options) {
    if (need <= options.max_memory) return;
    throw input_error(name, std::to_string(h.width) + "x" + std::to_string(h.height) + " " +
                                channel_layout_name(h.channels) + " needs about " + byte_size_text(need) +
                                " of memory to decode" + (processing ? " and process" : "") +
                                ", more than the limit of " + byte_size_text(options.max_memory) +
                                " (raise it with --max-memory)");
}

std::uint64_t metadata_memory(const ImageHeader& h) {
    return 4 * h.metadata.bytes();
}

bool loads_16_bits(const ImageHeader& h) {
    if (h.bit_depth <= 8) return false;
    switch (h.format) {
        case ImageFormat::Png: return png_codec_available() && h.bit_depth == 16;
        case ImageFormat::Tiff:
        case ImageFormat::Avif: return true;
        default: return false;
    }
}

std::uint64_t estimate_memory(const ImageHeader& h, const LoadOptions& options) {
    const double image = static_cast<double>(h.width) * static_cast<double>(h.height) * static_cast<double>(h.channels) *
                         static_cast<double>(sample_bytes(loaded_type(h, options)));
    const double buffers = std::ceil(std::max(options.images, 1.0) * image);
    return static_cast<std::uint64_t>(h.file_bytes) + h.decoder_bytes + metadata_memory(h) +
           static_cast<std::uint64_t>(buffers);
}

std::vector<std::uint8_t> read_image_file(const std::string& path, const LoadOptions& options) {
    const std::string name = display_name(path);
    ReadBound bound;
    if (options.max_memory < kMaxFileBytes) {
        bound.max_bytes = options.max_memory;
        bound.limit = "the memory limit of " + byte_size_text(options.max_memory) + " (raise it with --max-memory)";
    } else {
        bound.max_bytes = kMaxFileBytes;
        bound.limit = "2 GiB, the most the decoders read";
    }
    try {
        return read_input_bytes(path, bound,
                                [&name](const std::uint8_t* d, std::size_t n) { (void)format_of(name, d, n); });
    } catch (const std::bad_alloc&) {
        throw input_error(name, "out of memory reading the file");
    }
}

ImageHeader read_image_header(const std::string& name, const std::vector<std::uint8_t>& bytes,
                              const LoadOptions& options) {
    try {
        return read_header(name, bytes, options);
    } catch (const std::bad_alloc&) {
        throw input_error(name, "out of memory reading the header");
    }
}

LoadedImage decode_image(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options) {
    try {
        return decode(name, bytes, options, nullptr);
    } catch (const std::bad_alloc&) {
        throw input_error(name, "out of memory decoding the image");
    }
}

LoadedImage decode_image(const std::string& name, const std::vector<std::uint8_t>& bytes, const ImageHeader& header,
                         const LoadOptions& options, int shrink) {
    if (shrink != 1 && (shrink != 2 && shrink != 4 && shrink != 8))
        throw usage_error("decode", "shrink-on-load takes 1, 2, 4 or 8");
    if (shrink != 1 && !(header.format == ImageFormat::Jpeg && jpeg_codec_available()))
        throw usage_error("decode", "shrink-on-load is libjpeg-turbo's, for JPEG");
    try {
        return decode(name, bytes, options, &header, shrink);
    } catch (const std::bad_alloc&) {
        throw input_error(name, "out of memory decoding the image");
    }
}

LoadedImage load_image(const std::string& path, const LoadOptions& options) {
    const PagedPath file = split_page_suffix(path);
    LoadOptions paged = options;
    if (file.page >= 0) paged.page = file.page;
    return decode_image(display_name(path), read_image_file(file.path, paged), paged);
}

}  // namespace imgpar
