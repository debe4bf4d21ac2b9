#include "tests/support/cli_runner.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <sstream>

#include "tests/support/test_images.hpp"

namespace imgpar::test {

static std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') q += "'\\''";
        else q += c;
    }
    return q + "'";
}

std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

static RunResult run_with(const std::string& prefix, const std::vector<std::string>& args, const std::string& cwd,
                          const std::string& stdin_file) {
    TempDir capture;
    std::string cmd;
    if (!cwd.empty()) cmd += "cd " + shell_quote(cwd) + " && ";
    cmd += prefix + shell_quote(IMGPAR_BINARY);
    for (const auto& a : args) cmd += " " + shell_quote(a);
    cmd += " > " + shell_quote(capture.file("out")) + " 2> " + shell_quote(capture.file("err"));
    cmd += stdin_file.empty() ? " < /dev/null" : " < " + shell_quote(stdin_file);
    int status = std::system(cmd.c_str());
    RunResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_bytes(capture.file("out"));
    r.err = read_bytes(capture.file("err"));
    return r;
}

RunResult run_imgpar(const std::vector<std::string>& args, const std::string& cwd, const std::string& stdin_file) {
    return run_with("", args, cwd, stdin_file);
}

RunResult run_imgpar_in_locale(const std::vector<std::string>& env, const std::vector<std::string>& args,
                               const std::string& cwd) {
    std::string prefix = "env -u LC_ALL -u LC_CTYPE -u LANG ";
    for (const std::string& e : env) prefix += shell_quote(e) + " ";
    return run_with(prefix, args, cwd, "");
}

RunResult run_imgpar_with_memory_limit(long kib, const std::vector<std::string>& args, const std::string& cwd) {
    return run_with("ulimit -v " + std::to_string(kib) + " && exec ", args, cwd, "");
}

}  // namespace imgpar::test
