#include "src/io/file_bytes.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "src/error.hpp"
#include "src/huge_pages.hpp"
#include "src/io/byte_size.hpp"

namespace imgpar {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 16;

std::string size_text(std::uint64_t bytes) {
    return bytes < 1024 ? byte_size_text(bytes) : std::to_string(bytes) + " bytes (" + byte_size_text(bytes) + ")";
}

// Reads `f` to its end into `bytes` (which may hold a start already), at
// most bound.max_bytes; check_start sees the first chunk.
void read_stream(std::FILE* f, const std::string& name, const ReadBound& bound, const ReadStartCheck& check_start,
                 std::vector<std::uint8_t>& bytes) {
    bool checked = !check_start;
    for (;;) {
        const std::size_t had = bytes.size();
        // One byte past the bound is enough to know it is passed. After the
        // first chunk, reads fill what is reserved (a regular file's size).
        const std::uint64_t room = bound.max_bytes + 1 - had;
        const std::size_t chunk = checked ? std::max(kChunk, bytes.capacity() - had) : kChunk;
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, room));
        bytes.resize(had + want);
        const std::size_t n = std::fread(bytes.data() + had, 1, want, f);
        bytes.resize(had + n);
        if (bytes.size() > bound.max_bytes)
            throw input_error(name, "more than " + size_text(bound.max_bytes) + " come from it, more than " + bound.limit);
        const bool ended = n < want;
        if (ended && std::ferror(f)) throw input_error(name, std::string("read failed: ") + std::strerror(errno));
        if (!checked && (ended || bytes.size() >= kChunk)) {
            checked = true;
            if (!bytes.empty()) check_start(bytes.data(), bytes.size());
        }
        if (ended) return;
    }
}

}  // namespace

std::string display_name(const std::string& path) {
    if (path.empty()) return "'' (an empty file name)";
    return path == "-" ? "<stdin>" : path;
}

namespace {

std::vector<std::uint8_t> read_bounded(const std::string& path, bool dash_is_stdin, const ReadBound& bound,
                                       const ReadStartCheck& check_start) {
    const std::string name = dash_is_stdin ? display_name(path) : path;
    std::vector<std::uint8_t> bytes;
    std::FILE* f = nullptr;
    struct stat st {};
    if (dash_is_stdin && path == "-") {
        f = stdin;
        if (::fstat(::fileno(stdin), &st) != 0) st.st_mode = 0;
    } else {
        if (::stat(path.c_str(), &st) != 0)
            throw input_error(name, errno == ENOENT ? "no such file" : std::string("cannot open: ") + std::strerror(errno));
        if (S_ISDIR(st.st_mode)) throw input_error(name, "is a directory, not an image file");
    }
    // A regular file says its size: one that is too large is refused before
    // a byte of it is read, and the others are read into one allocation.
    if (S_ISREG(st.st_mode)) {
        const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
        if (size > bound.max_bytes) throw input_error(name, "the file is " + size_text(size) + ", more than " + bound.limit);
    }
    if (!f) {
        f = std::fopen(path.c_str(), "rb");
        if (!f) throw input_error(name, std::string("cannot open: ") + std::strerror(errno));
    }
    try {
        if (S_ISREG(st.st_mode)) {
            bytes.reserve(static_cast<std::size_t>(st.st_size) + 1);
            advise_huge_pages(bytes.data(), bytes.capacity());
        }
        read_stream(f, name, bound, check_start, bytes);
    } catch (const std::bad_alloc&) {
        if (f != stdin) std::fclose(f);
        throw input_error(name, "out of memory reading the file");
    } catch (...) {
        if (f != stdin) std::fclose(f);
        throw;
    }
    if (f != stdin) std::fclose(f);
    return bytes;
}

}  // namespace

std::vector<std::uint8_t> read_input_bytes(const std::string& path, const ReadBound& bound,
                                           const ReadStartCheck& check_start) {
    std::vector<std::uint8_t> bytes = read_bounded(path, true, bound, check_start);
    if (bytes.empty()) throw input_error(display_name(path), "file is empty (0 bytes)");
    return bytes;
}

std::vector<std::uint8_t> read_file_bytes(const std::string& path, const ReadBound& bound) {
    return read_bounded(path, false, bound, {});
}

std::vector<std::uint8_t> read_text_input(const std::string& path, const ReadBound& bound) {
    return read_bounded(path, true, bound, {});
}

}  // namespace imgpar
