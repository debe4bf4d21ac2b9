// Byte counts as users write them (--max-memory 4G) and as messages show
// them (4.0 GiB). Units are binary: K = 1024, M = 1024^2, G = 1024^3,
// T = 1024^4.
#pragma once

#include <cstdint>
#include <string>

namespace imgpar {

// "4.0 GiB", "512.0 MiB", "12.3 KiB", "37 bytes".
std::string byte_size_text(std::uint64_t bytes);

// The shortest exact form parse_byte_size reads back: "4G", "1536M", "1000".
std::string byte_size_argument(std::uint64_t bytes);

// The whole of `text`: a number (digits, at most one '.' with digits after
// it) and an optional unit letter K, M, G or T (either case), e.g. "4G",
// "1.5G", "512m", "1048576". Throws imgpar::Error (usage) naming `option`
// when it is anything else or outside [min, max].
std::uint64_t parse_byte_size(const std::string& option, const std::string& text, std::uint64_t min, std::uint64_t max);

}  // namespace imgpar
