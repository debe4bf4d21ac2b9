#include "src/io/file_bytes.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/error.hpp"

namespace imgpar {

std::string display_name(const std::string& path) {
    if (path.empty()) return "'' (an empty file name)";
    return path == "-" ? "<stdin>" : path;
}

static std::vector<std::uint8_t> read_stream(std::FILE* f, const std::string& name) {
    std::vector<std::uint8_t> bytes;
    std::uint8_t chunk[1 << 16];
    for (;;) {
        std::size_t n = std::fread(chunk, 1, sizeof chunk, f);
        bytes.insert(bytes.end(), chunk, chunk + n);
        if (n < sizeof chunk) {
            if (std::ferror(f)) throw input_error(name, std::string("read failed: ") + std::strerror(errno));
            break;
        }
    }
    return bytes;
}

std::vector<std::uint8_t> read_input_bytes(const std::string& path) {
    std::string name = display_name(path);
    std::vector<std::uint8_t> bytes;
    if (path == "-") {
        bytes = read_stream(stdin, name);
    } else {
        struct stat st{};
        if (::stat(path.c_str(), &st) != 0)
            throw input_error(name, errno == ENOENT ? "no such file" : std::string("cannot open: ") + std::strerror(errno));
        if (S_ISDIR(st.st_mode)) throw input_error(name, "is a directory, not an image file");
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f) throw input_error(name, std::string("cannot open: ") + std::strerror(errno));
        try {
            bytes = read_stream(f, name);
        } catch (...) {
            std::fclose(f);
            throw;
        }
        std::fclose(f);
    }
    if (bytes.empty()) throw input_error(name, "file is empty (0 bytes)");
    return bytes;
}

}  // namespace imgpar
