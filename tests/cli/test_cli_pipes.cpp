// End-to-end: inputs that can be read only once, as shells hand them over:
// process substitution (<(cat x.png), a /dev/fd/N pipe), a pipe into
// /dev/stdin or '-', and a named FIFO with a writer on the other end. Each
// must give the bytes the regular file gives; a second read of the input
// would find it empty ("file is empty") and a second open() of a FIFO would
// wait forever, so every run is under a timeout: a hang fails the test.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

// What a run gets at the most before `timeout` stops it (exit 124).
constexpr const char* kTimeout = "timeout -k 2 20";

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs the bash `script` in `cwd`, where $IMGPAR is the binary and $T the
// timeout command, with stdout and stderr captured.
test::RunResult run_bash(const std::string& script, const std::string& cwd) {
    TempDir capture;
    test::write_bytes(capture.file("script.sh"), "IMGPAR=" + quoted(IMGPAR_BINARY) + "\nT=" + quoted(kTimeout) + "\n" + script);
    const std::string cmd = "cd " + quoted(cwd) + " && timeout -k 2 60 bash " + quoted(capture.file("script.sh")) +
                            " > " + quoted(capture.file("out")) + " 2> " + quoted(capture.file("err")) + " < /dev/null";
    const int status = std::system(cmd.c_str());
    test::RunResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = test::read_bytes(capture.file("out"));
    r.err = test::read_bytes(capture.file("err"));
    return r;
}

// The shell forms that hand `input` over once: ARGS stands for imgpar's
// arguments around the input's name, which IN stands for.
struct Form {
    const char* name;
    std::string script;  // with IN for the input's name
};

std::vector<Form> once_forms(const std::string& input) {
    const std::string in = quoted(input);
    return {
        {"process substitution", "$T \"$IMGPAR\" ARGS_BEFORE <(cat " + in + ") ARGS_AFTER"},
        {"pipe into /dev/stdin", "cat " + in + " | $T \"$IMGPAR\" ARGS_BEFORE /dev/stdin ARGS_AFTER"},
        {"pipe into -", "cat " + in + " | $T \"$IMGPAR\" ARGS_BEFORE - ARGS_AFTER"},
        // The writer is stopped if imgpar never opens the FIFO (it would wait
        // in open() for a reader).
        {"named FIFO", "rm -f fifo && mkfifo fifo && { cat " + in +
                           " > fifo & writer=$!; }\n$T \"$IMGPAR\" ARGS_BEFORE fifo ARGS_AFTER\nrc=$?\nkill $writer "
                           "2>/dev/null\nwait\nexit $rc"},
    };
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

// `form`'s script with imgpar's arguments.
std::string with_args(const Form& form, const std::string& before, const std::string& after) {
    return replaced(replaced(form.script, "ARGS_BEFORE", before), "ARGS_AFTER", after);
}

// The name imgpar gives the input in `form` (as its messages and reports show it).
std::string shown_name(const Form& form, const std::string& out) {
    const std::string f = form.name;
    if (f == "named FIFO") return "fifo";
    if (f == "pipe into -") return "<stdin>";
    if (f == "pipe into /dev/stdin") return "/dev/stdin";
    const std::size_t at = out.find("/dev/fd/");
    return at == std::string::npos ? "/dev/fd/?" : out.substr(at, out.find(':', at) - at);
}

void copy_samples(const TempDir& dir) {
    fs::copy_file(test::sample_path("camera.png"), dir.file("camera.png"));
    fs::copy_file(test::sample_path("rocket.jpg"), dir.file("rocket.jpg"));
}

}  // namespace

TEST_CASE("cli pipes: blur of a PNG and of a JPEG read once through a pipe or FIFO gives the regular file's bytes") {
    TempDir dir;
    copy_samples(dir);
    for (const char* input : {"camera.png", "rocket.jpg"}) {
        CAPTURE(input);
        REQUIRE(run_bash("\"$IMGPAR\" blur " + std::string(input) + " expected.png", dir.path()).exit_code == 0);
        const std::string expected = test::read_bytes(dir.file("expected.png"));
        for (const Form& form : once_forms(input)) {
            CAPTURE(form.name);
            fs::remove(dir.file("out.png"));
            const test::RunResult r = run_bash(with_args(form, "blur", "out.png"), dir.path());
            INFO(r.err);
            CHECK(r.exit_code == 0);  // 124: it hung
            CHECK(test::read_bytes(dir.file("out.png")) == expected);
        }
    }
}

TEST_CASE("cli pipes: info (with and without --verify) and histo through a pipe or FIFO say what the file says") {
    TempDir dir;
    copy_samples(dir);
    for (const char* input : {"camera.png", "rocket.jpg"}) {
        CAPTURE(input);
        for (const std::string command : {"info", "info --verify", "histo"}) {
            CAPTURE(command);
            const test::RunResult expected = run_bash("\"$IMGPAR\" " + command + " " + input, dir.path());
            REQUIRE(expected.exit_code == 0);
            for (const Form& form : once_forms(input)) {
                CAPTURE(form.name);
                const test::RunResult r = run_bash(with_args(form, command, ""), dir.path());
                INFO(r.err);
                CHECK(r.exit_code == 0);
                CHECK(replaced(r.out, shown_name(form, r.out), input) == expected.out);
            }
        }
    }
}

TEST_CASE("cli pipes: a FIFO in a batch with regular files, --json: each file read once, every record ok") {
    TempDir dir;
    copy_samples(dir);
    // The FIFO carries the JPEG; its output is named from the FIFO's name.
    const Form fifo = once_forms("rocket.jpg").back();
    REQUIRE(std::string(fifo.name) == "named FIFO");
    test::RunResult r = run_bash(with_args(fifo, "blur --json --format png --out-dir out camera.png", "rocket.jpg"),
                                 dir.path());
    INFO(r.err);
    CHECK(r.exit_code == 0);
    std::vector<std::string> records = lines(r.out);
    CHECK(records.size() == 3);
    for (const std::string& line : records) {
        INFO(line);
        REQUIRE(test::is_valid_json(line));
        CHECK(test::json_members(line)["ok"] == "true");
    }
    CHECK(test::read_bytes(dir.file("out/fifo.png")) == test::read_bytes(dir.file("out/rocket.png")));
    // info --verify --json: the FIFO's record is the JPEG's, named fifo.
    r = run_bash(with_args(fifo, "info --verify --json camera.png", "rocket.jpg"), dir.path());
    CHECK(r.exit_code == 0);
    records = lines(r.out);
    REQUIRE(records.size() == 3);
    CHECK(replaced(records[1], "\"file\":\"fifo\"", "\"file\":\"rocket.jpg\"") == records[2]);
}
