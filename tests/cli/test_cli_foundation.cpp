// End-to-end: the foundation commands (help, version, info, convert, devices)
// run as a user runs them; exit codes, stdout/stderr split, files left behind.
#include <doctest/doctest.h>

#include <chrono>
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

namespace {
std::string huge_png_header() {
    std::string s("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x02\x00\x00\x00\x00\x00\x00\x00", 33);
    return s;
}
}  // namespace

TEST_CASE("cli: --help, --version, command help, and usage errors exit 2") {
    auto r = run_imgpar({"--help"});
    CHECK(r.exit_code == 0);
    for (const char* cmd : {"info", "convert", "devices"}) CHECK(has(r.out, cmd));
    CHECK(r.err.empty());

    r = run_imgpar({"--version"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "imgpar " IMGPAR_VERSION));

    r = run_imgpar({"info", "--help"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "--json"));
    CHECK(has(r.out, "--device"));
    CHECK(run_imgpar({"help", "convert"}).exit_code == 0);

    r = run_imgpar({});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());

    r = run_imgpar({"infoo", "x.png"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "unknown command 'infoo'"));
    CHECK(has(r.err, "did you mean 'info'"));

    r = run_imgpar({"info", "--no-such-option", test::sample_path("camera.png")});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "no-such-option"));
    CHECK(has(r.err, "imgpar info --help"));

    r = run_imgpar({"convert", test::sample_path("camera.png")});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "OUT: missing"));

    r = run_imgpar({"info", "--device", "tpu", test::sample_path("camera.png")});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "allowed: auto, cpu, gpu, gpu:N"));
}

TEST_CASE("cli info: text, CSV and JSON; several files; one bad file does not stop the rest") {
    TempDir dir;
    test::write_bytes(dir.file("bad.png"), "not an image");
    std::vector<std::string> files = {test::sample_path("camera.png"), dir.file("bad.png"),
                                      test::sample_path("rocket.jpg"), test::sample_path("chelsea_alpha.png")};

    auto r = run_imgpar({"info", files[0], files[2], files[3]});
    CHECK(r.exit_code == 0);
    auto out = lines(r.out);
    REQUIRE(out.size() == 3);
    CHECK(has(out[0], "512x512 gray"));
    CHECK(has(out[1], "jpeg 640x427 RGB"));
    CHECK(has(out[2], "RGBA"));

    r = run_imgpar({"info", files[0], files[1], files[2]});
    CHECK(r.exit_code == 1);
    CHECK(lines(r.out).size() == 2);
    CHECK(has(r.err, "bad.png"));
    CHECK(has(r.err, "not a PNG, JPEG, BMP, WebP, AVIF, GIF or TIFF image"));

    r = run_imgpar({"info", "--json", files[0], files[1], files[2]});
    CHECK(r.exit_code == 1);
    out = lines(r.out);
    REQUIRE(out.size() == 3);  // JSON Lines: one object per input, errors included
    for (const auto& line : out) {
        std::string why;
        CHECK_MESSAGE(test::is_valid_json(line, &why), line, ": ", why);
    }
    auto m0 = test::json_members(out[0]);
    CHECK(m0["schema"] == "\"imgpar.info/3\"");
    CHECK(m0["width"] == "512");
    CHECK(m0["channels"] == "1");
    CHECK(m0["ok"] == "true");
    auto m1 = test::json_members(out[1]);
    CHECK(m1["ok"] == "false");
    CHECK(has(m1["error"], "not a PNG"));

    r = run_imgpar({"info", "--csv", files[0], files[2]});
    CHECK(r.exit_code == 0);
    out = lines(r.out);
    REQUIRE(out.size() == 3);
    CHECK(out[0].rfind("file,ok,format,width,height,channels", 0) == 0);
    CHECK(has(out[2], ",jpeg,640,427,3,RGB,8,"));

    CHECK(run_imgpar({"info", "--csv", "--json", files[0]}).exit_code == 2);
}

