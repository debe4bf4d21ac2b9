// Loading images, safely: the header is read and checked against a pixel
// limit before anything is decoded, and every failure names the file.
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

struct LoadOptions {
    std::uint64_t max_pixels = kDefaultMaxPixels;
};

// What the file's header says, before decoding.
struct ImageHeader {
    ImageFormat format = ImageFormat::Png;
    int width = 0;
    int height = 0;
    int channels = 0;   // as decoded: palette PNGs count as RGB(A)
    int bit_depth = 8;  // bits per sample in the file (16-bit PNGs load as 8)
    std::size_t file_bytes = 0;
    ImageMetadata metadata;  // EXIF and ICC profile, from the markers or chunks before the pixels
};

struct LoadedImage {
    ImageU8 image;
    ImageHeader header;
    std::vector<std::string> warnings;  // e.g. "16-bit PNG reduced to 8 bits"
};

// Reads and checks the header of an in-memory file. `name` is used in
// messages. Throws imgpar::Error (input) for non-images, unsupported
// formats, corrupt headers and images above options.max_pixels.
ImageHeader read_image_header(const std::string& name, const std::vector<std::uint8_t>& bytes,
                              const LoadOptions& options);

// Checks the header, then decodes to 8 bits per sample, channels as stored.
LoadedImage decode_image(const std::string& name, const std::vector<std::uint8_t>& bytes, const LoadOptions& options);

// Reads `path` ("-" = stdin) and decodes it.
LoadedImage load_image(const std::string& path, const LoadOptions& options = {});

}  // namespace imgpar
