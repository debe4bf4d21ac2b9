// End-to-end: the geometry and colour commands as a user runs them: alone on
// the sample photos (checked against index arithmetic written out here),
// their geometry arguments, usage errors (exit 2, nothing written), a batch
// where one file misfits and fails alone (exit 1), and a chain that equals
// its stages run one by one.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

ImageU8 load(const std::string& path) { return load_image(path).image; }

void save(const std::string& path, const ImageU8& img) {
    std::vector<std::string> warnings;
    save_image(path, img.view(), SaveOptions{}, warnings);
}

std::string run_ok(const std::vector<std::string>& args, const std::string& cwd) {
    const test::RunResult r = run_imgpar(args, cwd);
    CHECK_MESSAGE(r.exit_code == 0, args[0], ": ", r.err);
    return r.err;
}

}  // namespace

TEST_CASE("cli geometry: each command writes what index arithmetic says") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea_alpha.png");  // 451x300 RGBA
    const ImageU8 a = load(in);
    REQUIRE(a.width() == 451);

    run_ok({"crop", in, "crop.png", "100x50+13+7"}, dir.path());
    const ImageU8 c = load(dir.file("crop.png"));
    REQUIRE(c.width() == 100);
    REQUIRE(c.height() == 50);
    for (int y = 0; y < 50; ++y)
        for (int x = 0; x < 100; ++x)
            for (int k = 0; k < 4; ++k) REQUIRE(c.at(x, y, k) == a.at(x + 13, y + 7, k));

    // Gravity: a 101x51 box in the centre, moved 3 right and 2 down: x = 3 + 451/2 - 101/2 = 178.
    run_ok({"crop", in, "centre.png", "--width", "101", "--height", "51", "--x", "3", "--y", "2", "--gravity", "center"},
           dir.path());
    const ImageU8 ce = load(dir.file("centre.png"));
    REQUIRE(ce.width() == 101);
    CHECK(ce.at(0, 0, 0) == a.at(178, 2 + 150 - 25, 0));
    CHECK(ce.at(100, 50, 2) == a.at(278, 177, 2));

    run_ok({"flop", in, "flop.png"}, dir.path());
    run_ok({"flip", in, "flip.png"}, dir.path());
    run_ok({"transpose", in, "t.png"}, dir.path());
    run_ok({"rotate", in, "r90.png", "90"}, dir.path());
    run_ok({"rotate", in, "r270.png", "--angle", "-90"}, dir.path());
    const ImageU8 fl = load(dir.file("flop.png")), fp = load(dir.file("flip.png")), t = load(dir.file("t.png"));
    const ImageU8 r90 = load(dir.file("r90.png")), r270 = load(dir.file("r270.png"));
    REQUIRE(t.width() == 300);
    REQUIRE(r90.width() == 300);
    REQUIRE(r270.height() == 451);
    for (int y = 0; y < 300; y += 7)
        for (int x = 0; x < 451; x += 5)
            for (int k = 0; k < 4; ++k) {
                REQUIRE(fl.at(450 - x, y, k) == a.at(x, y, k));
                REQUIRE(fp.at(x, 299 - y, k) == a.at(x, y, k));
                REQUIRE(t.at(y, x, k) == a.at(x, y, k));
                REQUIRE(r90.at(299 - y, x, k) == a.at(x, y, k));   // clockwise: the left column becomes the top row
                REQUIRE(r270.at(y, 450 - x, k) == a.at(x, y, k));
            }

    run_ok({"rotate", in, "r30.png", "30", "--interpolation", "bicubic"}, dir.path());
    const ImageU8 r30 = load(dir.file("r30.png"));
    CHECK(r30.width() == 541);
    CHECK(r30.height() == 486);
    CHECK(r30.at(0, 0, 3) == 0);  // a transparent corner

    run_ok({"pad", in, "pad.png", "--top", "5", "--left", "600", "--border", "wrap"}, dir.path());
    const ImageU8 p = load(dir.file("pad.png"));
    REQUIRE(p.width() == 1051);
    REQUIRE(p.height() == 305);
    CHECK(p.at(600 + 10, 5 + 20, 1) == a.at(10, 20, 1));
    CHECK(p.at(0, 0, 0) == a.at((0 - 600 + 2 * 451) % 451, 300 - 5, 0));  // wrapped twice across, once down
    run_ok({"pad", in, "extent.png", "--size", "500x400", "--gravity", "southeast", "--background", "#ff000080"},
           dir.path());
    const ImageU8 e = load(dir.file("extent.png"));
    REQUIRE(e.width() == 500);
    CHECK(e.at(0, 0, 0) == 255);
    CHECK(e.at(0, 0, 3) == 128);
    CHECK(e.at(499, 399, 1) == a.at(450, 299, 1));

    run_ok({"grayscale", in, "gray.png"}, dir.path());
    run_ok({"extract-channel", in, "alpha.png", "alpha"}, dir.path());
    run_ok({"flatten", in, "flat.png", "--background", "white"}, dir.path());
    run_ok({"add-alpha", test::sample_path("camera.png"), "ga.png", "--value", "7"}, dir.path());
    const ImageU8 g = load(dir.file("gray.png")), al = load(dir.file("alpha.png")), f = load(dir.file("flat.png"));
    const ImageU8 ga = load(dir.file("ga.png"));
    REQUIRE(g.channels() == 2);
    REQUIRE(al.channels() == 1);
    REQUIRE(f.channels() == 3);
    REQUIRE(ga.channels() == 2);
    for (int y = 0; y < 300; y += 3)
        for (int x = 0; x < 451; x += 3) {
            const int r = a.at(x, y, 0), gr = a.at(x, y, 1), b = a.at(x, y, 2), alpha = a.at(x, y, 3);
            REQUIRE(g.at(x, y, 0) == (77 * r + 150 * gr + 29 * b + 128) / 256);
            REQUIRE(g.at(x, y, 1) == alpha);
            REQUIRE(al.at(x, y, 0) == alpha);
            REQUIRE(f.at(x, y, 0) == (r * alpha + 255 * (255 - alpha) + 127) / 255);
        }
    CHECK(ga.at(10, 10, 1) == 7);
}

