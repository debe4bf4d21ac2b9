#include "src/io/header_peek.hpp"

#include <cstring>

#include "src/io/jpeg_layout.hpp"

namespace imgpar {

namespace {

std::uint32_t be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
std::uint32_t le32(const std::uint8_t* p) {
    return (std::uint32_t{p[3]} << 24) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[1]} << 8) | p[0];
}

std::optional<PeekedSize> peek_png(const std::vector<std::uint8_t>& b) {
    // signature(8) length(4) "IHDR"(4) width(4) height(4)
    if (b.size() < 24 || std::memcmp(b.data() + 12, "IHDR", 4) != 0) return std::nullopt;
    return PeekedSize{be32(b.data() + 16), be32(b.data() + 20)};
}

std::optional<PeekedSize> peek_jpeg(const std::vector<std::uint8_t>& b) {
    const JpegLayout l = read_jpeg_layout(b.data(), b.size());
    if (!l.valid) return std::nullopt;  // no frame header before the scan data: malformed
    return PeekedSize{static_cast<std::uint32_t>(l.width), static_cast<std::uint32_t>(l.height)};
}

std::optional<PeekedSize> peek_bmp(const std::vector<std::uint8_t>& b) {
    if (b.size() < 26) return std::nullopt;
    std::uint32_t header_size = le32(b.data() + 14);
    if (header_size == 12) {  // OS/2 core header: 16-bit sizes
        return PeekedSize{std::uint64_t{b[18]} | (std::uint64_t{b[19]} << 8), std::uint64_t{b[20]} | (std::uint64_t{b[21]} << 8)};
    }
    auto w = static_cast<std::int32_t>(le32(b.data() + 18));
    auto h = static_cast<std::int32_t>(le32(b.data() + 22));  // negative: top-down rows
    auto mag = [](std::int32_t v) { return v < 0 ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v); };
    return PeekedSize{static_cast<std::uint64_t>(mag(w)), static_cast<std::uint64_t>(mag(h))};
}

}  // namespace

std::optional<PeekedSize> peek_dimensions(ImageFormat format, const std::vector<std::uint8_t>& bytes) {
    switch (format) {
        case ImageFormat::Png: return peek_png(bytes);
        case ImageFormat::Jpeg: return peek_jpeg(bytes);
        case ImageFormat::Bmp: return peek_bmp(bytes);
        // A TIFF's size is in a directory anywhere in the file, one per
        // page: libtiff reads the page's (bounded by the file) and load.cpp
        // checks the limit from it before any pixel is decoded.
        case ImageFormat::Tiff: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace imgpar
