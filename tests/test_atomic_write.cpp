// Writing outputs: what each kind of name gets (new and existing regular
// files, symbolic and hard links, devices, FIFOs, open descriptors), and the
// temporary files, which no stop signal leaves behind.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "src/error.hpp"
#include "src/io/atomic_write.hpp"
#include "src/io/temp_file.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

void write_text(const std::string& path, const std::string& text) { write_file_atomically(path, text.data(), text.size()); }

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Output);
        return e.what();
    }
    return "(no error)";
}

struct stat stat_of(const std::string& path, bool follow = true) {
    struct stat st{};
    REQUIRE((follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) == 0);
    return st;
}

// Every byte readable from `fd` now (non-blocking).
std::string drain(int fd) {
    std::string got;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    return got;
}

// Runs `child` in a forked process and returns its wait status. The child
// ends with _exit(code) or by a signal; nothing of doctest runs there.
int in_child(const std::function<int()>& child) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) ::_exit(child());
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    return status;
}

}  // namespace

TEST_CASE("atomic write: a new file gets 0666 less the umask, a replaced one keeps its mode") {
    TempDir dir;
    const mode_t old_mask = ::umask(027);
    write_text(dir.file("new.png"), "abc");
    ::umask(old_mask);
    CHECK((stat_of(dir.file("new.png")).st_mode & 07777) == 0640);
    ::chmod(dir.file("new.png").c_str(), 0604);
    write_text(dir.file("new.png"), "defg");
    CHECK((stat_of(dir.file("new.png")).st_mode & 07777) == 0604);
    CHECK(test::read_bytes(dir.file("new.png")) == "defg");
    CHECK(dir.entries() == std::vector<std::string>{"new.png"});
}

TEST_CASE("atomic write: a symbolic link is written through and stays a link") {
    TempDir dir;
    fs::create_directories(dir.file("real"));
    fs::create_directories(dir.file("links"));
    write_text(dir.file("real/photo.png"), "old");
    ::chmod(dir.file("real/photo.png").c_str(), 0600);
    fs::create_symlink("../real/photo.png", dir.file("links/photo.png"));  // relative to the link's folder
    fs::create_symlink("links/photo.png", dir.file("chain.png"));          // a link to a link
    write_text(dir.file("links/photo.png"), "new");
    CHECK(fs::is_symlink(dir.file("links/photo.png")));
    CHECK(test::read_bytes(dir.file("real/photo.png")) == "new");
    CHECK((stat_of(dir.file("real/photo.png")).st_mode & 07777) == 0600);
    write_text(dir.file("chain.png"), "newer");
    CHECK(fs::is_symlink(dir.file("chain.png")));
    CHECK(fs::is_symlink(dir.file("links/photo.png")));
    CHECK(test::read_bytes(dir.file("real/photo.png")) == "newer");
    // The temporary file was made beside the real file, and is gone.
    std::vector<std::string> real;
    for (const auto& e : fs::directory_iterator(dir.file("real"))) real.push_back(e.path().filename().string());
    CHECK(real == std::vector<std::string>{"photo.png"});
}

TEST_CASE("atomic write: a dangling link gets the file it names; loops, folders and missing folders are errors") {
    TempDir dir;
    fs::create_directories(dir.file("out"));
    fs::create_symlink("out/made.png", dir.file("dangling.png"));
    write_text(dir.file("dangling.png"), "made");
    CHECK(fs::is_symlink(dir.file("dangling.png")));
    CHECK(test::read_bytes(dir.file("out/made.png")) == "made");

    fs::create_symlink("nowhere/x.png", dir.file("lost.png"));
    std::string e = error_of([&] { write_text(dir.file("lost.png"), "x"); });
    CHECK(has(e, "lost.png"));
    CHECK(has(e, "does not exist"));
    CHECK(has(e, "nowhere/x.png"));

    fs::create_symlink("loop2.png", dir.file("loop1.png"));
    fs::create_symlink("loop1.png", dir.file("loop2.png"));
    CHECK(has(error_of([&] { write_text(dir.file("loop1.png"), "x"); }), "too many levels of symbolic links"));

    fs::create_symlink("out", dir.file("folder.png"));
    CHECK(has(error_of([&] { write_text(dir.file("folder.png"), "x"); }), "is a directory"));
    CHECK(fs::is_symlink(dir.file("folder.png")));
}

