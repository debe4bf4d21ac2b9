// PNG decoding through libpng's classic API: it checks every chunk's CRC and
// the zlib stream's checksum (stb checks neither), reads the transparency
// chunk of gray and RGB images, and is faster than stb on photos.
#include "src/io/png_codec.hpp"

#include "src/error.hpp"

#if IMGPAR_HAVE_LIBPNG
#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include <png.h>
#include <zlib.h>
#endif

namespace imgpar {

#if IMGPAR_HAVE_LIBPNG
namespace {

// libpng reports a fatal error through the error function, which must not
// return: it records the message and jumps back to the setjmp in the
// function that called libpng, which throws from there. Everything libpng
// touches lives in this struct, behind a pointer made before setjmp, so a
// longjmp skips no destructor and leaves no local indeterminate.
struct Reader {
    png_structp png = nullptr;
    png_infop info = nullptr;
    const std::vector<std::uint8_t>* bytes = nullptr;
    std::size_t at = 0;
    std::string message;
    bool file_ended = false;  // read_bytes was asked for bytes past the end
    int passes = 1;           // 7 for an interlaced image (Adam7)
    std::vector<std::string>* warnings = nullptr;
    ImageU8 out;
    ImageU16 out16;  // png_decode_16's pixels
    ~Reader() { png_destroy_read_struct(&png, &info, nullptr); }
};

[[noreturn]] void on_error(png_structp png, png_const_charp text) {
    auto* r = static_cast<Reader*>(png_get_error_ptr(png));
    r->message = text ? text : "unknown error";
    png_longjmp(png, 1);
}

// Damage libpng can read past (a bad CRC in an ancillary chunk, data after
// the image): reported, at most four.
void on_warning(png_structp png, png_const_charp text) {
    auto* r = static_cast<Reader*>(png_get_error_ptr(png));
    if (r->warnings && r->warnings->size() < 4) r->warnings->push_back(std::string("PNG data: ") + text);
}

void read_bytes(png_structp png, png_bytep out, std::size_t size) {
    auto* r = static_cast<Reader*>(png_get_io_ptr(png));
    if (size > r->bytes->size() - r->at) {
        r->file_ended = true;
        png_error(png, "the file ends early");
    }
    std::memcpy(out, r->bytes->data() + r->at, size);
    r->at += size;
}

// Chunks that cannot change the pixels imgpar decodes (colour management,
// text, time, physical size...): skipped unread, so a large compressed
// profile or text costs nothing and its quirks raise no warnings.
const png_byte kSkippedChunks[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0"
                                  "tEXt\0tIME\0zTXt";

std::unique_ptr<Reader> make_reader(const std::vector<std::uint8_t>& bytes, std::vector<std::string>* warnings) {
    auto r = std::make_unique<Reader>();
    r->bytes = &bytes;
    r->warnings = warnings;
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r.get(), on_error, on_warning);
    if (r->png) r->info = png_create_info_struct(r->png);
    return r;
}

// After png_read_info: asks libpng for 8-bit samples (or, `sixteen`, the
// file's 16-bit samples in the host's byte order), palettes and
// transparency expanded, rows deinterlaced (what stb delivers too).
void set_transforms(Reader& r, bool sixteen = false) {
    png_set_expand(r.png);  // palette -> RGB(A), gray below 8 bits -> 8, tRNS -> alpha
    if (!sixteen) {
        png_set_scale_16(r.png);  // 16-bit samples rounded to nearest: round(v / 257)
    } else {
        const std::uint16_t probe = 1;
        std::uint8_t first = 0;
        std::memcpy(&first, &probe, 1);
        if (first == 1) png_set_swap(r.png);  // PNG stores samples big-endian
    }
    r.passes = png_set_interlace_handling(r.png);
    png_read_update_info(r.png, r.info);
}

// Starts reading: options, then every chunk up to the image data.
void read_info(Reader& r) {
    png_set_read_fn(r.png, &r, read_bytes);
    // libpng's default limit of a million pixels a side would refuse some
    // allowed images (a 2,000,000 x 1 strip), and bounds no memory: what
    // bounds it is imgpar's pixel limit (--max-pixels) and its estimate
    // (png_decode_memory: the rows libpng allocates in
    // png_read_update_info), both checked against the header before
    // png_decode runs. Reading the header allocates nothing row-sized.
    png_set_user_limits(r.png, 0x7fffffff, 0x7fffffff);
    png_set_benign_errors(r.png, 1);
    png_set_keep_unknown_chunks(r.png, PNG_HANDLE_CHUNK_NEVER, kSkippedChunks,
                                static_cast<int>(sizeof kSkippedChunks / 5));
    png_read_info(r.png, r.info);
}

// A palette image whose pixels name an entry its PLTE lacks: refused, as
// the same BMP is (stb_guard), rather than decoded as libpng expands it
// (black, silently: its own check does not run once the palette is
// expanded). Only a palette shorter than its depth allows can hold such an
// index, so only then are the indices read, in a pass of their own with one
// row of memory; a corrupt or cut file is left to png_decode to report.
void check_palette_indices(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() <= 25 || bytes[25] != PNG_COLOR_TYPE_PALETTE) return;  // IHDR's colour type
    auto state = make_reader(bytes, nullptr);
    Reader& r = *state;
    if (!r.info || setjmp(png_jmpbuf(r.png))) return;
    read_info(r);
    png_colorp palette = nullptr;
    int entries = 0;
    png_get_PLTE(r.png, r.info, &palette, &entries);
    const int depth = png_get_bit_depth(r.png, r.info);
    if (entries >= (1 << depth)) return;
    png_set_packing(r.png);  // an index a byte
    const int passes = png_set_interlace_handling(r.png);
    png_read_update_info(r.png, r.info);
    const png_uint_32 width = png_get_image_width(r.png, r.info), height = png_get_image_height(r.png, r.info);
    // The row lives in the reader, which a longjmp does not skip.
    r.out = ImageU8(static_cast<int>(png_get_rowbytes(r.png, r.info)), 1, 1);
    png_byte* row = r.out.data();
    for (int pass = 0; pass < passes; ++pass)
        for (png_uint_32 y = 0; y < height; ++y) {
            // Cleared, so that what is found was read for this row (an
            // interlaced pass fills only its own columns).
            std::memset(row, 0, r.out.row_bytes());
            png_read_row(r.png, row, nullptr);
            for (png_uint_32 x = 0; x < width; ++x)
                if (row[x] >= entries)
                    throw input_error(name, "the PNG is malformed: PNG pixel (" + std::to_string(x) + ", " +
                                                std::to_string(y) + ") names palette entry " + std::to_string(row[x]) +
                                                ", but the palette has " + std::to_string(entries));
        }
}

}  // namespace

