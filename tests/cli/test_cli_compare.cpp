// End-to-end: imgpar compare as a user runs it: text, CSV and JSON; --diff
// and --ssim-map; --fail-above / --fail-below exit codes; folders and file
// lists compared by name; images of different shapes, too small for SSIM,
// missing or unreadable; outputs that would replace an input; and, where
// python3 has scikit-image, the numbers against structural_similarity,
// peak_signal_noise_ratio and mean_squared_error (tests/cli/compare_skimage.py);
// --ssim-downsample, and against Wang et al.'s ssim.m in numpy
// (tests/cli/compare_wang.py).
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "src/ops/ssim.hpp"
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

// chelsea.png and a copy with a patch changed: 300 samples of the red
// channel raised by 40 (max 255), the rest equal.
struct Pair {
    TempDir dir;
    std::string a, b;
    Pair() : a(dir.file("a.png")), b(dir.file("b.png")) {
        ImageU8 x = test::load_sample("chelsea.png");
        test::save_image_file(a, x);
        for (int y = 100; y < 110; ++y)
            for (int i = 0; i < 30; ++i) {
                std::uint8_t& v = x.at(200 + i, y, 0);
                v = static_cast<std::uint8_t>(std::min(255, v + 40));
            }
        test::save_image_file(b, x);
    }
};

}  // namespace

TEST_CASE("cli compare: text report per channel and overall; identical images say so") {
    Pair p;
    auto r = run_imgpar({"compare", p.a, p.b});
    REQUIRE(r.exit_code == 0);
    const auto rows = lines(r.out);
    REQUIRE(rows.size() == 6);  // the pair, the heading, red, green, blue, all
    CHECK(has(rows[0], "a.png vs "));
    CHECK(has(rows[0], "451x300 RGB"));
    CHECK(has(rows[0], "samples differ"));
    for (const char* column : {"max_abs", "differ", "share", "MAE", "MSE", "RMSE", "PSNR dB", "SSIM"})
        CHECK(has(rows[1], column));
    CHECK(rows[2].rfind("  red", 0) == 0);
    CHECK(has(rows[3], "  green          0             0"));
    CHECK(rows[5].rfind("  all", 0) == 0);
    CHECK(r.err.empty());

    r = run_imgpar({"compare", p.a, p.a});
    REQUIRE(r.exit_code == 0);
    CHECK(has(lines(r.out)[0], "identical"));
    CHECK(has(r.out, "inf"));
    CHECK(has(r.out, "1.000000"));
    r = run_imgpar({"compare", test::sample_path("camera.png"), test::sample_path("camera.png")});
    CHECK(lines(r.out).size() == 3);  // gray: no "all" row
}

TEST_CASE("cli compare: CSV rows and JSON records; PSNR of identical images is inf in CSV, null in JSON") {
    Pair p;
    auto r = run_imgpar({"compare", "--csv", p.a, p.b});
    REQUIRE(r.exit_code == 0);
    auto rows = lines(r.out);
    REQUIRE(rows.size() == 5);
    CHECK(rows[0] == "a,b,channel,max_abs,differ,differ_share,mae,mse,rmse,psnr,ssim");
    CHECK(has(rows[1], ",red,40,300,"));
    CHECK(has(rows[2], ",green,0,0,0,0,0,0,inf,1"));
    CHECK(has(rows[4], ",all,40,300,"));

    r = run_imgpar({"compare", "--json", p.a, p.b});
    REQUIRE(r.exit_code == 0);
    std::string why;
    REQUIRE_MESSAGE(test::is_valid_json(r.out, &why), why);
    auto m = test::json_members(r.out);
    CHECK(m["schema"] == "\"imgpar.compare/2\"");
    CHECK(m["ok"] == "true");
    CHECK(m["identical"] == "false");
    CHECK(m["pixels_differ"] == "300");
    CHECK(m["backend"] == "\"cpu\"");
    auto all = test::json_members(m["all"]);
    CHECK(all["max_abs"] == "40");
    CHECK(all["differ"] == "300");
    CHECK(all["samples"] == "405900");
    CHECK(all["mse"] == "1.1825572801182558");  // 300 x 40^2 / 405900, as numpy computes it
    CHECK(has(m["per_channel"], "\"name\":\"blue\""));
    CHECK(has(m["ssim"], "\"window\":11"));

    r = run_imgpar({"compare", "--json", p.a, p.a});
    m = test::json_members(r.out);
    CHECK(m["identical"] == "true");
    all = test::json_members(m["all"]);
    // +inf as the largest double: valid JSON, above any bound a reader compares with.
    CHECK(all["psnr"] == "1.7976931348623157e+308");
    CHECK(std::stod(all["psnr"]) >= 40);
    CHECK(all["ssim"] == "1");
    CHECK_FALSE(has(r.out, "inf"));
    CHECK_FALSE(has(r.out, "nan"));

    r = run_imgpar({"compare", "--json", "--csv", p.a, p.b});
    CHECK(r.exit_code == 2);
}