TEST_CASE("cli geometry: the geometry argument equals the options; --json records the box cut") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");  // 512x512 gray
    run_ok({"crop", in, "a.png", "64x32-10+500"}, dir.path());
    run_ok({"crop", in, "b.png", "--width", "64", "--height", "32", "--x", "-10", "--y", "500"}, dir.path());
    IMGPAR_CHECK_IMAGES_EQUAL(load(dir.file("a.png")), load(dir.file("b.png")));
    CHECK(load(dir.file("a.png")).width() == 54);   // clipped on the left
    CHECK(load(dir.file("a.png")).height() == 12);  // and at the bottom
    run_ok({"crop", in, "c.png", "64x32"}, dir.path());
    CHECK(load(dir.file("c.png")).width() == 64);

    const test::RunResult r = run_imgpar({"crop", in, "d.png", "64x32-10+500", "--json"}, dir.path());
    REQUIRE(r.exit_code == 0);
    std::string why;
    CHECK_MESSAGE(test::is_valid_json(r.out.substr(0, r.out.find('\n')), &why), why);
    CHECK(has(r.out, "\"box\":{\"x\":0,\"y\":500,\"width\":54,\"height\":12}"));
    const test::RunResult v = run_imgpar({"rotate", in, "e.png", "--angle", "12.5", "-v"}, dir.path());
    REQUIRE(v.exit_code == 0);
    CHECK(has(v.err, "rotate 12.5 degrees, bilinear"));
}

TEST_CASE("cli geometry: option mistakes are usage errors (exit 2) naming the option, and nothing is written") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea_alpha.png");
    struct Bad {
        std::vector<std::string> args;
        const char* names;
    } bad[] = {
        {{"crop", in, "o.png", "100x"}, "100x"},
        {{"crop", in, "o.png"}, "--width"},
        {{"crop", in, "o.png", "10x10", "--width", "5"}, "not both"},
        {{"crop", in, "o.png", "10x10", "--gravity", "middle"}, "--gravity"},
        {{"crop", in, "o.png", "--width", "-1"}, "--width"},
        {{"rotate", in, "o.png"}, "--angle"},
        {{"rotate", in, "o.png", "--angle", "30", "--background", "purple"}, "--background"},
        {{"rotate", in, "o.png", "--angle", "30", "--interpolation", "lanczos"}, "--interpolation"},
        {{"pad", in, "o.png"}, "--top"},
        {{"pad", in, "o.png", "--top", "1", "--size", "9x9"}, "--size"},
        {{"pad", in, "o.png", "--size", "9"}, "--size"},
        {{"pad", in, "o.png", "--left", "3", "--border", "mirror"}, "--border"},
        {{"extract-channel", in, "o.png", "5"}, "--channel"},
        {{"extract-channel", in, "o.png"}, "--channel"},
        {{"flatten", in, "o.png", "--background", "#ffffff80"}, "opaque"},
        {{"add-alpha", in, "o.png", "--value", "256"}, "--value"},
        {{"chain", "crop 10x10 | flop --x 3", in, "o.png"}, "--x"},
    };
    for (const Bad& b : bad) {
        CAPTURE(b.args[0]);
        CAPTURE(b.names);
        const test::RunResult r = run_imgpar(b.args, dir.path());
        CHECK(r.exit_code == 2);
        CHECK_MESSAGE(has(r.err, b.names), r.err);
        CHECK_FALSE(fs::exists(dir.file("o.png")));
    }
    CHECK(dir.entries().empty());
}

