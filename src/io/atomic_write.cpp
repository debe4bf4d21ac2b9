#include "src/io/atomic_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

#include "src/error.hpp"
#include "src/io/output_target.hpp"
#include "src/io/temp_file.hpp"

namespace imgpar {

namespace {

std::string base_name(const std::string& path) {
    auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string error_text(int err) { return std::strerror(err); }

// 0, or the errno of the write that failed.
int write_all(int fd, const std::uint8_t* p, std::size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return 0;
}

// The process's umask, read without setting it: umask() can only be read by
// changing it, and a file another thread created meanwhile would get 0.
mode_t process_umask() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.compare(0, 6, "Umask:") == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    const mode_t m = ::umask(0);  // no /proc: the old way
    ::umask(m);
    return m;
}

// A new file, or one with a single link: the bytes go to a temporary file in
// the target's folder, which is flushed and renamed over it. An existing
// file's permission bits, and its owner where the process may set it, carry
// over.
// `fill` writes the whole file to the temporary file's descriptor; it throws
// on failure, and the temporary file is then removed.
void replace_by_rename(const std::string& name, const OutputTarget& target, const std::function<void(int fd)>& fill) {
    const bool existing = target.kind == OutputTarget::Kind::RegularFile;
    const std::string dir = parent_dir(target.path);
    TempFile tmp(temp_file_template(dir, base_name(target.path)));
    if (!tmp.ok()) throw output_error(name, "cannot create a file in '" + dir + "': " + error_text(tmp.error()));
    fill(tmp.fd());
    if (existing && (target.st.st_uid != ::geteuid() || target.st.st_gid != ::getegid()))
        if (::fchown(tmp.fd(), target.st.st_uid, target.st.st_gid) != 0)
            (void)!::fchown(tmp.fd(), static_cast<uid_t>(-1), target.st.st_gid);  // the group alone, if allowed
    const mode_t mode = existing ? target.st.st_mode & 07777 : 0666 & ~process_umask();
    if (::fchmod(tmp.fd(), mode) != 0) throw output_error(name, "cannot set permissions: " + error_text(errno));
    if (::fsync(tmp.fd()) != 0) throw output_error(name, "cannot flush to disk: " + error_text(errno));
    if (const int err = tmp.close()) throw output_error(name, "close failed: " + error_text(err));
    if (::rename(tmp.path().c_str(), target.path.c_str()) != 0)
        throw output_error(name, "cannot replace the file: " + error_text(errno));
    tmp.keep();
}

// A file with several hard links: a rename would leave the other names on
// the old bytes, so the new ones are written into the file itself. Space is
// reserved first, so a full disk leaves it unchanged; any later failure
// leaves it cut short, which the message says.
void write_in_place(const std::string& name, const OutputTarget& target, const std::uint8_t* bytes, std::size_t size) {
    const int fd = ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw output_error(name, "cannot open it for writing: " + error_text(errno));
    InPlaceWrite in_place;
    const auto fail = [&](const std::string& what, int err) {
        ::close(fd);
        return output_error(name, what + ": " + error_text(err) + "; it has " + std::to_string(target.st.st_nlink) +
                                      " hard links, so it was written in place and is now incomplete");
    };
    if (size > 0) {
        const int err = ::posix_fallocate(fd, 0, static_cast<off_t>(size));
        if (err == ENOSPC || err == EDQUOT || err == EFBIG) {
            (void)!::ftruncate(fd, target.st.st_size);  // what the reservation added
            ::close(fd);
            throw output_error(name, "no room to write it: " + error_text(err) + " (the file is unchanged)");
        }
    }
    if (const int err = write_all(fd, bytes, size)) throw fail("write failed", err);
    if (::ftruncate(fd, static_cast<off_t>(size)) != 0) throw fail("cannot set its size", errno);
    if (::fsync(fd) != 0) throw fail("cannot flush to disk", errno);
    if (::close(fd) != 0) throw output_error(name, "close failed: " + error_text(errno));
}

// A device, a FIFO: opened and written, as a shell redirection would, never
// replaced or chmod'ed. False when the name turned out to be a regular file
// (replaced meanwhile): the caller starts again.
bool write_special(const std::string& name, const OutputTarget& target, const std::uint8_t* bytes, std::size_t size) {
    const int fd = ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw output_error(name, "cannot open it for writing: " + error_text(errno));
    struct stat st{};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        ::close(fd);
        return false;
    }
    int err = write_all(fd, bytes, size);
    if (!err && S_ISBLK(st.st_mode) && ::fsync(fd) != 0) err = errno;
    if (::close(fd) != 0 && !err) err = errno;
    if (err) throw output_error(name, "write failed: " + error_text(err));
    return true;
}

}  // namespace

void write_file_atomically(const std::string& path, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    const std::function<void(int)> write_bytes = [&](int fd) {
        if (const int err = write_all(fd, bytes, size))
            throw output_error(path == "-" ? "<stdout>" : path, "write failed: " + error_text(err));
    };
    for (int attempt = 0;; ++attempt) {
        const OutputTarget target = resolve_output_target(path);
        const std::string name = path == "-" ? "<stdout>" : path;
        switch (target.kind) {
            case OutputTarget::Kind::OpenDescriptor:
                if (const int err = write_all(target.fd, bytes, size))
                    throw output_error(name, "write failed: " + error_text(err));
                return;
            case OutputTarget::Kind::SpecialFile:
                if (write_special(name, target, bytes, size)) return;
                if (attempt > 0) throw output_error(name, "kept changing from a special file to a regular one");
                continue;
            case OutputTarget::Kind::RegularFile:
                if (target.st.st_nlink > 1) return write_in_place(name, target, bytes, size);
                return replace_by_rename(name, target, write_bytes);
            case OutputTarget::Kind::NewFile:
                return replace_by_rename(name, target, write_bytes);
        }
    }
}

namespace {

bool replaced_by_rename(const OutputTarget& target) {
    return target.kind == OutputTarget::Kind::NewFile ||
           (target.kind == OutputTarget::Kind::RegularFile && target.st.st_nlink == 1);
}

}  // namespace

bool output_streams(const std::string& path) { return replaced_by_rename(resolve_output_target(path)); }

void write_file_streamed(const std::string& path, const std::function<void(int fd)>& write_to,
                         const std::function<std::vector<std::uint8_t>()>& encode) {
    const OutputTarget target = resolve_output_target(path);
    if (replaced_by_rename(target)) return replace_by_rename(path, target, write_to);
    const std::vector<std::uint8_t> bytes = encode();
    write_file_atomically(path, bytes.data(), bytes.size());
}

}  // namespace imgpar
