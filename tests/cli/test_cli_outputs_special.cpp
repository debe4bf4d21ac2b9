// End-to-end: outputs that are not plain new files. Devices and FIFOs are
// written, never replaced; standard output by any of its names; links written
// through (symbolic) or kept (hard); and a run stopped by a signal leaves no
// temporary file.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

// A small PNG (its blurred copy fits in a pipe's buffer) and the bytes that
// `imgpar blur` writes for it.
struct SmallInput {
    std::string path;
    std::string blurred;
};

SmallInput small_input(const TempDir& dir) {
    SmallInput s{dir.file("small.png"), ""};
    std::vector<std::string> warnings;
    save_image(s.path, test::photo_like_image(32, 24, 3).view(), {}, warnings);
    REQUIRE(run_imgpar({"blur", s.path, dir.file("reference.png")}).exit_code == 0);
    s.blurred = test::read_bytes(dir.file("reference.png"));
    fs::remove(dir.file("reference.png"));
    REQUIRE(s.blurred.size() < 16384);
    return s;
}

struct stat lstat_of(const std::string& path) {
    struct stat st{};
    REQUIRE(::lstat(path.c_str(), &st) == 0);
    return st;
}

std::string drain(int fd) {
    std::string got;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    return got;
}

// The temporary files (".NAME.imgpar-XXXXXX") in `dir`.
std::vector<std::string> temp_files(const std::string& dir) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name[0] == '.' && name.find(".imgpar-") != std::string::npos) found.push_back(name);
    }
    return found;
}

