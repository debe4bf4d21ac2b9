// Writing outputs so that a failure never leaves a half-written file and never
// destroys an existing one. The caller encodes the whole file first (or, with
// write_file_streamed, writes it into the temporary file as it encodes);
// then, by what the name is (src/io/output_target.hpp):
// - a new file, or a regular file with one link: the bytes go to a temporary
//   file beside it (".NAME.imgpar-XXXXXX", removed on Ctrl-C and the other
//   stop signals: src/io/temp_file.hpp), flushed to disk and renamed over it;
// - a regular file with several hard links: written in place, so the links
//   stay one file (not atomic: space is reserved first, so a full disk leaves
//   it unchanged, but an I/O error midway leaves it cut short);
// - a symbolic link: what it leads to, so the link stays (a dangling link
//   gets the file it names);
// - a device or FIFO (/dev/null, a named pipe): opened and written, never
//   replaced; "-", /dev/stdout, /dev/fd/N: written to that descriptor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace imgpar {

// Writes `size` bytes to `path` as above ("-" writes to standard output).
// Throws imgpar::Error (output) naming the file and the reason: a missing
// directory, a target that is a directory, no permission, a full disk...
// A replaced file keeps its permission bits (and its owner, where the
// process may set it); a new one gets 0666 less the umask.
void write_file_atomically(const std::string& path, const void* data, std::size_t size);

// The same for an encoder that writes its file as it makes it (TIFF: strip
// after strip, then the directory), so the file is never held in memory.
// Where the output is replaced by a rename (a new file, or a regular file
// with one link), `write_to` writes the whole file to the temporary file's
// descriptor (it may seek; it throws imgpar::Error (output) naming `path`
// on failure, and the temporary file is removed); the rest is as above.
// Elsewhere (several links, a device, a pipe, "-") `encode` makes the bytes
// in memory and they are written as write_file_atomically writes them.
void write_file_streamed(const std::string& path, const std::function<void(int fd)>& write_to,
                         const std::function<std::vector<std::uint8_t>()>& encode);

// Whether write_file_streamed would stream to `path` as it stands now (a new
// file, or a regular file with one link), for estimates made before writing.
bool output_streams(const std::string& path);

}  // namespace imgpar
