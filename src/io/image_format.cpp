#include "src/io/image_format.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "src/error.hpp"

namespace imgpar {

const char* format_name(ImageFormat f) {
    switch (f) {
        case ImageFormat::Png: return "png";
        case ImageFormat::Jpeg: return "jpeg";
        case ImageFormat::Bmp: return "bmp";
        case ImageFormat::Webp: return "webp";
        case ImageFormat::Avif: return "avif";
        case ImageFormat::Gif: return "gif";
        case ImageFormat::Tiff: return "tiff";
    }
    return "unknown";
}

const char* format_label(ImageFormat f) {
    switch (f) {
        case ImageFormat::Png: return "PNG";
        case ImageFormat::Jpeg: return "JPEG";
        case ImageFormat::Bmp: return "BMP";
        case ImageFormat::Webp: return "WebP";
        case ImageFormat::Avif: return "AVIF";
        case ImageFormat::Gif: return "GIF";
        case ImageFormat::Tiff: return "TIFF";
    }
    return "unknown";
}

static std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

static std::optional<ImageFormat> format_from_word(const std::string& word) {
    std::string w = lower(word);
    if (w == "png") return ImageFormat::Png;
    if (w == "jpg" || w == "jpeg") return ImageFormat::Jpeg;
    if (w == "bmp") return ImageFormat::Bmp;
    if (w == "webp") return ImageFormat::Webp;
    if (w == "avif") return ImageFormat::Avif;
    if (w == "gif") return ImageFormat::Gif;
    if (w == "tif" || w == "tiff") return ImageFormat::Tiff;
    return std::nullopt;
}

std::optional<ImageFormat> format_from_extension(const std::string& path) {
    auto slash = path.find_last_of('/');
    auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return std::nullopt;
    return format_from_word(path.substr(dot + 1));
}

ImageFormat parse_format_name(const std::string& name) {
    const auto f = format_from_word(name);
    if (f && *f == ImageFormat::Gif) throw usage_error("--format", "imgpar reads GIF but does not write it (write png, webp or tiff)");
    if (f) return *f;
    throw usage_error("--format", "'" + name + "' is not a supported format (allowed: png, jpg, jpeg, bmp, webp, avif, tif, tiff)");
}

std::optional<ImageFormat> sniff_format(const std::uint8_t* b, std::size_t n) {
    static const std::uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 8 && std::memcmp(b, png_sig, 8) == 0) return ImageFormat::Png;
    if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return ImageFormat::Jpeg;
    if (n >= 2 && b[0] == 'B' && b[1] == 'M') return ImageFormat::Bmp;
    if (n >= 12 && std::memcmp(b, "RIFF", 4) == 0 && std::memcmp(b + 8, "WEBP", 4) == 0) return ImageFormat::Webp;
    if (n >= 6 && (std::memcmp(b, "GIF87a", 6) == 0 || std::memcmp(b, "GIF89a", 6) == 0)) return ImageFormat::Gif;
    // An ISO-BMFF file whose type box names AVIF among its brands (the major
    // brand, or a compatible one: "avif" stills, "avis" sequences).
    if (n >= 16 && std::memcmp(b + 4, "ftyp", 4) == 0) {
        const std::size_t box = (std::size_t{b[0]} << 24) | (std::size_t{b[1]} << 16) | (std::size_t{b[2]} << 8) | b[3];
        const std::size_t end = std::min(n, std::max<std::size_t>(box, 16));
        for (std::size_t at = 8; at + 4 <= end; at += 4)
            if (at != 12 && (std::memcmp(b + at, "avif", 4) == 0 || std::memcmp(b + at, "avis", 4) == 0))
                return ImageFormat::Avif;
    }
    // Classic TIFF (42) and BigTIFF (43), either byte order.
    if (n >= 4 && ((b[0] == 'I' && b[1] == 'I' && (b[2] == 42 || b[2] == 43) && b[3] == 0) ||
                   (b[0] == 'M' && b[1] == 'M' && b[2] == 0 && (b[3] == 42 || b[3] == 43))))
        return ImageFormat::Tiff;
    return std::nullopt;
}

}  // namespace imgpar