pid_t spawn_imgpar(const std::vector<std::string>& args, const std::string& cwd) {
    std::vector<std::string> all{IMGPAR_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(&a[0]);
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        const int null = ::open("/dev/null", O_RDWR);
        if (::chdir(cwd.c_str()) != 0 || null < 0) ::_exit(126);
        ::dup2(null, 0), ::dup2(null, 1), ::dup2(null, 2);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

// Runs imgpar; the moment one of its temporary files is seen in `watch`, the
// process is stopped (SIGSTOP), and if the file is still there, sent `sig`
// and let go on, so the signal surely arrives while a write is under way.
// Returns the wait status, or -1 when the run ended before a temporary file
// could be caught.
int signal_during_write(const std::vector<std::string>& args, const std::string& cwd, const std::string& watch,
                        int sig) {
    const pid_t pid = spawn_imgpar(args, cwd);
    int status = 0;
    for (;;) {
        if (::waitpid(pid, &status, WNOHANG) == pid) return -1;
        if (!temp_files(watch).empty()) {
            ::kill(pid, SIGSTOP);
            if (::waitpid(pid, &status, WUNTRACED) == pid && !WIFSTOPPED(status)) return -1;
            if (!temp_files(watch).empty()) {
                ::kill(pid, sig);
                ::kill(pid, SIGCONT);
                REQUIRE(::waitpid(pid, &status, 0) == pid);
                return status;
            }
            ::kill(pid, SIGCONT);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

// A large image that is quick to decode (constant): its BMP takes a while to
// write and flush.
void write_large_input(const std::string& path) {
    std::vector<std::string> warnings;
    save_image(path, test::constant_image(4000, 3000, 3, 77).view(), {}, warnings);
}

}  // namespace

TEST_CASE("cli outputs: a character device is written, never replaced") {
    // As root, a null device of our own in a folder we may write, where a
    // rename would succeed (what replaced /dev/null); otherwise /dev/null.
    TempDir dir;
    const SmallInput in = small_input(dir);
    std::string device = "/dev/null";
    if (::geteuid() == 0 && ::mknod(dir.file("null").c_str(), S_IFCHR | 0644, makedev(1, 3)) == 0)
        device = dir.file("null");
    const struct stat before = lstat_of(device);
    auto r = run_imgpar({"blur", in.path, device, "--format", "png"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const struct stat after = lstat_of(device);
    CHECK(S_ISCHR(after.st_mode));
    CHECK(after.st_rdev == before.st_rdev);
    CHECK(after.st_ino == before.st_ino);
    CHECK((after.st_mode & 07777) == (before.st_mode & 07777));
    CHECK(temp_files(dir.path()).empty());
}

TEST_CASE("cli outputs: a FIFO is written, never replaced") {
    TempDir dir;
    const SmallInput in = small_input(dir);
    const std::string fifo = dir.file("pipe");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // Open for reading first (without waiting), so imgpar's open finds a reader.
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    REQUIRE(reader >= 0);
    auto r = run_imgpar({"blur", in.path, fifo, "--format", "png"});
    CHECK(r.exit_code == 0);
    CHECK(drain(reader) == in.blurred);
    ::close(reader);
    CHECK(S_ISFIFO(lstat_of(fifo).st_mode));
    CHECK(temp_files(dir.path()).empty());
}

TEST_CASE("cli outputs: standard output as '-', /dev/fd/1, /proc/self/fd/1, or a link to /dev/stdout") {
    TempDir dir;
    const SmallInput in = small_input(dir);
    for (const char* name : {"-", "/dev/fd/1", "/proc/self/fd/1"}) {
        CAPTURE(name);
        auto r = run_imgpar({"blur", in.path, name, "--format", "png"});
        CHECK(r.exit_code == 0);
        CHECK(r.out == in.blurred);
    }
    // A link of ours, so that a regression replaces the link, not /dev/stdout.
    fs::create_symlink("/dev/stdout", dir.file("stdout.png"));
    auto r = run_imgpar({"blur", in.path, "stdout.png"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.out == in.blurred);
    CHECK(fs::is_symlink(dir.file("stdout.png")));
    CHECK(temp_files(dir.path()).empty());
}

TEST_CASE("cli outputs: a symbolic link is written through; hard links stay one file") {
    TempDir dir;
    const SmallInput in = small_input(dir);
    fs::create_directories(dir.file("real"));
    test::write_bytes(dir.file("real/out.png"), "old");
    fs::create_symlink("real/out.png", dir.file("link.png"));
    auto r = run_imgpar({"blur", in.path, "link.png"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(fs::is_symlink(dir.file("link.png")));
    CHECK(test::read_bytes(dir.file("real/out.png")) == in.blurred);
    // A dangling link gets the file it names.
    fs::create_symlink("real/new.png", dir.file("dangling.png"));
    CHECK(run_imgpar({"blur", in.path, "dangling.png"}, dir.path()).exit_code == 0);
    CHECK(test::read_bytes(dir.file("real/new.png")) == in.blurred);

    test::write_bytes(dir.file("a.png"), "old");
    fs::create_hard_link(dir.file("a.png"), dir.file("b.png"));
    r = run_imgpar({"blur", in.path, "b.png"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(test::read_bytes(dir.file("a.png")) == in.blurred);
    CHECK(lstat_of(dir.file("a.png")).st_ino == lstat_of(dir.file("b.png")).st_ino);
    CHECK(temp_files(dir.path()).empty());
    CHECK(temp_files(dir.file("real")).empty());
}

TEST_CASE("cli outputs: SIGTERM or SIGINT during a write leaves no temporary file and stops with that signal") {
    TempDir dir;
    write_large_input(dir.file("large.png"));
    SUBCASE("one file, over an existing output") {
        int status = -1;
        for (int attempt = 0; attempt < 5 && status == -1; ++attempt) {
            test::write_bytes(dir.file("out.bmp"), "precious");
            status = signal_during_write({"convert", "large.png", "out.bmp"}, dir.path(), dir.path(), SIGTERM);
        }
        REQUIRE_MESSAGE(status != -1, "every write ended before its temporary file could be caught");
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == SIGTERM);  // a shell's $? is 128 + 15
        CHECK(temp_files(dir.path()).empty());
        CHECK(test::read_bytes(dir.file("out.bmp")) == "precious");
    }
    SUBCASE("a batch, several files written at once") {
        for (const char* copy : {"large2.png", "large3.png"}) fs::copy_file(dir.file("large.png"), dir.file(copy));
        fs::create_directories(dir.file("out"));
        int status = -1;
        for (int attempt = 0; attempt < 5 && status == -1; ++attempt) {
            for (const auto& e : fs::directory_iterator(dir.file("out"))) fs::remove(e.path());
            status = signal_during_write({"convert", "large.png", "large2.png", "large3.png", "--out-dir", "out",
                                          "--format", "bmp", "--jobs", "3"},
                                         dir.path(), dir.file("out"), SIGINT);
        }
        REQUIRE_MESSAGE(status != -1, "every write ended before its temporary file could be caught");
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == SIGINT);  // a shell's $? is 128 + 2
        CHECK(temp_files(dir.file("out")).empty());
    }
}