TEST_CASE("cli compare: --diff writes |A - B|, --ssim-map round(255 SSIM); both atomically, never over an input") {
    Pair p;
    auto r = run_imgpar({"compare", p.a, p.b, "--diff", p.dir.file("d.png"), "--ssim-map", p.dir.file("m.png")});
    REQUIRE(r.exit_code == 0);
    const ImageU8 a = load_image(p.a).image, b = load_image(p.b).image;
    const ImageU8 d = load_image(p.dir.file("d.png")).image;
    REQUIRE(d.channels() == 3);
    bool exact = true;
    for (std::size_t i = 0; i < d.sample_count(); ++i) exact = exact && d.data()[i] == std::abs(a.data()[i] - b.data()[i]);
    CHECK(exact);
    const ImageU8 map = load_image(p.dir.file("m.png")).image;
    CHECK(map.width() == 451);
    CHECK(map.at(0, 0, 1) == 255);    // green is equal everywhere: SSIM 1
    CHECK(map.at(215, 105, 0) < 255);  // inside the changed patch
    auto json = test::json_members(run_imgpar({"compare", p.a, p.b, "--json", "--diff", p.dir.file("d2.png")}).out);
    CHECK(has(json["diff"], "d2.png"));
    CHECK(json["ssim_map"] == "null");

    // Onto an input, by name or through another name: refused before anything is written.
    const std::string before = test::read_bytes(p.a);
    for (const std::string& out : {p.a, p.dir.path() + "/./a.png", p.b}) {
        r = run_imgpar({"compare", p.a, p.b, "--diff", out});
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "never replaces its inputs"));
    }
    r = run_imgpar({"compare", p.a, p.b, "--ssim-map", p.a});
    CHECK(r.exit_code == 2);
    CHECK(test::read_bytes(p.a) == before);
    r = run_imgpar({"compare", p.a, p.b, "--diff", "-"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "standard output"));
    r = run_imgpar({"compare", p.a, p.b, "--diff", p.dir.file("d.xcf")});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "extension"));
    r = run_imgpar({"compare", p.a, p.b, "--diff", p.dir.file("same.png"), "--ssim-map", p.dir.file("same.png")});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "written twice"));
    r = run_imgpar({"compare", p.a, p.b, "--ssim-map", p.dir.file("m.png"), "--no-ssim"});
    CHECK(r.exit_code == 2);
    // A folder that does not exist: the write fails (exit 1), nothing is left behind.
    r = run_imgpar({"compare", p.a, p.b, "--diff", p.dir.file("no/such/d.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "d.png"));
    for (const std::string& e : p.dir.entries()) CHECK(e.find(".imgpar-") == std::string::npos);
}

TEST_CASE("cli compare: --fail-above / --fail-below exit 4 with a one-line reason; passing checks exit 0") {
    Pair p;
    auto r = run_imgpar({"compare", p.a, p.b, "--fail-above", "max_abs=39"});
    CHECK(r.exit_code == 4);
    REQUIRE(lines(r.err).size() == 1);
    CHECK(has(r.err, "max_abs 40 is above 39 (--fail-above max_abs=39)"));
    CHECK(lines(r.out).size() == 6);  // the report is still printed
    r = run_imgpar({"compare", p.a, p.b, "--fail-above", "max_abs=40", "--fail-below", "ssim=0.9", "--fail-below",
                    "psnr=40", "--fail-above", "pixels_differ=300"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    // Repeated: every violation on the one line.
    r = run_imgpar({"compare", p.a, p.b, "--fail-below", "psnr=60", "--fail-below", "ssim=0.99999", "--fail-above",
                    "differ_share=0"});
    CHECK(r.exit_code == 4);
    REQUIRE(lines(r.err).size() == 1);
    CHECK(has(r.err, "psnr "));
    CHECK(has(r.err, "is below 60"));
    CHECK(has(r.err, "--fail-below ssim=0.99999"));
    CHECK(has(r.err, "--fail-above differ_share=0"));
    // Identical images: PSNR is infinite, above any bound.
    CHECK(run_imgpar({"compare", p.a, p.a, "--fail-below", "psnr=100"}).exit_code == 0);
    CHECK(run_imgpar({"compare", p.a, p.a, "--fail-above", "psnr=100"}).exit_code == 4);
    auto json = test::json_members(run_imgpar({"compare", p.a, p.b, "--json", "--fail-above", "mse=1"}).out);
    CHECK(has(json["limits"], "\"passed\":false"));
    CHECK(has(json["limits"], "mse 1.18"));
    // Mistakes are usage errors.
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--fail-above", "psnr"}, {"--fail-above", "snr=3"}, {"--fail-below", "ssim=high"},
          {"--fail-below", "ssim=0.9", "--no-ssim"}, {"--fail-above", "mse=1e999"}}) {
        std::vector<std::string> args{"compare", p.a, p.b};
        args.insert(args.end(), bad.begin(), bad.end());
        CAPTURE(bad[1]);
        r = run_imgpar(args);
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, bad[0]));
    }
    CHECK(has(run_imgpar({"compare", p.a, p.b, "--fail-above", "snr=3"}).err, "allowed: max_abs, differ"));
}

