// Runs the built imgpar binary and measures its peak resident memory (the
// kernel's count, ru_maxrss), for the tests that hold a command's memory
// estimate (--max-memory) against what it really takes. imgpar runs under
// imgpar_peak_rss (tests/support/peak_rss_main.cpp), not forked from the
// suite, whose own memory would count.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/test_images.hpp"

namespace imgpar::test {

struct PeakRun {
    int exit_code = -1;
    std::uint64_t peak_kib = 0;  // the process's peak resident set
    std::string err;
};

// Runs `imgpar ARGS...` with standard output discarded and standard error
// captured, and measures its peak resident set.
inline PeakRun run_measured(const std::vector<std::string>& args) {
    TempDir capture;
    const std::string err_path = capture.file("err"), peak_path = capture.file("peak");
    std::vector<std::string> argv_text{IMGPAR_PEAK_RSS, peak_path, IMGPAR_BINARY};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int in = ::open("/dev/null", O_RDONLY);
        const int out = ::open("/dev/null", O_WRONLY);
        const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || in < 0) ::_exit(127);
        ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(err, 2);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    PeakRun r;
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.peak_kib = std::strtoull(read_bytes(peak_path).c_str(), nullptr, 10);
    r.err = read_bytes(err_path);
    return r;
}

// The estimate a refusal states ("needs about 37.5 MiB"), in KiB rounded
// up past the tenth it was rounded to; 0 when `err` states none.
inline std::uint64_t stated_need_kib(const std::string& err) {
    static const std::regex need("needs about ([0-9.]+) (KiB|MiB|GiB)");
    std::smatch m;
    if (!std::regex_search(err, m, need)) return 0;
    const double unit = m[2] == "KiB" ? 1 : m[2] == "MiB" ? 1024 : 1024 * 1024;
    return static_cast<std::uint64_t>(std::ceil((std::stod(m[1]) + 0.1) * unit)) + 1;
}

// A run at the smallest --max-memory that admits it: first at `start_kib`,
// then at each larger need a refusal states, until one runs.
struct LimitedRun {
    PeakRun run;
    std::uint64_t limit_kib = 0;
};
inline LimitedRun run_at_smallest_limit(const std::vector<std::string>& args, std::uint64_t start_kib) {
    LimitedRun r;
    r.limit_kib = start_kib;
    for (int attempt = 0; attempt < 6; ++attempt) {
        std::vector<std::string> limited = args;
        limited.insert(limited.end(), {"--max-memory", std::to_string(r.limit_kib) + "K"});
        r.run = run_measured(limited);
        const std::uint64_t need = stated_need_kib(r.run.err);
        if (r.run.exit_code != 1 || need <= r.limit_kib) break;
        r.limit_kib = need;
    }
    return r;
}

}  // namespace imgpar::test
