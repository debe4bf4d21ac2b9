// Reading whole inputs into memory, files or stdin ("-"), within a bound.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace imgpar {

// The most bytes one input may have, and what that bound is, to finish the
// message that refuses a larger one: "... more than <limit>".
struct ReadBound {
    std::uint64_t max_bytes = 0x7fffffff;
    std::string limit = "2 GiB, the most imgpar reads from one file";
};

// Sees the first bytes of an input (64 KiB, or all of it when shorter)
// before the rest is read; throws to refuse it (a file that is not an image
// is refused before gigabytes of it are read).
using ReadStartCheck = std::function<void(const std::uint8_t* data, std::size_t size)>;

// Reads all of `path` ("-" reads standard input), at most bound.max_bytes:
// a regular file larger than that is refused from its size before anything
// is read; a pipe, terminal or device (/dev/zero) is read in chunks and
// refused as soon as it passes the bound. Throws imgpar::Error (input) naming
// the file: missing, a directory, unreadable, empty, too large, out of memory.
std::vector<std::uint8_t> read_input_bytes(const std::string& path, const ReadBound& bound = {},
                                           const ReadStartCheck& check_start = {});

// The same for a file named on the command line that is not an image (a
// kernel file): "-" is a file of that name, and an empty file is returned
// empty, for the caller to say what it lacks.
std::vector<std::uint8_t> read_file_bytes(const std::string& path, const ReadBound& bound);

// The same for a text input named on the command line (a list of files):
// "-" is standard input, and an empty one is returned empty.
std::vector<std::uint8_t> read_text_input(const std::string& path, const ReadBound& bound);

// How the file is named in messages: "<stdin>" for "-", and an empty name
// said to be one.
std::string display_name(const std::string& path);

}  // namespace imgpar
