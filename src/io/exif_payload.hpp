// The EXIF block as imgpar keeps it (ImageMetadata::exif: the TIFF structure
// itself) from the ways containers other than JPEG store it: WebP's EXIF
// chunk (some writers prefix "Exif\0\0", as JPEG does) and AVIF's Exif item
// (a 4-byte big-endian offset to the TIFF header first, ISO/IEC 23008-12).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace imgpar {

// The bytes from the TIFF header ("II*\0" or "MM\0*") on: after a leading
// "Exif\0\0", or after AVIF's offset when `offset_first`. Empty when no TIFF
// header is where it should be (the block is malformed, and is dropped).
inline std::vector<std::uint8_t> exif_without_prefix(const std::uint8_t* p, std::size_t n, bool offset_first = false) {
    std::size_t at = 0;
    if (offset_first && n >= 4) {
        const std::uint64_t offset = (std::uint64_t{p[0]} << 24) | (std::uint64_t{p[1]} << 16) | (std::uint64_t{p[2]} << 8) | p[3];
        if (offset > n - 4) return {};
        at = 4 + static_cast<std::size_t>(offset);
    }
    if (n - at >= 6 && std::memcmp(p + at, "Exif\0\0", 6) == 0) at += 6;
    if (n - at < 8) return {};
    const bool tiff = std::memcmp(p + at, "II*\0", 4) == 0 || std::memcmp(p + at, "MM\0*", 4) == 0;
    if (!tiff) return {};
    return std::vector<std::uint8_t>(p + at, p + n);
}

}  // namespace imgpar
