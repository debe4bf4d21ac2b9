// Runs the built imgpar binary the way a user would, capturing exit code,
// stdout and stderr.
#pragma once

#include <string>
#include <vector>

namespace imgpar::test {

struct RunResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// `needle` occurs in `s`.
inline bool has(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }
// `needle` occurs in one of `lines` (warnings, say).
inline bool any_has(const std::vector<std::string>& lines, const std::string& needle) {
    for (const std::string& l : lines)
        if (has(l, needle)) return true;
    return false;
}
// `s` split into lines (without their line ends).
std::vector<std::string> lines(const std::string& s);

// Runs `imgpar ARGS...` (each argument shell-quoted) in `cwd`, with stdin from
// `stdin_file` if given. The binary's path comes from IMGPAR_BINARY.
RunResult run_imgpar(const std::vector<std::string>& args, const std::string& cwd = "",
                     const std::string& stdin_file = "");

// The same with the locale variables (LC_ALL, LC_CTYPE, LANG) cleared, then
// `env` ("NAME=value" each) set.
RunResult run_imgpar_in_locale(const std::vector<std::string>& env, const std::vector<std::string>& args,
                               const std::string& cwd = "");

// The same with the process's address space limited to `kib` KiB (the
// shell's ulimit -v): allocations beyond it fail.
RunResult run_imgpar_with_memory_limit(long kib, const std::vector<std::string>& args, const std::string& cwd = "");

}  // namespace imgpar::test