bool png_codec_available() { return true; }

std::string png_codec_name() { return std::string("libpng ") + png_get_libpng_ver(nullptr) + ", zlib " + zlibVersion(); }

PngHeaderInfo png_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    auto state = make_reader(bytes, nullptr);
    Reader& r = *state;
    if (!r.info) throw input_error(name, "out of memory reading the PNG header");
    if (setjmp(png_jmpbuf(r.png)))
        throw input_error(name, "the PNG header is invalid or truncated (" + r.message + ")");
    read_info(r);
    // The channels set_transforms will make, worked out here rather than by
    // png_read_update_info, which allocates two rows of the claimed width
    // (2 GiB each for a 74-byte file claiming 2^28 RGBA16 pixels a row).
    PngHeaderInfo h;
    h.width = static_cast<int>(png_get_image_width(r.png, r.info));
    h.height = static_cast<int>(png_get_image_height(r.png, r.info));
    h.bit_depth = png_get_bit_depth(r.png, r.info);
    h.file_channels = png_get_channels(r.png, r.info);
    const int type = png_get_color_type(r.png, r.info);
    const bool transparency = png_get_valid(r.png, r.info, PNG_INFO_tRNS) != 0;
    const int colours = (type & PNG_COLOR_MASK_COLOR) ? 3 : 1;  // palette entries are RGB
    const bool alpha = (type & PNG_COLOR_MASK_ALPHA) || transparency;
    h.channels = colours + (alpha ? 1 : 0);
    return h;
}

