#include "src/io/color_space.hpp"

#include <cstring>

#include "src/io/jpeg_layout.hpp"

namespace imgpar {

namespace {

std::string jpeg_color_space(const std::uint8_t* d, std::size_t size) {
    const JpegLayout l = read_jpeg_layout(d, size);
    if (!l.valid) return "";
    switch (l.components) {
        case 1: return "gray";
        case 3:
            if (l.adobe_transform == 0) return "RGB";
            if (l.adobe_transform < 0 && !l.jfif && l.component_ids[0] == 'R' && l.component_ids[1] == 'G' &&
                l.component_ids[2] == 'B')
                return "RGB";
            return "YCbCr";
        case 4: return l.adobe_transform == 2 ? "YCCK" : "CMYK";
        default: return "";
    }
}

std::string png_color_space(const std::uint8_t* d, std::size_t size) {
    // Signature, IHDR's length and type, width, height, depth, colour type.
    if (size < 33 || std::memcmp(d + 12, "IHDR", 4) != 0) return "";
    const int type = d[25];
    bool trns = false;
    for (std::size_t i = 8; i + 12 <= size;) {
        const std::size_t length = static_cast<std::size_t>(d[i]) << 24 | static_cast<std::size_t>(d[i + 1]) << 16 |
                                   static_cast<std::size_t>(d[i + 2]) << 8 | d[i + 3];
        if (length > size - i - 12 || std::memcmp(d + i + 4, "IDAT", 4) == 0) break;
        if (std::memcmp(d + i + 4, "tRNS", 4) == 0) trns = true;
        i += 12 + length;
    }
    const std::string with = trns ? "+tRNS" : "";
    switch (type) {
        case 0: return "gray" + with;
        case 2: return "RGB" + with;
        case 3: return "palette" + with;
        case 4: return "gray+alpha";
        case 6: return "RGBA";
        default: return "";
    }
}

std::string bmp_color_space(const std::uint8_t* d, std::size_t size, int channels) {
    if (size < 30) return "";
    const int bits = d[28] | d[29] << 8;
    if (bits >= 1 && bits <= 8) return "palette";
    return channels == 4 ? "RGBA" : "RGB";
}

}  // namespace

std::string stored_color_space(ImageFormat format, const std::uint8_t* data, std::size_t size, int channels) {
    switch (format) {
        case ImageFormat::Jpeg: return jpeg_color_space(data, size);
        case ImageFormat::Png: return png_color_space(data, size);
        case ImageFormat::Bmp: return bmp_color_space(data, size, channels);
        // Their readers say it where they can (load.cpp): TIFF's directory,
        // WebP's and GIF's headers.
        case ImageFormat::Webp:
        case ImageFormat::Avif:
        case ImageFormat::Gif:
        case ImageFormat::Tiff: break;
    }
    return "";
}

}  // namespace imgpar
