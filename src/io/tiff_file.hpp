// libtiff over a file held in memory (reading), or a growing buffer or an
// open file (writing), with its messages caught per open file: libtiff's default
// handlers print to stderr from any thread, and its errors carry no file
// name. Here errors and warnings are collected on the open file, so the
// codec can throw or warn naming the file (libtiff 4.5's per-file
// handlers, TIFFOpenOptionsSetErrorHandlerExtR).
#pragma once

#if IMGPAR_HAVE_LIBTIFF

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <tiffio.h>

namespace imgpar {

class TiffFile {
public:
    // Reads `bytes` (which must outlive this). No allocation libtiff makes
    // may exceed `max_alloc` bytes. Throws imgpar::Error (input) naming
    // `name` when libtiff cannot read the header or first directory.
    TiffFile(const std::string& name, const std::vector<std::uint8_t>& bytes, std::uint64_t max_alloc);
    // Writes into `out` (which must outlive this), as BigTIFF when `big`;
    // close_for_write() finishes it.
    TiffFile(const std::string& name, std::vector<std::uint8_t>& out, bool big);
    // Writes into the open file `fd` (from its start; left open), as
    // BigTIFF when `big`: the strips go to the file as they are made.
    TiffFile(const std::string& name, int fd, bool big);
    ~TiffFile();
    TiffFile(const TiffFile&) = delete;
    TiffFile& operator=(const TiffFile&) = delete;

    TIFF* get() const { return tif_; }
    const std::string& name() const { return name_; }
    // Writes what is pending and closes; throws imgpar::Error (output) when
    // libtiff reported an error.
    void close_for_write();

    // The first error libtiff reported since the last take, or `fallback`.
    std::string take_error(const std::string& fallback);
    // The warnings libtiff reported (at most a few, each once), moved out.
    std::vector<std::string> take_warnings();

    // Called by the handlers.
    void on_error(const char* module, const char* text);
    void on_warning(const char* module, const char* text);

    // Memory I/O state (the client procedures' handle).
    const std::uint8_t* in = nullptr;
    std::vector<std::uint8_t>* out = nullptr;
    int fd = -1;
    int write_errno = 0;  // the first failed write's errno (writing to fd)
    std::uint64_t size = 0;
    std::uint64_t at = 0;

private:
    void open(const char* mode, std::uint64_t max_alloc);
    TIFF* tif_ = nullptr;
    std::string name_;
    std::string error_;
    std::vector<std::string> warnings_;
};

}  // namespace imgpar

#endif
