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
        case ImageFormat::Tiff: return "tiff";
    }
    return "unknown";
}

const char* format_label(ImageFormat f) {
    switch (f) {
        case ImageFormat::Png: return "PNG";
        case ImageFormat::Jpeg: return "JPEG";
        case ImageFormat::Bmp: return "BMP";
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
    if (auto f = format_from_word(name)) return *f;
    throw usage_error("--format", "'" + name + "' is not a supported format (allowed: png, jpg, jpeg, bmp, tif, tiff)");
}

std::optional<ImageFormat> sniff_format(const std::uint8_t* b, std::size_t n) {
    static const std::uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 8 && std::memcmp(b, png_sig, 8) == 0) return ImageFormat::Png;
    if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return ImageFormat::Jpeg;
    if (n >= 2 && b[0] == 'B' && b[1] == 'M') return ImageFormat::Bmp;
    // Classic TIFF (42) and BigTIFF (43), either byte order.
    if (n >= 4 && ((b[0] == 'I' && b[1] == 'I' && (b[2] == 42 || b[2] == 43) && b[3] == 0) ||
                   (b[0] == 'M' && b[1] == 'M' && b[2] == 0 && (b[3] == 42 || b[3] == 43))))
        return ImageFormat::Tiff;
    return std::nullopt;
}

}  // namespace imgpar