TEST_CASE("cli geometry: in a batch, a file the options do not fit fails alone (exit 1); the others are written") {
    TempDir dir;
    fs::create_directories(dir.file("in"));
    save(dir.file("in/big.png"), test::photo_like_image(300, 200, 3, 1));
    save(dir.file("in/small.png"), test::photo_like_image(40, 30, 3, 2));
    save(dir.file("in/gray.png"), test::photo_like_image(260, 220, 1, 3));
    const std::vector<std::string> files = {"in/big.png", "in/small.png", "in/gray.png"};

    std::vector<std::string> args = {"crop", "--width", "100", "--height", "100", "--x", "150", "--y", "100", "--out-dir", "out", "--json"};
    args.insert(args.end(), files.begin(), files.end());
    test::RunResult r = run_imgpar(args, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "small.png"));
    CHECK(has(r.err, "outside the 40x30 image"));
    CHECK(fs::exists(dir.file("out/big.png")));
    CHECK(fs::exists(dir.file("out/gray.png")));
    CHECK_FALSE(fs::exists(dir.file("out/small.png")));
    CHECK(load(dir.file("out/big.png")).width() == 100);
    CHECK(has(r.out, "\"ok\":false"));

    // A channel one file lacks, and a size one file exceeds.
    args = {"extract-channel", "--channel", "green", "--out-dir", "green"};
    args.insert(args.end(), files.begin(), files.end());
    r = run_imgpar(args, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "gray.png"));
    CHECK(fs::exists(dir.file("green/big.png")));
    CHECK(fs::exists(dir.file("green/small.png")));
    CHECK_FALSE(fs::exists(dir.file("green/gray.png")));

    args = {"pad", "--size", "280x210", "--gravity", "center", "--out-dir", "padded"};
    args.insert(args.end(), files.begin(), files.end());
    r = run_imgpar(args, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "big.png"));
    CHECK(has(r.err, "gray.png"));
    CHECK(fs::exists(dir.file("padded/small.png")));
    CHECK(load(dir.file("padded/small.png")).width() == 280);
}

TEST_CASE("cli geometry: the chain crop | flop | grayscale equals its stages through files, in one decode") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea_alpha.png");
    run_ok({"chain", "crop 300x200+50+40 | flop | grayscale", in, "chain.png"}, dir.path());
    run_ok({"crop", in, "s1.png", "300x200+50+40"}, dir.path());
    run_ok({"flop", "s1.png", "s2.png"}, dir.path());
    run_ok({"grayscale", "s2.png", "s3.png"}, dir.path());
    const ImageU8 c = load(dir.file("chain.png"));
    CHECK(c.width() == 300);
    CHECK(c.height() == 200);
    CHECK(c.channels() == 2);
    IMGPAR_CHECK_IMAGES_EQUAL(load(dir.file("s3.png")), c);

    // Longer, with every size change: pad, rotate, transpose, add-alpha, flatten.
    const std::string chain =
        "pad --top 3 --left 9 --border reflect101 | rotate 17 --interpolation bicubic | transpose | "
        "extract-channel 1 | add-alpha --value 200 | flatten --background gray | crop 50x40 --gravity center";
    const test::RunResult r = run_imgpar({"chain", chain, in, "long.png", "--json"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.out, "\"stages\""));
    const ImageU8 l = load(dir.file("long.png"));
    CHECK(l.width() == 50);
    CHECK(l.height() == 40);
    CHECK(l.channels() == 1);
    // A stage that does not fit fails the file, naming the stage.
    const test::RunResult bad = run_imgpar({"chain", "crop 10x10 | crop 5x5+20+20", in, "bad.png"}, dir.path());
    CHECK(bad.exit_code == 1);
    CHECK(has(bad.err, "outside the 10x10 image"));
    CHECK_FALSE(fs::exists(dir.file("bad.png")));
}
