// The file formats imgpar reads and writes, and how a format is recognised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace imgpar {

enum class ImageFormat { Png, Jpeg, Bmp, Tiff };

const char* format_name(ImageFormat f);   // "png", "jpeg", "bmp", "tiff"
const char* format_label(ImageFormat f);  // "PNG", "JPEG", "BMP", "TIFF": as messages name the data

// From a file name's extension (case-insensitive): .png, .jpg/.jpeg, .bmp, .tif/.tiff.
std::optional<ImageFormat> format_from_extension(const std::string& path);

// From a --format value: png, jpg, jpeg, bmp, tif, tiff. Throws imgpar::Error (usage).
ImageFormat parse_format_name(const std::string& name);

// From the file's first bytes (its signature). Content decides how a file is
// read; the extension only chooses how a file is written.
std::optional<ImageFormat> sniff_format(const std::uint8_t* bytes, std::size_t size);

}  // namespace imgpar
