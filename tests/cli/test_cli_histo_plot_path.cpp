// End-to-end: where histo --plot may write. Never onto the input it reads,
// however named, and nothing at all when the run fails.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace fs = std::filesystem;

TEST_CASE("cli histo --plot onto its input is a usage error, however the input is named") {
    TempDir dir;
    fs::copy_file(test::sample_path("chelsea.png"), dir.file("photo.png"));
    const std::string before = test::read_bytes(dir.file("photo.png"));
    fs::create_symlink("photo.png", dir.file("link.png"));
    fs::create_hard_link(dir.file("photo.png"), dir.file("hard.png"));
    const std::vector<std::string> names{"photo.png", "./photo.png", dir.file("photo.png"), "link.png", "hard.png"};
    for (const std::string& plot : names) {
        CAPTURE(plot);
        auto r = run_imgpar({"histo", "photo.png", "--plot", plot}, dir.path());
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "--plot: '" + plot + "' is the input photo.png"));
        CHECK(test::read_bytes(dir.file("photo.png")) == before);
    }
    CHECK(run_imgpar({"histo", "photo.png", "--plot", "plot.png"}, dir.path()).exit_code == 0);
    CHECK(fs::exists(dir.file("plot.png")));
}

TEST_CASE("cli histo --plot: a run that fails writes no plot") {
    // --device auto times the job on a made-up image first: that must draw nothing.
    TempDir dir;
    const std::string png = test::read_bytes(test::sample_path("chelsea.png"));
    test::write_bytes(dir.file("cut.png"), png.substr(0, png.size() / 2));
    auto r = run_imgpar({"histo", "cut.png", "--plot", "plot.png"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK_FALSE(fs::exists(dir.file("plot.png")));
}