TEST_CASE("atomic write: a file with several hard links is written in place, so the links stay one file") {
    TempDir dir;
    write_text(dir.file("a.png"), "a long old content");
    ::chmod(dir.file("a.png").c_str(), 0640);
    fs::create_hard_link(dir.file("a.png"), dir.file("b.png"));
    const ino_t inode = stat_of(dir.file("a.png")).st_ino;
    write_text(dir.file("b.png"), "short");
    CHECK(test::read_bytes(dir.file("a.png")) == "short");
    CHECK(test::read_bytes(dir.file("b.png")) == "short");
    const struct stat st = stat_of(dir.file("a.png"));
    CHECK(st.st_ino == inode);
    CHECK(st.st_nlink == 2);
    CHECK((st.st_mode & 07777) == 0640);
    write_text(dir.file("a.png"), "a content longer than the one before");
    CHECK(test::read_bytes(dir.file("b.png")) == "a content longer than the one before");
    CHECK(dir.entries() == std::vector<std::string>{"a.png", "b.png"});
}

TEST_CASE("atomic write: a FIFO is opened and written, never replaced") {
    TempDir dir;
    const std::string fifo = dir.file("pipe.png");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // so the writer's open does not wait
    REQUIRE(reader >= 0);
    write_text(fifo, "through the pipe");
    CHECK(drain(reader) == "through the pipe");
    ::close(reader);
    CHECK(S_ISFIFO(stat_of(fifo, false).st_mode));
    CHECK(dir.entries() == std::vector<std::string>{"pipe.png"});
}

// As root, a device node of our own in a folder we may write, where a rename
// would succeed (and a regression would not replace the machine's); otherwise
// the system's, which a user may write but not replace.
std::string device_node(const TempDir& dir, const std::string& name, unsigned minor) {
    const std::string own = dir.file(name);
    if (::geteuid() == 0 && ::mknod(own.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0) return own;
    return "/dev/" + name;
}

TEST_CASE("atomic write: a character device is written, never replaced") {
    TempDir dir;
    const std::string null = device_node(dir, "null", 3);
    const struct stat before = stat_of(null, false);
    REQUIRE(S_ISCHR(before.st_mode));
    write_text(null, "nothing");
    const struct stat after = stat_of(null, false);
    CHECK(S_ISCHR(after.st_mode));
    CHECK(after.st_rdev == before.st_rdev);
    CHECK(after.st_ino == before.st_ino);
    CHECK((after.st_mode & 07777) == (before.st_mode & 07777));
    // A device that fails is an error naming it, and stays a device.
    const std::string full = device_node(dir, "full", 7);
    if (fs::exists(full)) {
        CHECK(has(error_of([&] { write_text(full, "x"); }), full + ": write failed"));
        CHECK(S_ISCHR(stat_of(full, false).st_mode));
    }
}

TEST_CASE("atomic write: /dev/fd/N and /proc/self/fd/N are written to that descriptor") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    write_text("/dev/fd/" + std::to_string(fds[1]), "one ");
    write_text("/proc/self/fd/" + std::to_string(fds[1]), "two");
    CHECK(drain(fds[0]) == "one two");
    // Through a link of ours, too.
    TempDir dir;
    fs::create_symlink("/dev/fd/" + std::to_string(fds[1]), dir.file("out.png"));
    write_text(dir.file("out.png"), "three");
    CHECK(drain(fds[0]) == "three");
    CHECK(fs::is_symlink(dir.file("out.png")));
    ::close(fds[1]);
    CHECK(has(error_of([&] { write_text("/dev/fd/" + std::to_string(fds[1]), "x"); }), "is not open"));
    CHECK(has(error_of([&] { write_text("/dev/fd/" + std::to_string(fds[0]), "x"); }), "for reading only"));
    ::close(fds[0]);
}

