#include "src/io/load.hpp"

#include <climits>
#include <cstring>
#include <memory>

#include <stb_image.h>

#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/header_peek.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/png_codec.hpp"

namespace imgpar {

namespace {

// Names formats we recognise but do not read, so the message can say so.
const char* foreign_format(const std::vector<std::uint8_t>& b) {
    auto starts = [&](const char* sig, std::size_t n, std::size_t at = 0) {
        return b.size() >= at + n && std::memcmp(b.data() + at, sig, n) == 0;
    };
    if (starts("GIF8", 4)) return "GIF";
    if (starts("II*\0", 4) || starts("MM\0*", 4)) return "TIFF";
    if (starts("RIFF", 4) && starts("WEBP", 4, 8)) return "WebP";
    if (starts("\0\0\0\x0c" "jP  ", 8)) return "JPEG 2000";
    if (starts("ftyp", 4, 4)) return "HEIF/AVIF";
    if (starts("8BPS", 4)) return "PSD";
    if (starts("%PDF", 4)) return "PDF";
    return nullptr;
}

// A JPEG whose end-of-image marker is missing was cut short. Inside
// entropy-coded data 0xFF is always followed by 0x00 or a restart marker, so
// an FF D9 after the first start-of-scan can only be the real end marker.
bool jpeg_has_end_marker(const std::vector<std::uint8_t>& b) {
    std::size_t sos = std::string::npos;
    for (std::size_t i = 2; i + 1 < b.size(); ++i)
        if (b[i] == 0xFF && b[i + 1] == 0xDA) {
            sos = i;
            break;
        }
    if (sos == std::string::npos) return false;
    for (std::size_t i = sos + 2; i + 1 < b.size(); ++i)
        if (b[i] == 0xFF && b[i + 1] == 0xD9) return true;
    return false;
}

constexpr std::uint64_t kMaxDecodedSamples = std::uint64_t{1} << 30;

std::string decode_failure(ImageFormat f) {
    const char* why = stbi_failure_reason();
    return std::string("cannot decode ") + (f == ImageFormat::Png ? "PNG" : f == ImageFormat::Jpeg ? "JPEG" : "BMP") +
           " data: " + (why ? why : "unknown error") + " (the file is corrupt, truncated or uses an unsupported variant)";
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
void check_decoder_capacity(const std::string& name, std::uint64_t w, std::uint64_t h, std::uint64_t channels) {
    if (w * h * channels > kMaxDecodedSamples)  // each below 2^32, channels <= 4: no overflow
        throw input_error(name, "image is " + std::to_string(w) + "x" + std::to_string(h) +
                                    ", more than the decoder can hold (1 GiB of decoded samples)");
}

// The PNG header through libpng, which reads the chunks before the image
// data too: a transparency chunk adds an alpha channel. A size beyond the
// decoder's capacity is refused before libpng reads anything.
void read_png_header(const std::string& name, const std::vector<std::uint8_t>& bytes,
                     const std::optional<PeekedSize>& claimed, ImageHeader& h) {
    if (claimed) check_decoder_capacity(name, claimed->width, claimed->height, 1);
    const PngHeaderInfo png = png_read_header(name, bytes);
    h.width = png.width;
    h.height = png.height;
    h.channels = png.channels;
    h.bit_depth = png.bit_depth == 16 ? 16 : 8;
    check_decoder_capacity(name, static_cast<std::uint64_t>(h.width), static_cast<std::uint64_t>(h.height),
                           static_cast<std::uint64_t>(h.channels));
}

struct StbFree {
    void operator()(unsigned char* p) const { stbi_image_free(p); }
};

}  // namespace

ImageHeader read_image_header(const std::string& name, const std::vector<std::uint8_t>& bytes,
                              const LoadOptions& options) {
    if (bytes.empty()) throw input_error(name, "file is empty (0 bytes)");
    auto format = sniff_format(bytes.data(), bytes.size());
    if (!format) {
        if (const char* other = foreign_format(bytes))
            throw input_error(name, std::string(other) + " files are not supported (imgpar reads PNG, JPEG and BMP)");
        throw input_error(name, "not a PNG, JPEG or BMP image (unrecognised file signature)");
    }
    if (bytes.size() > static_cast<std::size_t>(INT_MAX))
        throw input_error(name, "file is larger than 2 GiB, which the decoder cannot read");

    ImageHeader h;
    h.format = *format;
    h.file_bytes = bytes.size();
    // The limit is checked on the size the header claims, before the decoder
    // is asked anything, so a hostile header costs microseconds.
    auto claimed = peek_dimensions(*format, bytes);
    if (claimed) check_pixel_limit(name, claimed->width, claimed->height, options.max_pixels);

    if (h.format == ImageFormat::Png && png_codec_available()) {
        read_png_header(name, bytes, claimed, h);
        check_pixel_limit(name, static_cast<std::uint64_t>(h.width), static_cast<std::uint64_t>(h.height),
                          options.max_pixels);
        h.metadata = png_read_metadata(bytes);
        return h;
    }
    const int len = static_cast<int>(bytes.size());
    if (!stbi_info_from_memory(bytes.data(), len, &h.width, &h.height, &h.channels)) {
        const char* why = stbi_failure_reason();
        if (claimed && claimed->width > 0 && claimed->height > 0 && claimed->width * claimed->height > (1u << 28))
            throw input_error(name, "image is " + std::to_string(claimed->width) + "x" + std::to_string(claimed->height) +
                                        ", more than the decoder can hold (1 GiB of decoded samples)");
        throw input_error(name, std::string("the ") + format_name(*format) + " header is invalid or truncated" +
                                    (why ? std::string(" (") + why + ")" : std::string()));
    }
    if (h.width <= 0 || h.height <= 0) throw input_error(name, "the header gives a zero image size");
    if (h.channels < 1 || h.channels > 4)
        throw input_error(name, "the header gives " + std::to_string(h.channels) + " channels (supported: 1 to 4)");
    check_pixel_limit(name, static_cast<std::uint64_t>(h.width), static_cast<std::uint64_t>(h.height), options.max_pixels);
    h.bit_depth = stbi_is_16_bit_from_memory(bytes.data(), len) ? 16 : 8;
    if (h.format == ImageFormat::Jpeg) h.metadata = read_jpeg_metadata(bytes.data(), bytes.size());
    if (h.format == ImageFormat::Png) h.metadata = png_read_metadata(bytes);
    return h;
}

LoadedImage decode_image(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options) {
    LoadedImage out;
    out.header = read_image_header(name, bytes, options);
    const ImageHeader& h = out.header;
    if (h.format == ImageFormat::Jpeg && !jpeg_has_end_marker(bytes))
        throw input_error(name, "JPEG data is truncated (no end-of-image marker)");

    if (h.format == ImageFormat::Png && png_codec_available()) {
        out.image = png_decode(name, bytes, h.width, h.height, h.channels, out.warnings);
        if (h.bit_depth == 16) out.warnings.insert(out.warnings.begin(), "16-bit PNG reduced to 8 bits per sample");
        return out;
    }
    if (h.format == ImageFormat::Jpeg && jpeg_codec_available()) {
        out.image = jpeg_decode(name, bytes, h.width, h.height, out.warnings);
        if (out.image.channels() != h.channels)
            throw input_error(name, "decoded channel count differs from the header (corrupt file)");
        return out;
    }
    int w = 0, hh = 0, comp = 0;
    std::unique_ptr<unsigned char, StbFree> pixels(
        stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &hh, &comp, 0));
    if (!pixels) throw input_error(name, decode_failure(h.format));
    if (w != h.width || hh != h.height || comp != h.channels)
        throw input_error(name, "decoded size differs from the header (corrupt file)");

    out.image = ImageU8(w, hh, comp);
    std::memcpy(out.image.data(), pixels.get(), out.image.size_bytes());
    if (h.bit_depth == 16) out.warnings.push_back("16-bit PNG reduced to 8 bits per sample");
    return out;
}

LoadedImage load_image(const std::string& path, const LoadOptions& options) {
    return decode_image(display_name(path), read_input_bytes(path), options);
}

}  // namespace imgpar
