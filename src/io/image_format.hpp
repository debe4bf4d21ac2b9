// The file formats imgpar reads and writes, and how a format is recognised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace imgpar {

// WebP and AVIF are read and written through libwebp and libavif, GIF read
// through giflib, TIFF read and written through libtiff, where the build
// found them (src/io/*_codec.hpp).
enum class ImageFormat { Png, Jpeg, Bmp, Webp, Avif, Gif, Tiff };

const char* format_name(ImageFormat f);   // "png", "jpeg", "bmp", "webp", "avif", "gif", "tiff"
const char* format_label(ImageFormat f);  // "PNG", "JPEG", "BMP", "WebP", "AVIF", "GIF", "TIFF": as messages name the data
// Whether imgpar writes `f` with 16-bit samples (PNG, TIFF); the others get
// a 16-bit image reduced to 8 bits, with a notice.
inline bool format_holds_16_bits(ImageFormat f) { return f == ImageFormat::Png || f == ImageFormat::Tiff; }

// From a file name's extension (case-insensitive): .png, .jpg/.jpeg, .bmp,
// .webp, .avif, .gif, .tif/.tiff.
std::optional<ImageFormat> format_from_extension(const std::string& path);

// From a --format value: png, jpg, jpeg, bmp, webp, avif, tif, tiff. Throws
// imgpar::Error (usage); gif is refused as an output format (imgpar reads
// GIF only).
ImageFormat parse_format_name(const std::string& name);

// From the file's first bytes (its signature). Content decides how a file is
// read; the extension only chooses how a file is written.
std::optional<ImageFormat> sniff_format(const std::uint8_t* bytes, std::size_t size);

}  // namespace imgpar