TEST_CASE("atomic write: another process's /proc/PID/fd/N of a regular file replaces that file by its name") {
    TempDir dir;
    write_text(dir.file("open.png"), "old and long");
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::dup2(::open(dir.file("open.png").c_str(), O_RDONLY), 5);
        for (;;) ::pause();
    }
    struct Reaper {  // ends the child however the test ends
        pid_t pid;
        ~Reaper() {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    } reaper{child};
    const std::string link = "/proc/" + std::to_string(child) + "/fd/5";
    for (int i = 0; i < 5000 && !fs::exists(link); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    CHECK_NOTHROW(write_text(link, "new"));
    CHECK(test::read_bytes(dir.file("open.png")) == "new");
    CHECK(dir.entries() == std::vector<std::string>{"open.png"});
}

TEST_CASE("atomic write: a socket is refused; a long file name still gets its temporary file") {
    TempDir dir;
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string sock_path = dir.file("sock.png");
    REQUIRE(sock_path.size() < sizeof addr.sun_path);
    std::strcpy(addr.sun_path, sock_path.c_str());
    REQUIRE(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    CHECK(has(error_of([&] { write_text(sock_path, "x"); }), "is a socket"));
    ::close(sock);
    fs::remove(sock_path);

    const std::string name(250, 'n');
    write_text(dir.file(name), "long");
    CHECK(test::read_bytes(dir.file(name)) == "long");
    CHECK(dir.entries() == std::vector<std::string>{name});
    CHECK(temp_file_template(dir.path(), std::string(300, 'x')).size() - dir.path().size() - 1 == 255);
}

TEST_CASE("atomic write: as root, a replaced file keeps its owner") {
    if (::geteuid() != 0) {
        MESSAGE("not root: owners cannot be given away, nothing to check");
        return;
    }
    TempDir dir;
    write_text(dir.file("theirs.png"), "old");
    REQUIRE(::chown(dir.file("theirs.png").c_str(), 4321, 4322) == 0);
    write_text(dir.file("theirs.png"), "new");
    const struct stat st = stat_of(dir.file("theirs.png"));
    CHECK(st.st_uid == 4321u);
    CHECK(st.st_gid == 4322u);
}

TEST_CASE("temporary files: removed unless kept, unique, named after the target") {
    TempDir dir;
    std::string kept;
    {
        TempFile a(temp_file_template(dir.path(), "x.png"));
        TempFile b(temp_file_template(dir.path(), "x.png"));
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        CHECK(a.path() != b.path());
        CHECK(has(a.path(), "/.x.png.imgpar-"));
        CHECK(dir.entries().size() == 2);
        REQUIRE(::rename(b.path().c_str(), dir.file("x.png").c_str()) == 0);
        b.keep();
    }
    CHECK(dir.entries() == std::vector<std::string>{"x.png"});
    TempFile missing(temp_file_template(dir.file("no/such"), "x.png"));
    CHECK_FALSE(missing.ok());
    CHECK(missing.error() == ENOENT);
}

TEST_CASE("temporary files: a stop signal removes every one, then stops the process with that signal") {
    for (const int sig : {SIGTERM, SIGINT, SIGHUP, SIGPIPE}) {
        CAPTURE(sig);
        TempDir dir;
        const int status = in_child([&]() -> int {
            std::signal(sig, SIG_DFL);  // as in imgpar (doctest has handlers of its own)
            // Files held by several threads at once, as batch workers do.
            std::atomic<int> made{0};
            std::vector<std::thread> workers;
            for (int i = 0; i < 6; ++i)
                workers.emplace_back([&] {
                    TempFile t(temp_file_template(dir.path(), "out.png"));
                    if (t.ok() && ::write(t.fd(), "partial", 7) == 7) ++made;
                    for (;;) ::pause();
                });
            while (made.load() < 6) std::this_thread::yield();
            ::kill(::getpid(), sig);
            for (;;) ::pause();
        });
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == sig);  // a shell reports 128 + sig
        CHECK(dir.entries().empty());
    }
}

TEST_CASE("temporary files: a signal the process ignores stays ignored") {
    TempDir dir;
    const int status = in_child([&]() -> int {
        std::signal(SIGHUP, SIG_IGN);  // as nohup does
        TempFile t(temp_file_template(dir.path(), "out.png"));
        ::kill(::getpid(), SIGHUP);
        return t.ok() && ::access(t.path().c_str(), F_OK) == 0 ? 0 : 3;
    });
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(dir.entries().empty());  // removed by its destructor
}

TEST_CASE("streamed write: the writer fills the temporary file (seeking too), renamed over the target with its mode") {
    TempDir dir;
    int encoded = 0;
    const auto in_memory = [&] {
        ++encoded;
        return std::vector<std::uint8_t>{'m', 'e', 'm'};
    };
    // Written out of order, as libtiff links its directory: the seek counts.
    const auto writer = [](int fd) {
        REQUIRE(::pwrite(fd, "world", 5, 6) == 5);
        REQUIRE(::pwrite(fd, "hello ", 6, 0) == 6);
    };
    write_file_streamed(dir.file("s.tif"), writer, in_memory);
    CHECK(test::read_bytes(dir.file("s.tif")) == "hello world");
    ::chmod(dir.file("s.tif").c_str(), 0604);
    write_file_streamed(dir.file("s.tif"), [](int fd) { REQUIRE(::write(fd, "again", 5) == 5); }, in_memory);
    CHECK(test::read_bytes(dir.file("s.tif")) == "again");
    CHECK((stat_of(dir.file("s.tif")).st_mode & 07777) == 0604);
    CHECK(encoded == 0);
    CHECK(dir.entries() == std::vector<std::string>{"s.tif"});
}

TEST_CASE("streamed write: a writer that fails leaves the existing file as it was and no temporary file") {
    TempDir dir;
    write_text(dir.file("keep.tif"), "old bytes");
    const std::string e = error_of([&] {
        write_file_streamed(
            dir.file("keep.tif"),
            [&](int fd) {
                REQUIRE(::write(fd, "half", 4) == 4);
                throw output_error(dir.file("keep.tif"), "write failed: No space left on device");
            },
            [] { return std::vector<std::uint8_t>(); });
    });
    CHECK(has(e, "No space left on device"));
    CHECK(test::read_bytes(dir.file("keep.tif")) == "old bytes");
    CHECK(dir.entries() == std::vector<std::string>{"keep.tif"});
    // A new name that fails is not created.
    (void)error_of([&] {
        write_file_streamed(
            dir.file("new.tif"), [&](int) { throw output_error(dir.file("new.tif"), "encoder failed"); },
            [] { return std::vector<std::uint8_t>(); });
    });
    CHECK(dir.entries() == std::vector<std::string>{"keep.tif"});
}

TEST_CASE("streamed write: several hard links, a FIFO and a descriptor get the bytes made in memory") {
    TempDir dir;
    write_text(dir.file("a.tif"), "old");
    fs::create_hard_link(dir.file("a.tif"), dir.file("b.tif"));
    const auto never = [](int) { FAIL("a target not replaced by a rename was streamed"); };
    write_file_streamed(dir.file("b.tif"), never, [] { return std::vector<std::uint8_t>{'n', 'e', 'w'}; });
    CHECK(test::read_bytes(dir.file("a.tif")) == "new");
    CHECK(stat_of(dir.file("a.tif")).st_nlink == 2);
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    write_file_streamed("/dev/fd/" + std::to_string(fds[1]), never, [] { return std::vector<std::uint8_t>{'p'}; });
    CHECK(drain(fds[0]) == "p");
    ::close(fds[0]);
    ::close(fds[1]);
}
