// End-to-end: the smaller defects of issue 51, item 15. Control characters
// of names and values are shown escaped on stderr and in text reports; a
// palette index beyond the palette is refused in PNG as in BMP; an output
// that is a directory fails with exit 1 whether or not --format is given; a
// JPEG too large for the format is refused before its input is decoded;
// --max-pixels says its real range.
#include <doctest/doctest.h>

#include <filesystem>

#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/hostile_files.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::Bytes;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace {
void write(const std::string& path, const Bytes& bytes) {
    test::write_bytes(path, std::string(bytes.begin(), bytes.end()));
}
// No byte of `s` is a control character but its line ends.
bool no_raw_controls(const std::string& s) {
    for (unsigned char c : s)
        if ((c < 0x20 && c != '\n') || c == 0x7F) return false;
    return true;
}
}  // namespace

TEST_CASE("escaping: control characters of names and values are shown escaped on stderr and in text reports") {
    TempDir dir;
    const std::string fake = "a\nimgpar: error: fake\x1b[31m\x7f\xc2\x9b\xff caf\xc3\xa9.png";
    const std::string shown = "a\\nimgpar: error: fake\\x1b[31m\\x7f\\u009b\\xff caf\xc3\xa9.png";
    // A missing input: the error names it, on one line.
    auto r = run_imgpar({"info", "--", fake}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, shown));
    CHECK(no_raw_controls(r.err));
    CHECK(lines(r.out).size() <= 1);
    // An option's value in a usage error.
    r = run_imgpar({"blur", "--sigma", "\x1b]0;title\x07", "in.png", "out.png"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "\\x1b]0;title\\x07"));
    CHECK(no_raw_controls(r.err));
    r = run_imgpar({"bl\x1bur"}, dir.path());  // an unknown command
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "bl\\x1bur"));
    CHECK(no_raw_controls(r.err));
    // A real file: -v lines, warnings and the text report name it escaped;
    // --json keeps its own escaping.
    std::filesystem::copy_file(test::sample_path("chelsea_alpha.png"), dir.file(fake));
    r = run_imgpar({"-v", "blur", "--", fake, "out\n.jpg"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, shown));
    CHECK(has(r.err, "out\\n.jpg"));  // the alpha-dropped warning names the output
    CHECK(no_raw_controls(r.err));
    r = run_imgpar({"info", "--", fake}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, shown + ": png 451x300"));
    CHECK(no_raw_controls(r.out));
    r = run_imgpar({"stats", "--", fake}, dir.path());
    CHECK(has(r.out, shown + ": 451x300"));
    CHECK(no_raw_controls(r.out));
    r = run_imgpar({"histo", "--", fake}, dir.path());
    CHECK(has(r.out, shown + ": 451x300"));
    CHECK(no_raw_controls(r.out));
    r = run_imgpar({"info", "--json", "--", fake}, dir.path());
    CHECK(has(r.out, "a\\nimgpar: error: fake\\u001b[31m\\u007f\xc2\x9b\\udcff caf\xc3\xa9.png"));
}

TEST_CASE("palette: an index beyond the palette is refused in PNG as in BMP, naming the file and the index") {
    TempDir dir;
    const Bytes plte = test::png_chunk("PLTE", {255, 0, 0, 0, 255, 0});  // 2 entries
    write(dir.file("bad.png"), test::png_file(4, 2, 8, 3, {{0, 1, 7, 1}, {1, 0, 1, 0}}, {plte}));
    write(dir.file("bad.bmp"), test::bmp_8bit(4, 2, 2, {{0, 1, 7, 1}, {1, 0, 1, 0}}));
    write(dir.file("ok.png"), test::png_file(4, 2, 8, 3, {{0, 1, 1, 1}, {1, 0, 1, 0}}, {plte}));
    // A 4-bit index (a nibble) beyond a 2-entry palette.
    write(dir.file("bad4.png"), test::png_file(4, 1, 4, 3, {{0x01, 0x0f}}, {plte}));
    for (const char* name : {"bad.png", "bad.bmp", "bad4.png"}) {
        CAPTURE(name);
        const auto r = run_imgpar({"convert", name, "out.png"}, dir.path());
        CHECK(r.exit_code == 1);
        CHECK(has(r.err, std::string(name) + ": the "));
        CHECK(has(r.err, "names palette entry "));
        CHECK(has(r.err, "but the palette has 2"));
        CHECK_FALSE(std::filesystem::exists(dir.file("out.png")));
    }
    CHECK(has(run_imgpar({"info", "--verify", "bad.png"}, dir.path()).err,
              "bad.png: the PNG is malformed: PNG pixel (2, 0) names palette entry 7, but the palette has 2"));
    CHECK(has(run_imgpar({"info", "--verify", "bad4.png"}, dir.path()).err, "PNG pixel (3, 0) names palette entry 15"));
    const auto r = run_imgpar({"convert", "ok.png", "ok_out.png"}, dir.path());
    CHECK(r.exit_code == 0);
}

