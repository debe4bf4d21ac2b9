#include "src/io/header_peek.hpp"

#include <cstring>

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
    std::size_t i = 2;
    while (i + 4 <= b.size()) {
        if (b[i] != 0xFF) return std::nullopt;
        std::uint8_t marker = b[i + 1];
        if (marker == 0xFF) {  // fill byte
            ++i;
            continue;
        }
        if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) {
            i += 2;
            continue;
        }
        std::size_t len = (std::size_t{b[i + 2]} << 8) | b[i + 3];
        bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (sof) {
            if (i + 9 > b.size()) return std::nullopt;
            std::uint32_t h = (std::uint32_t{b[i + 5]} << 8) | b[i + 6];
            std::uint32_t w = (std::uint32_t{b[i + 7]} << 8) | b[i + 8];
            return PeekedSize{w, h};
        }
        if (marker == 0xDA || len < 2) return std::nullopt;  // scan data before a frame header: malformed
        i += 2 + len;
    }
    return std::nullopt;
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
    }
    return std::nullopt;
}

}  // namespace imgpar
