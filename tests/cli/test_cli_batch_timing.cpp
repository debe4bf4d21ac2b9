// End-to-end: -v ends a run with its fixed costs and pace: the start-up, when
// the first file was done, the rate of the files after it, and the teardown;
// the numbers are consistent with each other and the line is -v's alone.
// --json's records carry each file's place in the run's timeline, which
// bench/e2e/timeline.py sums up.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/python_peer.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace {

// The "timing:" line of stderr, or "".
std::string timing_line(const std::string& err) {
    const std::size_t at = err.find("imgpar: timing: ");
    if (at == std::string::npos) return "";
    return err.substr(at, err.find('\n', at) - at);
}

}  // namespace

TEST_CASE("cli batch timing: -v says the start-up, the first file, the steady rate and the teardown") {
    TempDir dir;
    const std::string a = test::sample_path("chelsea_alpha.png");
    std::vector<std::string> args = {"blur", "--device", "cpu", "-v", "--out-dir", "out"};
    for (const char* name : {"a.png", "b.png", "c.png", "d.png"}) {
        std::filesystem::copy_file(a, dir.path() + "/" + name);
        args.push_back(name);
    }
    const auto r = run_imgpar(args, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string line = timing_line(r.err);
    REQUIRE_MESSAGE(!line.empty(), r.err);
    double startup = -1, first = -1, rate = -1, teardown = -1;
    unsigned long others = 0;
    REQUIRE_MESSAGE(std::sscanf(line.c_str(),
                                "imgpar: timing: start-up %lf s, first file done %lf s after the process started, "
                                "then %lu files at %lf files/s, teardown %lf s",
                                &startup, &first, &others, &rate, &teardown) == 5,
                    line);
    CHECK(others == 3);
    CHECK(startup >= 0);
    CHECK(first >= startup);
    CHECK(rate > 0);
    CHECK(teardown >= 0);

    SUBCASE("one file: no rate") {
        const auto one = run_imgpar({"blur", "--device", "cpu", "-v", a, "one.png"}, dir.path());
        REQUIRE_MESSAGE(one.exit_code == 0, one.err);
        const std::string l = timing_line(one.err);
        CHECK(has(l, "first file done"));
        CHECK(has(l, "teardown"));
        CHECK(!has(l, "files/s"));
    }
    SUBCASE("a failed file is counted, and without -v there is no line") {
        const auto bad = run_imgpar({"blur", "--device", "cpu", "-v", "--out-dir", "bad", "a.png", "missing.png"}, dir.path());
        CHECK(bad.exit_code == 1);
        CHECK(has(timing_line(bad.err), "then 1 file at"));
        const auto quiet = run_imgpar({"blur", "--device", "cpu", "--out-dir", "quiet", "a.png", "b.png"}, dir.path());
        CHECK(quiet.exit_code == 0);
        CHECK(timing_line(quiet.err).empty());
    }
}

TEST_CASE("cli batch timing: --json records say when each file was taken and written, and what it waited") {
    TempDir dir;
    const std::string a = test::sample_path("chelsea_alpha.png");
    std::vector<std::string> args = {"blur", "--device", "cpu", "--jobs", "1", "--json", "--out-dir", "out"};
    for (const char* name : {"a.png", "b.png", "c.png"}) {
        std::filesystem::copy_file(a, dir.path() + "/" + name);
        args.push_back(name);
    }
    const auto r = run_imgpar(args, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto records = lines(r.out);
    REQUIRE(records.size() == 3);
    double last_done = 0;
    for (const std::string& record : records) {
        REQUIRE(test::is_valid_json(record));
        const auto m = test::json_members(record);
        const double start = std::stod(m.at("start_s")), done = std::stod(m.at("done_s"));
        const double wait = std::stod(m.at("wait_ms"));
        CHECK(start > 0);
        CHECK(done >= start);
        CHECK(wait >= 0);
        // One worker: a file is taken after the one before it was written,
        // and the steps it took fit between the two times.
        CHECK(start >= last_done);
        CHECK(std::stod(m.at("elapsed_ms")) + std::stod(m.at("encode_ms")) <= (done - start) * 1000.0 + 1.0);
        last_done = done;
    }
    SUBCASE("bench/e2e/timeline.py sums the records up") {
        const std::string python = test::python_with("import json");
        if (python.empty()) {
            MESSAGE("no python3: bench/e2e/timeline.py not run");
            return;
        }
        std::FILE* f = std::fopen(dir.file("run.jsonl").c_str(), "w");
        REQUIRE(f != nullptr);
        std::fputs(r.out.c_str(), f);
        std::fclose(f);
        const std::string script = std::string(IMGPAR_SAMPLES_DIR) + "/../bench/e2e/timeline.py";
        const std::string cmd = python + " '" + script + "' '" + dir.file("run.jsonl") + "' > '" +
                                dir.file("summary.txt") + "' 2>&1";
        const int status = std::system(cmd.c_str());
        const std::string text = test::read_bytes(dir.file("summary.txt"));
        REQUIRE_MESSAGE(status == 0, text);
        CHECK(has(text, "files: 3"));
        CHECK(has(text, "in flight: 1.0 files on average, 1 at most"));
        CHECK(has(text, "decoded/encoded: cpu -> encoded on cpu: 3"));
    }
}
