// End-to-end, watched with strace: a run opens each input once and reads its
// bytes once (the first file too, which --device auto and the GPU's set-up
// look at before the workers start), whatever the command and the device.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

bool have_strace() { return std::system("strace -V >/dev/null 2>&1") == 0; }

struct Reads {
    int opens = 0;            // successful opens of the file
    long long bytes = 0;      // bytes read from it
};

std::string escaped(const std::string& path) { return std::regex_replace(path, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)"); }

// What strace's logs (-ff: one file per thread, LOG.TID, so no call is split
// between threads; -y names each descriptor's file) say of `path`.
Reads reads_of(const std::string& log, const std::string& path) {
    Reads r;
    const std::regex open_call("open(at)?\\(.*\"" + escaped(path) + "\".*\\) = [0-9]+");
    const std::regex read_call("(read|pread64)\\([0-9]+<" + escaped(path) + ">,.*\\) = ([0-9]+)");
    const fs::path folder = fs::path(log).parent_path();
    const std::string prefix = fs::path(log).filename().string() + ".";
    for (const fs::directory_entry& e : fs::directory_iterator(folder)) {
        if (e.path().filename().string().rfind(prefix, 0) != 0) continue;
        std::ifstream in(e.path());
        std::smatch m;
        for (std::string line; std::getline(in, line);) {
            if (std::regex_search(line, open_call)) ++r.opens;
            if (std::regex_search(line, m, read_call)) r.bytes += std::stoll(m[2].str());
        }
    }
    return r;
}

test::RunResult traced(const std::string& log, const std::vector<std::string>& args, const std::string& cwd) {
    std::vector<std::string> all = {IMGPAR_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::string cmd = "strace -ff -y -e trace=open,openat,read,pread64 -o '" + log + "'";
    for (const std::string& a : all) cmd += " '" + a + "'";
    cmd += " >'" + log + "-out' 2>'" + log + "-err'";
    test::RunResult r;
    const int status = std::system(("cd '" + cwd + "' && " + cmd).c_str());
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

}  // namespace

TEST_CASE("cli reads: one blur of a JPEG opens and reads its input once, on every device request; a batch each file once") {
    if (!have_strace()) {
        MESSAGE("strace is not installed: skipped (Debian's strace package)");
        return;
    }
    TempDir dir;
    const std::string jpeg = dir.file("photo.jpg");
    fs::copy_file(test::sample_path("rocket.jpg"), jpeg);
    const long long size = static_cast<long long>(fs::file_size(jpeg));
    for (const char* device : {"auto", "cpu", "gpu"}) {
        CAPTURE(device);
        const std::string log = dir.file(std::string("trace_") + device);
        const test::RunResult r = traced(log, {"blur", jpeg, dir.file("out.jpg"), "--device", device}, dir.path());
        // Without a usable GPU, --device gpu fails (exit 3) after reading nothing but the header it needed.
        if (r.exit_code == 3) continue;
        REQUIRE(r.exit_code == 0);
        const Reads seen = reads_of(log, jpeg);
        CHECK(seen.opens == 1);
        CHECK(seen.bytes == size);
    }
    // A batch, and a chain: each input once.
    std::vector<std::string> args = {"chain", "blur | sharpen", "--out-dir", "out", "--jobs", "2"};
    for (int i = 0; i < 4; ++i) {
        fs::copy_file(test::sample_path("chelsea.png"), dir.file("p" + std::to_string(i) + ".png"));
        args.push_back(dir.file("p" + std::to_string(i) + ".png"));
    }
    const std::string log = dir.file("trace_batch");
    REQUIRE(traced(log, args, dir.path()).exit_code == 0);
    for (int i = 0; i < 4; ++i) {
        const std::string p = dir.file("p" + std::to_string(i) + ".png");
        CAPTURE(p);
        const Reads seen = reads_of(log, p);
        CHECK(seen.opens == 1);
        CHECK(seen.bytes == static_cast<long long>(fs::file_size(p)));
    }
}