TEST_CASE("cli compare: a failed check (exit 4) is told apart from an input that cannot be read (exit 1)") {
    Pair p;
    // The regression: both images read, PSNR under the bound.
    auto r = run_imgpar({"compare", p.a, p.b, "--fail-below", "psnr=60"});
    CHECK(r.exit_code == 4);
    // The broken pipeline: B missing, or not an image.
    r = run_imgpar({"compare", p.a, p.dir.file("missing.png"), "--fail-below", "psnr=60"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "missing.png"));
    test::write_bytes(p.dir.file("corrupt.png"), "not a PNG at all");
    r = run_imgpar({"compare", p.a, p.dir.file("corrupt.png"), "--fail-below", "psnr=40"});
    CHECK(r.exit_code == 1);
    // Both in one run (folders: one pair fails its check, one cannot be read): the unreadable input wins.
    TempDir a, b;
    test::save_image_file(a.file("x.png"), test::photo_like_image(40, 30, 3, 1));
    test::save_image_file(b.file("x.png"), test::photo_like_image(40, 30, 3, 2));
    test::save_image_file(a.file("y.png"), test::photo_like_image(40, 30, 3, 1));
    test::write_bytes(b.file("y.png"), "broken");
    r = run_imgpar({"compare", a.path(), b.path(), "--fail-below", "psnr=60"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "y.png"));
    CHECK(has(r.err, "is below 60"));
    // The manual says so, and the tool's own help.
    CHECK(has(run_imgpar({"compare", "--help"}).out, "exit 4"));
    CHECK(has(run_imgpar({"--help"}).out, "4 a compare check (--fail-above/--fail-below) failed"));
}

