// End-to-end: a parameter that does not fit one image of a batch is that
// file's failure, never the run's (issue 51, item 1). For every operation
// with a condition on the image (a box outside it, a channel it lacks, a
// window larger than it, a result too large...), a batch of an image that
// fits and one that does not, with --json: exit 1, the misfit's record
// "ok": false with the reason, and the other file's output written.
#include <doctest/doctest.h>

#include <filesystem>

#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace {

struct Misfit {
    std::vector<std::string> command;  // the command and its options
    std::string fits, misfits;         // file names in the folder
    std::string reason;                // in the misfit's record
    std::string written;               // the fitting file's output, under out/
};

// The one record of `lines` that names `file`.
std::string record_of(const std::vector<std::string>& records, const std::string& file) {
    for (const std::string& r : records)
        if (has(r, "\"" + file + "\"")) return r;
    return std::string();
}

void check_misfit(const TempDir& dir, const Misfit& m, bool writes_images = true, bool misfit_first = false) {
    std::vector<std::string> args = m.command;
    args.push_back("--json");
    if (writes_images) args.insert(args.end(), {"--out-dir", "out"});
    if (misfit_first)
        args.insert(args.end(), {m.misfits, m.fits});
    else
        args.insert(args.end(), {m.fits, m.misfits});
    std::filesystem::remove_all(dir.file("out"));
    const auto r = run_imgpar(args, dir.path());
    CAPTURE(m.command[0]);
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    const std::vector<std::string> records = lines(r.out);
    REQUIRE(records.size() == 2);
    for (const std::string& rec : records) CHECK(test::is_valid_json(rec));
    const std::string bad = record_of(records, m.misfits), good = record_of(records, m.fits);
    CHECK(has(bad, "\"ok\":false"));
    CHECK(has(bad, m.reason));
    CHECK(has(good, "\"ok\":true"));
    if (!m.written.empty()) CHECK(std::filesystem::exists(dir.file("out/" + m.written)));
    CHECK(has(r.err, m.reason));
}

}  // namespace

TEST_CASE("per-file misfits: each operation's condition on the image fails that file alone") {
    TempDir dir;
    test::save_image_file(dir.file("gray.png"), test::photo_like_image(64, 48, 1));
    test::save_image_file(dir.file("small.png"), test::photo_like_image(3, 2, 1));
    test::save_image_file(dir.file("rgb.png"), test::photo_like_image(40, 30, 3));
    test::save_image_file(dir.file("rgba.png"), test::alpha_image(40, 30, 4));
    test::save_image_file(dir.file("big.png"), test::constant_image(200, 150, 1, 9));

    const std::vector<Misfit> cases = {
        {{"threshold", "--adaptive", "mean", "--window", "31"}, "gray.png", "small.png", "is larger than the 3x2 image",
         "gray.png"},
        {{"crop", "--width", "10", "--height", "10", "--x", "5", "--y", "5"}, "gray.png", "small.png",
         "lies outside the 3x2 image", "gray.png"},
        {{"extract-channel", "--channel", "2"}, "rgb.png", "gray.png", "has no channel 2", "rgb.png"},
        {{"extract-channel", "--channel", "alpha"}, "rgba.png", "rgb.png", "has no channel alpha", "rgba.png"},
        {{"pad", "--size", "20x20"}, "small.png", "gray.png", "is smaller than the 64x48 image", "small.png"},
        {{"resize", "--scale", "100", "--filter", "nearest"}, "small.png", "big.png",
         "resized to 20000x15000 it would have more than 268435456 pixels", "small.png"},
        {{"chain", "blur --sigma 1 | crop 10x10+5+5"}, "gray.png", "small.png",
         "stage 2 (crop): the box 10x10+5+5", "gray.png"},
    };
    for (const Misfit& m : cases) check_misfit(dir, m);
    for (const Misfit& m : cases) check_misfit(dir, m, true, true);  // --device auto weighs the first file

    // A result beyond --max-memory for every file: each fails alone. --device
    // auto timed the first file's pad on a made-up image, which ran the whole
    // run out of memory (no records, one "out of memory").
    const auto r = run_imgpar({"pad", "--size", "999999x999999", "--json", "--out-dir", "out", "small.png", "gray.png"},
                              dir.path());
    CHECK(r.exit_code == 1);
    const auto records = lines(r.out);
    REQUIRE(records.size() == 2);
    for (const std::string& rec : records) CHECK(has(rec, "more than the limit"));
}

TEST_CASE("per-file misfits: reports and comparisons fail the file or pair alone") {
    TempDir dir;
    test::save_image_file(dir.file("gray.png"), test::photo_like_image(64, 48, 1));
    test::save_image_file(dir.file("small.png"), test::photo_like_image(3, 2, 1));
    test::save_image_file(dir.file("rgba.png"), test::alpha_image(40, 30, 4));
    check_misfit(dir, {{"stats", "--channel", "alpha"}, "rgba.png", "gray.png", "'alpha' is not a channel", ""},
                 false);
    check_misfit(dir, {{"histo", "--channel", "alpha"}, "rgba.png", "gray.png", "'alpha' is not a channel", ""},
                 false);
    check_misfit(dir, {{"stats", "--mask", "small.png"}, "small.png", "gray.png", "a mask must have", ""}, false);

    // compare pairs folders: one pair of different sizes, one too small for
    // an SSIM map, one that fits.
    std::filesystem::create_directories(dir.file("a"));
    std::filesystem::create_directories(dir.file("b"));
    for (const char* side : {"a", "b"}) {
        test::save_image_file(dir.file(std::string(side) + "/fit.png"), test::photo_like_image(64, 48, 1));
        test::save_image_file(dir.file(std::string(side) + "/tiny.png"), test::photo_like_image(3, 2, 1));
    }
    test::save_image_file(dir.file("a/sizes.png"), test::photo_like_image(64, 48, 1));
    test::save_image_file(dir.file("b/sizes.png"), test::photo_like_image(3, 2, 1));
    const auto r = run_imgpar({"compare", "--json", "--ssim-map", "maps/{stem}.png", "a", "b"}, dir.path());
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    const auto records = lines(r.out);
    REQUIRE(records.size() == 3);
    CHECK(has(record_of(records, "a/fit.png"), "\"ok\":true"));
    CHECK(has(record_of(records, "a/sizes.png"), "cannot compare images of different sizes"));
    CHECK(has(record_of(records, "a/tiny.png"), "smaller than the 11x11 window"));
    CHECK(std::filesystem::exists(dir.file("maps/fit.png")));
}
