#include "src/io/output_target.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "src/error.hpp"

namespace imgpar {
namespace {

// As the kernel: a chain of more links than this is a loop.
constexpr int kMaxLinks = 40;

bool all_digits(const std::string& s) {
    if (s.empty() || s.size() > 9) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

std::string real_path(const std::string& path) {
    std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
    return real ? std::string(real.get()) : std::string();
}

// The descriptor that `link` stands for when it is one of this process's
// /proc/PID/fd/N (what /dev/stdout and /dev/fd/N lead to), or -1. Such a link
// names no file to replace: its text is "pipe:[123]" or a path that another
// open would truncate.
int own_descriptor(const std::string& link) {
    const std::string name = link.substr(link.find_last_of('/') + 1);
    if (!all_digits(name)) return -1;
    const std::string folder = real_path(parent_dir(link));
    const std::string self = "/proc/" + std::to_string(::getpid());
    if (folder == self + "/fd") return std::atoi(name.c_str());
    const std::string task = self + "/task/";
    if (folder.size() > task.size() + 3 && folder.compare(0, task.size(), task) == 0 &&
        folder.compare(folder.size() - 3, 3, "/fd") == 0 &&
        all_digits(folder.substr(task.size(), folder.size() - task.size() - 3)))
        return std::atoi(name.c_str());
    return -1;
}

// Links in /proc (another process's descriptors, /proc/self/root...) lead
// to objects, not to names: opened as they are, never followed by hand.
bool in_proc(const std::string& link) {
    struct statfs fs{};
    return ::statfs(parent_dir(link).c_str(), &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

OutputTarget open_descriptor(const std::string& path, int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    const std::string which = fd == STDOUT_FILENO ? "standard output" : "descriptor " + std::to_string(fd);
    if (flags < 0) throw output_error(path, which + " is not open");
    if ((flags & O_ACCMODE) == O_RDONLY) throw output_error(path, which + " is open for reading only");
    OutputTarget t;
    t.kind = OutputTarget::Kind::OpenDescriptor;
    t.fd = fd;
    return t;
}

}  // namespace

OutputTarget resolve_output_target(const std::string& path) {
    if (path == "-") return open_descriptor("<stdout>", STDOUT_FILENO);
    std::string p = path;
    // Reasons name the file as given, and where a link led.
    const auto fail = [&](const std::string& reason) {
        return output_error(path, p == path ? reason : reason + " (the link leads to '" + p + "')");
    };
    for (int hops = 0; hops <= kMaxLinks; ++hops) {
        if (p.empty() || p.back() == '/') throw fail("is a directory name, not a file name");
        OutputTarget t;
        t.path = p;
        if (::lstat(p.c_str(), &t.st) != 0) {
            const int err = errno;
            const std::string dir = parent_dir(p);
            struct stat d{};
            if (err == ENOENT)
                if (const int fd = own_descriptor(p); fd >= 0) return open_descriptor(path, fd);  // closed
            if (err == ENOENT || err == ENOTDIR) {
                if (::stat(dir.c_str(), &d) != 0) {
                    if (errno == ENOENT) throw fail("directory '" + dir + "' does not exist");
                    if (errno == ENOTDIR) throw fail("'" + dir + "' is not a directory");
                    throw fail("cannot reach directory '" + dir + "': " + std::strerror(errno));
                }
                if (!S_ISDIR(d.st_mode)) throw fail("'" + dir + "' is not a directory");
                if (err == ENOTDIR) throw fail(std::string("cannot reach it: ") + std::strerror(err));
                t.kind = OutputTarget::Kind::NewFile;
                return t;
            }
            throw fail(std::string("cannot reach it: ") + std::strerror(err));
        }
        if (S_ISLNK(t.st.st_mode)) {
            const int fd = own_descriptor(p);
            if (fd >= 0) return open_descriptor(path, fd);
            if (in_proc(p)) {
                // A regular file behind it is replaced by its own name (which
                // the kernel gives as the link's real path), anything else
                // opened through the link.
                struct stat behind{}, named{};
                const std::string real = real_path(p);
                if (::stat(p.c_str(), &behind) == 0 && S_ISREG(behind.st_mode) && !real.empty() &&
                    ::stat(real.c_str(), &named) == 0 && named.st_dev == behind.st_dev && named.st_ino == behind.st_ino) {
                    p = real;
                    continue;
                }
                t.kind = OutputTarget::Kind::SpecialFile;
                return t;
            }
            char target[PATH_MAX];
            const ssize_t n = ::readlink(p.c_str(), target, sizeof target);
            if (n < 0) throw fail(std::string("cannot read the link: ") + std::strerror(errno));
            if (static_cast<std::size_t>(n) >= sizeof target) throw fail("the link's target is too long");
            const std::string next(target, static_cast<std::size_t>(n));
            p = next[0] == '/' || p.find('/') == std::string::npos ? next : parent_dir(p) + "/" + next;
            continue;
        }
        if (S_ISDIR(t.st.st_mode)) throw fail("is a directory");
        if (S_ISSOCK(t.st.st_mode)) throw fail("is a socket, which cannot be opened as a file");
        t.kind = S_ISREG(t.st.st_mode) ? OutputTarget::Kind::RegularFile : OutputTarget::Kind::SpecialFile;
        return t;
    }
    throw output_error(path, "too many levels of symbolic links (a loop?)");
}

std::string parent_dir(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

}  // namespace imgpar