TEST_CASE("directory output: exit 1 with or without --format, alone and in a batch, nothing computed") {
    TempDir dir;
    std::filesystem::copy_file(test::sample_path("camera.png"), dir.file("in.png"));
    std::filesystem::create_directories(dir.file("folder"));
    std::filesystem::create_directories(dir.file("folder.png"));
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"blur", "in.png", "folder"}, {"blur", "--format", "png", "in.png", "folder"},
          {"blur", "in.png", "folder.png"}, {"blur", "--format", "png", "in.png", "folder.png"}}) {
        const auto r = run_imgpar(args, dir.path());
        CAPTURE(r.err);
        CHECK(r.exit_code == 1);
        CHECK(has(r.err, ": is a directory"));
        CHECK_FALSE(has(r.err, "usage:"));
    }
    // In a batch the file fails alone, before it is read.
    std::filesystem::create_directories(dir.file("out/in.png"));
    std::filesystem::copy_file(test::sample_path("chelsea.png"), dir.file("other.png"));
    for (const bool format : {false, true}) {
        std::vector<std::string> args = {"-v", "blur", "--json", "--out-dir", "out", "in.png", "other.png"};
        if (format) args.insert(args.begin() + 2, {"--format", "png"});
        const auto r = run_imgpar(args, dir.path());
        CHECK(r.exit_code == 1);
        CHECK(has(r.out, "\"output\":\"out/in.png\",\"ok\":false,\"error\":\"out/in.png: is a directory\""));
        CHECK(test::file_exists(dir.file("out/other.png")));
        CHECK_FALSE(has(r.err, "blur: in.png:"));  // no -v line of its compute
    }
}

TEST_CASE("JPEG output beyond 65,500 pixels: refused before decoding, nothing written, alone in a batch") {
    TempDir dir;
    test::save_image_file(dir.file("small.png"), test::photo_like_image(3, 2, 1));
    // Its pixels are cut short: decoding it would fail, so a refusal that
    // names the JPEG's limit came before the decoding.
    Bytes cut = test::png_file(70000, 2, 8, 0, std::vector<Bytes>(2, Bytes(70000, 50)));
    cut.resize(cut.size() - 100);
    write(dir.file("wide_cut.png"), cut);
    write(dir.file("wide.png"), test::png_file(70000, 1, 8, 0, {Bytes(70000, 50)}));
    const std::string limit = "a JPEG holds at most 65500 pixels across and down";
    const std::vector<std::vector<std::string>> runs = {
        {"resize", "--width", "70000", "--height", "1", "small.png", "out.jpg"},
        {"pad", "--top", "65499", "small.png", "out.jpg"},
        {"convert", "wide_cut.png", "out.jpg"},
        {"convert", "wide.png", "out.jpg"},
        {"chain", "flop | transpose", "wide_cut.png", "out.jpg"},
    };
    for (const auto& args : runs) {
        CAPTURE(args[0]);
        const auto r = run_imgpar(args, dir.path());
        CHECK(r.exit_code == 1);
        CHECK(has(r.err, "out.jpg: the output would be "));
        CHECK(has(r.err, limit));
        CHECK_FALSE(has(r.err, "truncated"));
        CHECK_FALSE(test::file_exists(dir.file("out.jpg")));
    }
    // 65,500 itself is allowed.
    CHECK(run_imgpar({"resize", "--width", "65500", "--height", "1", "small.png", "edge.jpg"}, dir.path()).exit_code ==
          0);
    const auto r = run_imgpar({"convert", "--json", "--format", "jpg", "--out-dir", "out", "wide_cut.png", "small.png"},
                              dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "\"ok\":false,\"error\":\"out/wide_cut.jpg: the output would be 70000x2"));
    CHECK(test::file_exists(dir.file("out/small.jpg")));
    CHECK_FALSE(test::file_exists(dir.file("out/wide_cut.jpg")));
    // compare's difference image likewise, before either image is decoded
    // (B is cut short too).
    write(dir.file("wide_cut_b.png"), cut);
    const auto c = run_imgpar({"compare", "wide_cut.png", "wide_cut_b.png", "--diff", "d.jpg"}, dir.path());
    CHECK(c.exit_code == 1);
    CHECK_MESSAGE(has(c.err, "d.jpg: the output would be 70000x2"), c.err);
    CHECK(has(c.err, limit));
    CHECK_FALSE(has(c.err, "truncated"));
    CHECK_FALSE(test::file_exists(dir.file("d.jpg")));
}

TEST_CASE("--max-pixels: its range is said as it is, 1 to 2^63-1") {
    for (const char* v : {"0", "9223372036854775808"}) {
        const auto r = run_imgpar({"info", "--max-pixels", v, test::sample_path("camera.png")});
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "(allowed: 1 to 2^63-1)"));
    }
    CHECK(run_imgpar({"info", "--max-pixels", "9223372036854775807", test::sample_path("camera.png")}).exit_code == 0);
}