TEST_CASE("cli compare: folders are compared by file name; a file on one side only fails that pair") {
    TempDir dir;
    const std::string exp = dir.file("expected"), act = dir.file("actual");
    REQUIRE(std::system(("mkdir -p '" + exp + "/sub' '" + act + "'").c_str()) == 0);
    const ImageU8 gray = test::photo_like_image(40, 30, 1, 1), rgb = test::photo_like_image(40, 30, 3, 2);
    test::save_image_file(exp + "/1.png", gray);
    test::save_image_file(act + "/1.png", gray);
    test::save_image_file(exp + "/2.png", rgb);
    test::save_image_file(act + "/2.png", test::photo_like_image(40, 30, 3, 3));
    test::save_image_file(exp + "/3.png", rgb);            // no 3.png in actual/
    test::save_image_file(act + "/4.png", rgb);            // no 4.png in expected/
    test::save_image_file(exp + "/.hidden.png", rgb);      // not compared
    test::save_image_file(exp + "/sub/5.png", rgb);        // subfolders are not compared
    test::write_bytes(act + "/5.png", "not an image at all");  // only in actual/: fails as missing
    auto r = run_imgpar({"compare", "--json", exp, act});
    CHECK(r.exit_code == 1);
    auto rows = lines(r.out);
    REQUIRE(rows.size() == 5);
    CHECK(has(rows[0], "expected/1.png\",\"b\":\"" + act + "/1.png"));
    CHECK(has(rows[0], "\"identical\":true"));
    CHECK(has(rows[1], "\"identical\":false"));
    CHECK(has(rows[2], "\"ok\":false"));
    CHECK(has(rows[2], "actual/3.png: no such file (3.png is in " + exp + " only)"));
    CHECK(has(rows[3], "expected/4.png: no such file"));
    CHECK(has(rows[4], "\"ok\":false"));
    CHECK(has(r.err, "compare: 2 compared, 3 failed; 5 files"));
    // FILE... DIR: each file with DIR's file of its name; --files-from adds files.
    r = run_imgpar({"compare", exp + "/1.png", exp + "/2.png", act});
    CHECK(r.exit_code == 0);
    CHECK(lines(r.out).size() == 3 + 1 + 6 + 1);  // gray block, RGB block, a blank line after each
    test::write_bytes(dir.file("list.txt"), exp + "/2.png\n");
    r = run_imgpar({"compare", "--csv", "--files-from", dir.file("list.txt"), exp + "/1.png", act});
    CHECK(r.exit_code == 0);
    CHECK(lines(r.out).size() == 1 + 2 + 4);  // the header, gray and all, red to blue and all
    r = run_imgpar({"compare", act, exp + "/1.png"});  // DIR FILE
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "identical"));
    // --shard takes every N-th pair.
    r = run_imgpar({"compare", "--csv", "--shard", "1/2", exp, act});
    CHECK(r.exit_code == 1);
    CHECK(lines(r.out).size() == 1 + 2);  // pairs 1 (gray), 3 and 5 (missing: no rows)
    // Outputs for many pairs are named by template; one name for all is refused.
    r = run_imgpar({"compare", exp + "/1.png", exp + "/2.png", act, "--diff", dir.file("diffs/{stem}-diff.png")});
    CHECK(r.exit_code == 0);
    CHECK(test::file_exists(dir.file("diffs/1-diff.png")));
    CHECK(test::file_exists(dir.file("diffs/2-diff.png")));
    r = run_imgpar({"compare", exp + "/1.png", exp + "/2.png", act, "--diff", dir.file("one.png")});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "written twice"));
    // Arguments that name no pairs.
    CHECK(run_imgpar({"compare", exp + "/1.png"}).exit_code == 2);
    CHECK(run_imgpar({"compare", exp + "/1.png", exp + "/2.png", exp + "/3.png"}).exit_code == 2);
    CHECK(run_imgpar({"compare", "--files-from", dir.file("list.txt"), exp + "/1.png"}).exit_code == 2);
    REQUIRE(std::system(("mkdir -p '" + dir.file("empty1") + "' '" + dir.file("empty2") + "'").c_str()) == 0);
    r = run_imgpar({"compare", dir.file("empty1"), dir.file("empty2")});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "nothing to compare"));
}

