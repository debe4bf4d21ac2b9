// Reads the claimed width and height straight from a file's header bytes,
// without the decoder, so an absurd size ("100000x100000") is refused by the
// pixel limit with a clear message before the decoder sees it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "src/io/image_format.hpp"

namespace imgpar {

struct PeekedSize {
    std::uint64_t width = 0;
    std::uint64_t height = 0;
};

// The size the header claims, or nothing if the header is too short or malformed.
std::optional<PeekedSize> peek_dimensions(ImageFormat format, const std::vector<std::uint8_t>& bytes);

}  // namespace imgpar
