// End-to-end: -q and -v are one setting, and as with an option given twice
// the last one wins: -q -v is verbose, -v -q quiet, wherever each is written
// (before the command or after it, grouped as -qv), in every command.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

enum class Said { Quiet, Normal, Verbose };

// What stderr shows of a run that warns (alpha dropped for a JPEG) and, with
// -v, says which backend ran.
Said said(const std::string& err) {
    if (err.empty()) return Said::Quiet;
    return has(err, "backend cpu") ? Said::Verbose : Said::Normal;
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

TEST_CASE("cli verbosity: of -q and -v the last one wins, before or after the command, grouped or repeated") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea_alpha.png");
    const std::vector<std::string> blur = {"blur", "--device", "cpu", in, "out.jpg"};
    const auto run = [&](const std::vector<std::string>& before, const std::vector<std::string>& after) {
        const auto r = run_imgpar(joined(joined(before, blur), after), dir.path());
        CHECK_MESSAGE(r.exit_code == 0, r.err);
        return said(r.err);
    };
    CHECK(run({}, {}) == Said::Normal);
    CHECK(run({}, {"-q", "-v"}) == Said::Verbose);
    CHECK(run({}, {"-v", "-q"}) == Said::Quiet);
    CHECK(run({}, {"--quiet", "--verbose"}) == Said::Verbose);
    CHECK(run({}, {"--verbose", "--quiet"}) == Said::Quiet);
    CHECK(run({"-q"}, {"-v"}) == Said::Verbose);
    CHECK(run({"-v"}, {"-q"}) == Said::Quiet);
    CHECK(run({"-q", "-v"}, {}) == Said::Verbose);
    CHECK(run({}, {"-qv"}) == Said::Verbose);
    CHECK(run({}, {"-vq"}) == Said::Quiet);
    CHECK(run({}, {"-v", "-v"}) == Said::Verbose);
    CHECK(run({}, {"-vv"}) == Said::Verbose);
    CHECK(run({}, {"-q", "-q"}) == Said::Quiet);
    CHECK(run({}, {"-v", "-q", "-v"}) == Said::Verbose);
    // The warning is a warning in both the normal and the verbose run.
    const auto r = run_imgpar(joined(blur, {"-q", "-v"}), dir.path());
    CHECK(has(r.err, "warning"));
}

TEST_CASE("cli verbosity: chain and compare follow the same rule") {
    TempDir dir;
    const std::string rgba = test::sample_path("chelsea_alpha.png"), rgb = test::sample_path("chelsea.png");
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"chain", "blur 0x1 | sharpen", "--device", "cpu", rgba, "out.jpg"},
          {"compare", "--device", "cpu", rgb, rgb}}) {
        CAPTURE(command[0]);
        auto r = run_imgpar(joined(command, {"-q", "-v"}), dir.path());
        CHECK_MESSAGE(r.exit_code == 0, r.err);
        CHECK(said(r.err) == Said::Verbose);
        r = run_imgpar(joined(command, {"-v", "-q"}), dir.path());
        CHECK(r.exit_code == 0);
        CHECK(said(r.err) == Said::Quiet);
        r = run_imgpar(joined({"-v"}, joined(command, {"-q", "-v"})), dir.path());
        CHECK(said(r.err) == Said::Verbose);
    }
}
