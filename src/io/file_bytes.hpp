// Reading whole inputs into memory, files or stdin ("-").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace imgpar {

// Reads all of `path` ("-" reads standard input). Throws imgpar::Error
// (input) naming the file: missing, a directory, unreadable, empty.
std::vector<std::uint8_t> read_input_bytes(const std::string& path);

// How the file is named in messages: "<stdin>" for "-", and an empty name
// said to be one.
std::string display_name(const std::string& path);

}  // namespace imgpar