std::uint64_t png_decode_memory(const PngHeaderInfo& h) {
    // png_read_start_row: the current and previous row at the widest pixel
    // the transforms pass through (samples of 16 bits until they are
    // scaled, the file's or the expanded channels), each with its filter
    // byte, one pixel and 48 bytes of alignment slack.
    const std::uint64_t sample_bytes = h.bit_depth == 16 ? 2 : 1;
    const std::uint64_t pixel_bytes = static_cast<std::uint64_t>(std::max(h.channels, h.file_channels)) * sample_bytes;
    const std::uint64_t row = static_cast<std::uint64_t>(std::max(h.width, 0)) * pixel_bytes + 1 + pixel_bytes + 48;
    // The inflate state and its 32 KiB window, the 8 KiB IDAT read buffer,
    // the structs and the chunks libpng keeps (a palette, transparency):
    // about 50 KiB, with a margin.
    constexpr std::uint64_t kState = std::uint64_t{96} << 10;
    return 2 * row + kState;
}

namespace {

template <typename T>
Image<T>& output_of(Reader& r) {
    if constexpr (std::is_same_v<T, std::uint16_t>)
        return r.out16;
    else
        return r.out;
}

template <typename T>
Image<T> decode_as(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                   int channels, std::vector<std::string>& warnings, bool allow_partial) {
    check_palette_indices(name, bytes);
    auto state = make_reader(bytes, &warnings);
    Reader& r = *state;
    if (!r.info) throw input_error(name, "out of memory decoding PNG");
    if (setjmp(png_jmpbuf(r.png))) {
        // Image data that ends early: libpng stops where it ran out (our
        // reader, or "Not enough image data" when IEND comes too soon).
        const bool cut = r.file_ended || r.message == "Not enough image data";
        if (cut && allow_partial && !output_of<T>(r).empty()) {
            warnings.insert(warnings.begin(), "PNG data is truncated (" + r.message +
                                                  "): the rows it does not reach are black (--allow-partial)");
            return std::move(output_of<T>(r));
        }
        if (cut)
            throw input_error(name, "PNG data is truncated (" + r.message + "); --allow-partial decodes what is there");
        throw input_error(name, "cannot decode PNG data: " + r.message + " (the file is corrupt or truncated)");
    }
    read_info(r);
    set_transforms(r, sizeof(T) == 2);
    if (png_get_image_width(r.png, r.info) != static_cast<png_uint_32>(width) ||
        png_get_image_height(r.png, r.info) != static_cast<png_uint_32>(height) ||
        png_get_channels(r.png, r.info) != channels ||
        png_get_rowbytes(r.png, r.info) != static_cast<std::size_t>(width) * static_cast<std::size_t>(channels) * sizeof(T))
        throw input_error(name, "decoded size differs from the header (corrupt file)");
    Image<T>& out = output_of<T>(r);
    out = Image<T>(width, height, channels);
    // Row by row, each pass of an interlaced image over every row (what
    // png_read_image does), without its array of row pointers: 8 bytes a
    // row, 2 GiB for a 1 x 2^28 image.
    for (int pass = 0; pass < r.passes; ++pass)
        for (int y = 0; y < height; ++y) png_read_row(r.png, reinterpret_cast<png_bytep>(out.row(y)), nullptr);
    png_read_end(r.png, nullptr);
    return std::move(out);
}

}  // namespace

ImageU8 png_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                   int channels, std::vector<std::string>& warnings, bool allow_partial) {
    return decode_as<std::uint8_t>(name, bytes, width, height, channels, warnings, allow_partial);
}

ImageU16 png_decode_16(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                       int channels, std::vector<std::string>& warnings, bool allow_partial) {
    return decode_as<std::uint16_t>(name, bytes, width, height, channels, warnings, allow_partial);
}

#else

ImageMetadata png_read_metadata(const std::vector<std::uint8_t>& bytes) {
    ImageMetadata m;
    m.exif = find_png_metadata_chunks(bytes.data(), bytes.size()).exif;
    return m;
}

bool png_codec_available() { return false; }
std::string png_codec_name() { return "stb_image"; }
PngHeaderInfo png_read_header(const std::string& name, const std::vector<std::uint8_t>&) {
    throw input_error(name, "this build has no libpng");
}
std::uint64_t png_decode_memory(const PngHeaderInfo&) { return 0; }
ImageU8 png_decode(const std::string& name, const std::vector<std::uint8_t>&, int, int, int, std::vector<std::string>&,
                   bool) {
    throw input_error(name, "this build has no libpng");
}
ImageU16 png_decode_16(const std::string& name, const std::vector<std::uint8_t>&, int, int, int,
                       std::vector<std::string>&, bool) {
    throw input_error(name, "this build has no libpng");
}

#endif

}  // namespace imgpar
