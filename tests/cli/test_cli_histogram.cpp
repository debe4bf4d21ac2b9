// End-to-end: histo, equalize and threshold as a user runs them.
#include <doctest/doctest.h>

#include <sstream>

#include "src/io/load.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

TEST_CASE("cli histo: text summary per plane, with luma for colour images") {
    auto r = run_imgpar({"histo", test::sample_path("chelsea.png")});
    CHECK(r.exit_code == 0);
    for (const char* plane : {"red", "green", "blue", "luma"}) CHECK(has(r.out, plane));
    for (const char* column : {"count", "min", "max", "mean", "median", "mode"}) CHECK(has(r.out, column));
    r = run_imgpar({"histo", "--channel", "green", test::sample_path("chelsea.png")});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "green"));
    CHECK_FALSE(has(r.out, "blue"));
    r = run_imgpar({"histo", "--channel", "red", test::sample_path("camera.png")});
    CHECK(r.exit_code == 1);  // this file lacks it (tests/cli/test_cli_parsing.cpp: the others go on)
    CHECK(has(r.err, "red"));
}

TEST_CASE("cli histo: CSV rows per bin, JSON Lines that parse and sum to the pixel count") {
    auto r = run_imgpar({"histo", "--csv", "--bins", "16", test::sample_path("camera.png")});
    REQUIRE(r.exit_code == 0);
    auto rows = lines(r.out);
    REQUIRE(rows.size() == 1 + 16);
    CHECK(rows[0] == "file,channel,bin,low,high,count");
    long long total = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) total += std::stoll(rows[i].substr(rows[i].rfind(',') + 1));
    CHECK(total == 512 * 512);

    TempDir dir;
    test::write_bytes(dir.file("bad.png"), "nope");
    r = run_imgpar({"histo", "--json", test::sample_path("camera.png"), dir.file("bad.png"), test::sample_path("rocket.jpg")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "bad.png"));
    rows = lines(r.out);
    REQUIRE(rows.size() == 3);  // the failure has its record, in its place
    for (const auto& line : rows) {
        std::string why;
        CHECK_MESSAGE(test::is_valid_json(line, &why), why);
        CHECK(test::json_members(line)["schema"] == "\"imgpar.histo/1\"");
    }
    CHECK(test::json_members(rows[0])["ok"] == "true");
    CHECK(test::json_members(rows[1])["ok"] == "false");
    CHECK(has(test::json_members(rows[1])["error"], "bad.png"));
    CHECK(has(test::json_members(rows[1])["file"], "bad.png"));
    CHECK(test::json_members(rows[2])["width"] == "640");

    for (const char* bins : {"0", "3", "100", "131072"}) {
        r = run_imgpar({"histo", "--bins", bins, test::sample_path("camera.png")});
        CHECK_MESSAGE(r.exit_code == 2, bins);
        CHECK(has(r.err, "--bins: "));
        CHECK(has(r.err, "65536"));
    }
    // 512 bins suit 16-bit images only: an 8-bit file given them fails alone, saying why.
    r = run_imgpar({"histo", "--bins", "512", test::sample_path("camera.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "camera.png"));
    CHECK(has(r.err, "256"));
}

TEST_CASE("cli histo --plot writes a readable image of the stated size") {
    TempDir dir;
    auto r = run_imgpar({"histo", test::sample_path("chelsea_alpha.png"), "--plot", "plot.png", "--plot-size", "640x360"},
                        dir.path());
    REQUIRE(r.exit_code == 0);
    LoadedImage plot = load_image(dir.file("plot.png"));
    CHECK(plot.image.width() == 640);
    CHECK(plot.image.height() == 360);
    CHECK(run_imgpar({"histo", "a.png", "b.png", "--plot", "p.png"}, dir.path()).exit_code == 2);
    CHECK(run_imgpar({"histo", test::sample_path("camera.png"), "--plot", "p.gif"}, dir.path()).exit_code == 2);
    CHECK(run_imgpar({"histo", test::sample_path("camera.png"), "--plot", "p.png", "--plot-size", "5x5"}, dir.path()).exit_code == 2);
}

TEST_CASE("cli equalize and threshold: images, reported level, usage errors") {
    TempDir dir;
    auto r = run_imgpar({"equalize", test::sample_path("chelsea.png"), "eq.png"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(load_image(dir.file("eq.png")).image.channels() == 3);
    r = run_imgpar({"equalize", test::sample_path("chelsea_alpha.png"), "eq2.png", "--mode", "channels"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(load_image(dir.file("eq2.png")).image.channels() == 4);
    r = run_imgpar({"equalize", test::sample_path("chelsea.png"), "x.png", "--mode", "hsv"}, dir.path());
    CHECK(r.exit_code == 2);

    r = run_imgpar({"threshold", test::sample_path("camera.png"), "t.png", "--otsu", "--json"}, dir.path());
    REQUIRE(r.exit_code == 0);
    auto m = test::json_members(lines(r.out).at(0));
    auto op = test::json_members(m["operation"]);
    CHECK(op["method"] == "\"otsu\"");
    int level = std::stoi(op["threshold"]);
    CHECK(level > 0);
    CHECK(level < 255);
    ImageU8 t = load_image(dir.file("t.png")).image;
    CHECK(t.channels() == 1);
    for (std::size_t i = 0; i < t.size_bytes(); ++i) CHECK((t.data()[i] == 0 || t.data()[i] == 255));

    r = run_imgpar({"threshold", test::sample_path("camera.png"), "t2.png", "--otsu", "-v"}, dir.path());
    CHECK(has(r.err, "threshold level " + std::to_string(level)));
    CHECK(run_imgpar({"threshold", test::sample_path("camera.png"), "t3.png", "--value", "100"}, dir.path()).exit_code == 0);
    CHECK(run_imgpar({"threshold", test::sample_path("camera.png"), "x.png"}, dir.path()).exit_code == 2);
    CHECK(run_imgpar({"threshold", test::sample_path("camera.png"), "x.png", "--otsu", "--value", "3"}, dir.path()).exit_code == 2);
    CHECK(run_imgpar({"threshold", test::sample_path("camera.png"), "x.png", "--value", "256"}, dir.path()).exit_code == 2);
    CHECK_FALSE(test::file_exists(dir.file("x.png")));
}
