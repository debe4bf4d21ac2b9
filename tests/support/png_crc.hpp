// CRC-32 as PNG chunks carry it, over a chunk's type and data (bit by bit:
// slow, and independent of zlib), for tests that build or check chunks.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar::test {

inline std::uint32_t png_crc(const std::uint8_t* bytes, std::size_t size) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < size; ++i) {
        crc ^= bytes[i];
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
}

}  // namespace imgpar::test
