#include "src/io/atomic_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "src/error.hpp"

namespace imgpar {

namespace {

std::string parent_dir(const std::string& path) {
    auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
    auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

void write_all(int fd, const std::uint8_t* p, std::size_t n, const std::string& name) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            throw output_error(name, std::string("write failed: ") + std::strerror(errno));
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

mode_t current_umask() {
    mode_t m = ::umask(0);
    ::umask(m);
    return m;
}

}  // namespace

void write_file_atomically(const std::string& path, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    if (path == "-") {
        write_all(STDOUT_FILENO, bytes, size, "<stdout>");
        return;
    }
    if (path.empty() || path.back() == '/') throw output_error(path, "is a directory name, not a file name");

    std::string dir = parent_dir(path);
    struct stat st{};
    if (::stat(dir.c_str(), &st) != 0)
        throw output_error(path, "directory '" + dir + "' does not exist");
    if (!S_ISDIR(st.st_mode)) throw output_error(path, "'" + dir + "' is not a directory");

    mode_t mode = 0666 & ~current_umask();
    struct stat target{};
    if (::stat(path.c_str(), &target) == 0) {
        if (S_ISDIR(target.st_mode)) throw output_error(path, "is a directory");
        mode = target.st_mode & 07777;
    }

    std::string tmpl = dir + "/." + base_name(path) + ".imgpar-XXXXXX";
    std::vector<char> tmp(tmpl.begin(), tmpl.end());
    tmp.push_back('\0');
    int fd = ::mkstemp(tmp.data());
    if (fd < 0) throw output_error(path, "cannot create a file in '" + dir + "': " + std::strerror(errno));

    try {
        write_all(fd, bytes, size, path);
        if (::fchmod(fd, mode) != 0) throw output_error(path, std::string("cannot set permissions: ") + std::strerror(errno));
        if (::fsync(fd) != 0) throw output_error(path, std::string("cannot flush to disk: ") + std::strerror(errno));
        if (::close(fd) != 0) {
            fd = -1;
            throw output_error(path, std::string("close failed: ") + std::strerror(errno));
        }
        fd = -1;
        if (::rename(tmp.data(), path.c_str()) != 0)
            throw output_error(path, std::string("cannot replace the file: ") + std::strerror(errno));
    } catch (...) {
        if (fd >= 0) ::close(fd);
        ::unlink(tmp.data());
        throw;
    }
}

}  // namespace imgpar
