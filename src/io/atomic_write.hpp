// Writing outputs so that a failure never leaves a half-written file and never
// destroys an existing one: the bytes go to a temporary file beside the
// target, which is flushed to disk and then renamed over it.
#pragma once

#include <cstddef>
#include <string>

namespace imgpar {

// Writes `size` bytes to `path` atomically ("-" writes to standard output).
// Throws imgpar::Error (output) naming the file and the reason: a missing
// directory, a target that is a directory, no permission, a full disk...
// An existing target keeps its permission bits.
void write_file_atomically(const std::string& path, const void* data, std::size_t size);

}  // namespace imgpar
