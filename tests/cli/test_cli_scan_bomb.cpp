// End-to-end: a progressive JPEG scan bomb (883 valid scans of end-of-block
// runs over a 4096x4096 frame, 67 KB) is refused at once with the reason,
// exit 1; in a batch only it fails. Before the work budget
// (src/io/jpeg_work_budget.hpp), info --verify spent seconds decoding it.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "tests/support/cli_runner.hpp"
#include "tests/support/jpeg_scan_bomb.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

constexpr const char* kReason =
    "bomb.jpg: progressive JPEG with 883 scans over 262,144 blocks each (231,473,152 block decodes), more decoding "
    "work than a ";

// imgpar with `args` in `cwd`, and how long it ran.
test::RunResult timed(const std::vector<std::string>& args, const std::string& cwd, double& seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    test::RunResult r = run_imgpar(args, cwd);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

void write_bomb(const TempDir& dir) {
    const test::Bytes bomb = test::jpeg_scan_bomb(4096);
    test::write_bytes(dir.file("bomb.jpg"), std::string(bomb.begin(), bomb.end()));
}

}  // namespace

TEST_CASE("cli scan bomb: info --verify and blur refuse it at once, naming the file and why; plain info describes it") {
    TempDir dir;
    write_bomb(dir);
    double seconds = 0;
    test::RunResult r = timed({"info", "--verify", "bomb.jpg"}, dir.path(), seconds);
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, kReason));
    CHECK(has(r.err, "16 passes over its 262,144 blocks"));
    CHECK(seconds < 2.0);
    r = timed({"blur", "bomb.jpg", "out.png"}, dir.path(), seconds);
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, kReason));
    CHECK_FALSE(fs::exists(dir.file("out.png")));
    CHECK(seconds < 2.0);
    // The header alone is a valid 4096x4096 gray progressive JPEG.
    r = run_imgpar({"info", "bomb.jpg"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "bomb.jpg: jpeg 4096x4096 gray"));
}

TEST_CASE("cli scan bomb: in a batch (--json) only the bomb fails; a real progressive JPEG beside it decodes") {
    TempDir dir;
    write_bomb(dir);
    fs::copy_file(test::data_path("progressive.jpg"), dir.file("progressive.jpg"));
    fs::copy_file(test::sample_path("rocket.jpg"), dir.file("rocket.jpg"));
    double seconds = 0;
    const test::RunResult r =
        timed({"info", "--verify", "--json", "rocket.jpg", "bomb.jpg", "progressive.jpg"}, dir.path(), seconds);
    CHECK(r.exit_code == 1);
    CHECK(seconds < 2.0);
    const std::vector<std::string> records = lines(r.out);
    REQUIRE(records.size() == 3);
    for (const std::string& line : records) {
        INFO(line);
        REQUIRE(test::is_valid_json(line));
        auto m = test::json_members(line);
        const bool bomb = m["file"] == "\"bomb.jpg\"";
        CHECK(m["ok"] == (bomb ? "false" : "true"));
        if (bomb) CHECK(has(m["error"], "progressive JPEG with 883 scans over 262,144 blocks each"));
    }
    CHECK(has(r.err, "info: 2 described, 1 failed"));
}