TEST_CASE("cli compare: different sizes or layouts, missing and corrupt files: an error naming both, exit 1") {
    TempDir dir;
    test::save_image_file(dir.file("a.png"), test::photo_like_image(40, 30, 3, 1));
    test::save_image_file(dir.file("wide.png"), test::photo_like_image(41, 30, 3, 1));
    test::save_image_file(dir.file("rgba.png"), test::photo_like_image(40, 30, 4, 1));
    test::write_bytes(dir.file("bad.png"), "\x89PNG\r\n\x1a\n broken");
    auto r = run_imgpar({"compare", dir.file("a.png"), dir.file("wide.png")});
    CHECK(r.exit_code == 1);
    CHECK(r.out.empty());
    CHECK(has(r.err, "a.png is 40x30 RGB"));
    CHECK(has(r.err, "wide.png is 41x30 RGB"));
    CHECK(has(r.err, "different sizes"));
    r = run_imgpar({"compare", dir.file("a.png"), dir.file("rgba.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "different channel layouts"));
    CHECK(has(r.err, "rgba.png is 40x30 RGBA"));
    r = run_imgpar({"compare", "--json", dir.file("a.png"), dir.file("rgba.png")});
    CHECK(has(r.out, "\"ok\":false"));
    CHECK(test::is_valid_json(r.out));
    r = run_imgpar({"compare", dir.file("a.png"), dir.file("missing.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "missing.png"));
    r = run_imgpar({"compare", dir.file("bad.png"), dir.file("a.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "bad.png"));
}

TEST_CASE("cli compare: images under 11x11 have no SSIM, said plainly; a check on it fails; 1x1 works") {
    TempDir dir;
    test::save_image_file(dir.file("a.png"), test::photo_like_image(7, 7, 3, 1));
    test::save_image_file(dir.file("b.png"), test::photo_like_image(7, 7, 3, 2));
    auto r = run_imgpar({"compare", dir.file("a.png"), dir.file("b.png")});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "SSIM: none, the image is smaller than the 11x11 window"));
    auto m = test::json_members(run_imgpar({"compare", "--json", dir.file("a.png"), dir.file("b.png")}).out);
    CHECK(test::json_members(m["all"])["ssim"] == "null");
    CHECK(has(m["ssim"], "smaller than the 11x11 window"));
    r = run_imgpar({"compare", dir.file("a.png"), dir.file("b.png"), "--fail-below", "ssim=0.5"});
    CHECK(r.exit_code == 4);
    CHECK(has(r.err, "ssim has no value (the image is smaller than the 11x11 window)"));
    r = run_imgpar({"compare", dir.file("a.png"), dir.file("b.png"), "--ssim-map", dir.file("m.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "--ssim-map"));
    CHECK_FALSE(test::file_exists(dir.file("m.png")));
    test::save_image_file(dir.file("one.png"), test::constant_image(1, 1, 1, 7));
    test::save_image_file(dir.file("other.png"), test::constant_image(1, 1, 1, 9));
    r = run_imgpar({"compare", "--csv", dir.file("one.png"), dir.file("other.png")});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, ",gray,2,1,1,2,4,2,"));
    // --no-ssim: no SSIM column values and no reason line.
    r = run_imgpar({"compare", "--no-ssim", test::sample_path("camera.png"), test::sample_path("camera.png")});
    CHECK(r.exit_code == 0);
    CHECK_FALSE(has(r.out, "SSIM: none"));
    CHECK(has(lines(r.out)[2], "inf         -"));
}

namespace {
// Runs a peer-check script of tests/cli on imgpar (skipped, saying which
// package is missing, where python3 lacks `imports`); it must pass its 14 pairs.
void run_peer_script(const std::string& script, const std::string& imports, const std::string& package) {
    const std::string python = test::python_with(imports);
    if (python.empty()) {
        MESSAGE("python3 cannot ", imports, ": this check needs ", package);
        return;
    }
    TempDir dir;
    const std::string path = std::string(IMGPAR_SAMPLES_DIR) + "/../tests/cli/" + script;
    const std::string cmd = python + " '" + path + "' '" + IMGPAR_BINARY + "' '" + dir.path() + "' > '" +
                            dir.file("said.txt") + "' 2>&1";
    const int status = std::system(cmd.c_str());
    const std::string said = test::read_bytes(dir.file("said.txt"));
    CHECK_MESSAGE(status == 0, said);
    MESSAGE(lines(said).back());
    CHECK(has(said, "14 pairs, 0 failed"));
}
}  // namespace

TEST_CASE("cli compare: SSIM, PSNR and MSE agree with scikit-image on photos, blurred and JPEG versions") {
    run_peer_script("compare_skimage.py", "import numpy, skimage", "python3-skimage");
}

TEST_CASE("cli compare: --ssim-downsample auto|N shrinks before SSIM as ssim.m does; JSON and text say the factor") {
    TempDir dir;
    const ImageU8 camera = test::load_sample("camera.png");  // 512x512: auto is 2
    ImageU8 changed = camera;
    for (std::size_t i = 0; i < changed.sample_count(); i += 3)
        changed.data()[i] = static_cast<std::uint8_t>(changed.data()[i] / 2 + 64);
    const std::string a = dir.file("a.png"), b = dir.file("b.png");
    test::save_image_file(a, camera);
    test::save_image_file(b, changed);
    // The numbers are the library's cpu::ssim at that factor, read back exactly.
    for (const char* factor : {"auto", "2", "5"}) {
        CAPTURE(factor);
        const int f = factor[0] == 'a' ? 2 : std::stoi(factor);
        const auto r = run_imgpar({"compare", "--json", a, b, "--ssim-downsample", factor});
        REQUIRE(r.exit_code == 0);
        auto m = test::json_members(r.out);
        auto ssim = test::json_members(m["ssim"]);
        CHECK(ssim["downsample"] == std::to_string(f));
        const int side = (512 + f - 1) / f - 10;
        CHECK(ssim["pixels"] == std::to_string(side * side));
        const SsimResult want = cpu::ssim(camera.view(), changed.view(), nullptr, f);
        CHECK(std::stod(test::json_members(m["all"])["ssim"]) == want.mean);
        CHECK(has(lines(run_imgpar({"compare", a, b, "--ssim-downsample", factor}).out).back(),
                  "  SSIM of the images shrunk " + std::to_string(f) + "x (--ssim-downsample)"));
    }
    // Not shrunk: "downsample":1 and no line; 1 is the default's report, byte for byte.
    const auto plain = run_imgpar({"compare", a, b});
    const auto one = run_imgpar({"compare", a, b, "--ssim-downsample", "1"});
    REQUIRE(plain.exit_code == 0);
    CHECK(one.exit_code == 0);
    CHECK(lines(plain.out).size() == 3);
    CHECK(one.out == plain.out);
    CHECK_FALSE(has(plain.out, "shrunk"));
    auto json_plain = test::json_members(run_imgpar({"compare", "--json", a, b}).out);
    auto json_one = test::json_members(run_imgpar({"compare", "--json", a, b, "--ssim-downsample", "1"}).out);
    CHECK(test::json_members(json_plain["ssim"])["downsample"] == "1");
    CHECK(json_one["all"] == json_plain["all"]);
    CHECK(json_one["per_channel"] == json_plain["per_channel"]);
    CHECK(json_one["ssim"] == json_plain["ssim"]);
    CHECK(test::json_members(json_plain["all"])["ssim"] !=
          test::json_members(test::json_members(run_imgpar({"compare", "--json", a, b, "--ssim-downsample", "2"}).out)["all"])["ssim"]);
    // chelsea.png (451x300): auto is 1, the default's numbers.
    Pair p;
    const auto chelsea_auto = run_imgpar({"compare", p.a, p.b, "--ssim-downsample", "auto"});
    CHECK(chelsea_auto.out == run_imgpar({"compare", p.a, p.b}).out);
    CHECK(has(test::json_members(run_imgpar({"compare", "--json", p.a, p.b, "--ssim-downsample", "auto"}).out)["ssim"],
              "\"downsample\":1,"));
    // --ssim-map at a factor: the shrunk images' map, ceil(451 / 3) x ceil(300 / 3).
    const auto mapped = run_imgpar({"compare", p.a, p.b, "--ssim-downsample", "3", "--ssim-map", p.dir.file("m3.png")});
    REQUIRE(mapped.exit_code == 0);
    const ImageU8 map = load_image(p.dir.file("m3.png")).image;
    CHECK(map.width() == 151);
    CHECK(map.height() == 100);
    REQUIRE(map.channels() == 3);
    ImageU8 want_map(151, 100, 3);
    const ViewU8 wm = want_map.view();
    cpu::ssim(load_image(p.a).image.view(), load_image(p.b).image.view(), &wm, 3);
    IMGPAR_CHECK_IMAGES_EQUAL(want_map, map);
    CHECK(map.at(10, 10, 1) == 255);  // green is equal everywhere
    CHECK(map.at(71, 35, 0) < 255);   // the changed patch (x 200..229, y 100..109) shrunk 3x
}

TEST_CASE("cli compare: --ssim-downsample: bad values and --no-ssim are usage errors; shrunk under 11x11, no SSIM") {
    Pair p;
    for (const char* bad : {"0", "-3", "3x", "1025", "", "2.5", "auto2"}) {
        CAPTURE(bad);
        const auto r = run_imgpar({"compare", p.a, p.b, "--ssim-downsample", bad});
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "--ssim-downsample"));
        CHECK(r.out.empty());
    }
    CHECK(run_imgpar({"compare", p.a, p.b, "--ssim-downsample", "1024"}).exit_code == 0);  // the largest
    for (const char* factor : {"2", "auto", "1"}) {
        const auto r = run_imgpar({"compare", p.a, p.b, "--no-ssim", "--ssim-downsample", factor});
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "--ssim-downsample"));
    }
    // 451x300 shrunk 40x is 12x8: no SSIM, said plainly, exit 0 (as an image under 11x11).
    auto r = run_imgpar({"compare", p.a, p.b, "--ssim-downsample", "40"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "SSIM: none, the image shrunk 40x (--ssim-downsample) is 12x8, smaller than the 11x11 window"));
    CHECK_FALSE(has(r.out, "SSIM of the images shrunk"));
    auto m = test::json_members(run_imgpar({"compare", "--json", p.a, p.b, "--ssim-downsample", "40"}).out);
    CHECK(test::json_members(m["all"])["ssim"] == "null");
    CHECK(test::json_members(m["ssim"])["skipped"] ==
          "\"the image shrunk 40x (--ssim-downsample) is 12x8, smaller than the 11x11 window\"");
    r = run_imgpar({"compare", p.a, p.b, "--ssim-downsample", "40", "--fail-below", "ssim=0.5"});
    CHECK(r.exit_code == 4);
    CHECK(has(r.err, "ssim has no value (the image shrunk 40x"));
    // 29x is 16x11: still there.
    CHECK(has(test::json_members(run_imgpar({"compare", "--json", p.a, p.b, "--ssim-downsample", "29"}).out)["ssim"],
              "\"downsample\":29,\"pixels\":6}"));
    // A map of it cannot be made: that pair fails (exit 1), nothing written.
    r = run_imgpar({"compare", p.a, p.b, "--ssim-downsample", "40", "--ssim-map", p.dir.file("m.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "--ssim-map"));
    CHECK(has(r.err, "shrunk 40x"));
    CHECK_FALSE(test::file_exists(p.dir.file("m.png")));
}

TEST_CASE("cli compare: --ssim-downsample with --ssim-map: a factor the images take is not refused by --device auto") {
    // The device estimate runs the job on a 512x512 image: a factor that
    // shrinks that one under 11x11 (here 60: 9x9) must not fail a run whose
    // own images fit (1200x1200 shrunk 60x is 20x20).
    TempDir dir;
    test::save_image_file(dir.file("a.png"), test::photo_like_image(1200, 1200, 1, 61));
    test::save_image_file(dir.file("b.png"), test::photo_like_image(1200, 1200, 1, 62));
    for (const std::string device : {"cpu", "auto"}) {
        CAPTURE(device);
        const std::string map = dir.file("m_" + device + ".png");
        const auto r = run_imgpar({"compare", dir.file("a.png"), dir.file("b.png"), "--ssim-downsample", "60",
                                   "--ssim-map", map, "--device", device});
        CHECK_MESSAGE(r.exit_code == 0, r.err);
        if (test::file_exists(map)) {
            CHECK(load_image(map).image.width() == 20);
        } else {
            FAIL_CHECK("no map written");
        }
    }
}

TEST_CASE("cli compare: --ssim-downsample agrees with Wang et al.'s ssim.m written in numpy, on photos, blurred and JPEG") {
    run_peer_script("compare_wang.py", "import numpy", "python3-numpy");
}