TEST_CASE("cli info: stdin, headers only unless --verify, hostile and missing files") {
    auto r = run_imgpar({"info", "-"}, "", test::sample_path("chelsea.png"));
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "<stdin>: png 451x300 RGB"));

    TempDir dir;
    test::write_bytes(dir.file("huge.png"), huge_png_header());
    auto t0 = std::chrono::steady_clock::now();
    r = run_imgpar({"info", dir.file("huge.png")});
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "huge.png: image is 100000x100000"));
    CHECK(ms < 2000.0);  // a process start and a header read; no decode, no giant allocation

    r = run_imgpar({"info", "--max-pixels", "100", test::sample_path("camera.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "limit of 100"));

    r = run_imgpar({"info", "--header-only", test::sample_path("rocket.jpg")});
    CHECK(r.exit_code == 0);
    CHECK_FALSE(has(r.out, "decoded"));

    r = run_imgpar({"info", dir.file("nope.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "nope.png: no such file"));

    // A truncated file: the header is fine, the data is not; only --verify's full decode notices.
    std::string png = test::read_bytes(test::sample_path("camera.png"));
    test::write_bytes(dir.file("cut.png"), png.substr(0, png.size() / 2));
    r = run_imgpar({"info", "--verify", dir.file("cut.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "cut.png"));
    CHECK(run_imgpar({"info", dir.file("cut.png")}).exit_code == 0);
    CHECK(run_imgpar({"info", "--header-only", dir.file("cut.png")}).exit_code == 0);
    r = run_imgpar({"info", "--verify", test::sample_path("rocket.jpg")});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "decoded"));
}

TEST_CASE("cli convert: formats, quality, stdout, and failures that leave nothing behind") {
    TempDir dir;
    auto r = run_imgpar({"convert", test::sample_path("chelsea.png"), "cat.jpg", "-v"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());  // stdout carries data only
    CHECK(has(r.err, "quality 92"));
    CHECK(load_image(dir.file("cat.jpg")).header.format == ImageFormat::Jpeg);

    r = run_imgpar({"convert", test::sample_path("chelsea.png"), "small.jpg", "--quality", "20"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(test::read_bytes(dir.file("small.jpg")).size() < test::read_bytes(dir.file("cat.jpg")).size());

    r = run_imgpar({"convert", test::sample_path("camera.png"), "cam.bmp"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(load_image(dir.file("cam.bmp")).header.format == ImageFormat::Bmp);

    // PNG -> PNG through stdin and stdout is lossless.
    r = run_imgpar({"convert", "-", "-", "--format", "png"}, dir.path(), test::sample_path("camera.png"));
    CHECK(r.exit_code == 0);
    test::write_bytes(dir.file("piped.png"), r.out);
    IMGPAR_CHECK_IMAGES_EQUAL(test::load_sample("camera.png"), load_image(dir.file("piped.png")).image);

    r = run_imgpar({"convert", test::sample_path("chelsea_alpha.png"), "a.jpg"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "alpha dropped"));
    r = run_imgpar({"convert", "-q", test::sample_path("chelsea_alpha.png"), "b.jpg"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());

    auto before = dir.entries();
    // Usage errors: exit 2, nothing written.
    CHECK(run_imgpar({"convert", test::sample_path("camera.png"), "x.xcf"}, dir.path()).exit_code == 2);
    CHECK(run_imgpar({"convert", test::sample_path("camera.png"), "-"}, dir.path()).exit_code == 2);
    CHECK(run_imgpar({"convert", test::sample_path("camera.png"), "x.jpg", "--quality", "101"}, dir.path()).exit_code == 2);
    CHECK(run_imgpar({"convert", test::sample_path("camera.png"), "x.png", "--format", "gif"}, dir.path()).exit_code == 2);
    // I/O errors: exit 1, nothing written.
    r = run_imgpar({"convert", test::sample_path("camera.png"), "no/such/dir/x.png"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "does not exist"));
    r = run_imgpar({"convert", "missing.png", "x.png"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "missing.png"));
    CHECK(dir.entries() == before);

    // A failed conversion never clobbers an existing output.
    test::write_bytes(dir.file("keep.png"), "precious");
    test::write_bytes(dir.file("bad.png"), "garbage");
    r = run_imgpar({"convert", "bad.png", "keep.png"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(test::read_bytes(dir.file("keep.png")) == "precious");
}

TEST_CASE("cli devices: lists GPUs or says plainly why there are none") {
    auto r = run_imgpar({"devices"});
    CHECK(r.exit_code == 0);
    CHECK((has(r.out, "GPU 0:") || has(r.out, "No usable GPU:")));
    r = run_imgpar({"devices", "--json"});
    CHECK(r.exit_code == 0);
    std::string why;
    CHECK_MESSAGE(test::is_valid_json(lines(r.out).at(0), &why), why);
    auto m = test::json_members(lines(r.out).at(0));
    CHECK(m["schema"] == "\"imgpar.devices/1\"");
    CHECK((m["usable"] == "true" || m.count("reason") == 1));
}
