// End-to-end: how imgpar reads its command line, as a user meets it. Strict
// numbers naming the option, suggestions for unknown options, global options
// before the command, help that wins, help texts that describe only what a
// command has, --format against the extension, warnings for options with no
// effect, histo's per-file channel errors, and the text bars' character set.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "src/io/load.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace {

bool ascii_only(const std::string& s) {
    for (unsigned char c : s)
        if (c >= 0x80) return false;
    return true;
}

}  // namespace

TEST_CASE("cli parsing: a number is the whole argument, in range, or a usage error naming the option") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");
    const std::vector<std::vector<std::string>> bad = {
        {"blur", in, "o.png", "--sigma", "2,5"},      {"blur", in, "o.png", "--sigma", "3abc"},
        {"blur", in, "o.png", "--sigma", "1.5.5"},    {"blur", in, "o.png", "--sigma", " 2"},
        {"blur", in, "o.png", "--sigma", "0x2"},      {"blur", in, "o.png", "--sigma", "inf"},
        {"blur", in, "o.png", "--sigma", ""},         {"blur", in, "o.png", "--sigma", "1e999"},
        {"sharpen", in, "o.png", "--amount", "1.5x"}, {"box", in, "o.png", "--radius", "99999999999999999999"},
        {"blur", in, "o.png", "0x0x2"},               {"blur", in, "o.png", "0x2x"},
        {"blur", in, "o.png", "-1x2"},                {"blur", in, "o.png", "0x60"}};
    for (const auto& args : bad) {
        CAPTURE(args[3]);
        CAPTURE(args.back());
        const auto r = run_imgpar(args, dir.path());
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "imgpar " + args[0] + ": error: "));
        CHECK(dir.entries().empty());
    }
    auto r = run_imgpar({"blur", in, "o.png", "--sigma", "2,5"}, dir.path());
    CHECK(has(r.err, "--sigma: '2,5' is not a number (decimals take a point: 2.5)"));
    r = run_imgpar({"box", in, "o.png", "--radius", "99999999999999999999"}, dir.path());
    CHECK(has(r.err, "--radius: 99999999999999999999 is out of range (allowed: 1 to 1000)"));
    r = run_imgpar({"info", "--max-pixels", "99999999999999999999", in});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--max-pixels"));
    r = run_imgpar({"histo", in, "--plot", "p.png", "--plot-size", "4294967808x300"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--plot-size"));
    CHECK(dir.entries().empty());
    r = run_imgpar({"histo", in, "--channel", ""});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--channel: is empty"));
}

TEST_CASE("cli parsing: a sigma far below a pixel, inside the documented range, leaves the image as it was") {
    TempDir dir;
    const auto r = run_imgpar({"blur", test::sample_path("chelsea.png"), "o.png", "--sigma", "1e-200"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const ImageU8 original = test::load_sample("chelsea.png");
    const ImageU8 blurred = load_image(dir.file("o.png")).image;
    REQUIRE(blurred.size_bytes() == original.size_bytes());
    CHECK(std::equal(blurred.data(), blurred.data() + blurred.size_bytes(), original.data()));
}

TEST_CASE("cli parsing: an unknown option suggests the nearest, in plain quotes, naming the command") {
    const std::string in = test::sample_path("chelsea.png");
    auto r = run_imgpar({"blur", "--sigmaa", "2", in, "o.png"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "imgpar blur: error: unknown option --sigmaa for blur; did you mean --sigma?"));
    CHECK(ascii_only(r.err));
    r = run_imgpar({"histo", "-bins", "16", in});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "unknown option -bins for histo; did you mean --bins?"));
    r = run_imgpar({"info", "--no-such-option", in});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "unknown option --no-such-option for info"));
    CHECK_FALSE(has(r.err, "did you mean"));
    CHECK(ascii_only(r.err));
}

TEST_CASE("cli parsing: global options before the command; help, version and 'help CMD'") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");
    auto r = run_imgpar({"-v", "--device", "cpu", "blur", in, "o.png"}, dir.path());
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(has(r.err, "backend cpu"));  // -v was heard
    CHECK(test::file_exists(dir.file("o.png")));
    r = run_imgpar({"--max-pixels=100", "info", "--verify", in});
    CHECK(r.exit_code == 1);  // the limit reached the command
    CHECK(has(r.err, "100"));
    r = run_imgpar({"-q", "histo", "--log", in});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());  // -q before the command hides the warning
    r = run_imgpar({"--sigma", "2", "blur", in, "o.png"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "unknown option --sigma before the command"));
    r = run_imgpar({"-v"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "missing the command"));

    r = run_imgpar({"blur", "--help", "--bogus"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "--sigma"));
    CHECK(r.err.empty());
    r = run_imgpar({"blur", "--bogus", "--sigma=abc", "-h"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "--sigma"));
    r = run_imgpar({"help", "histo"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "--bins"));
    r = run_imgpar({"--help", "histo"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "--bins"));
    for (const char* v : {"-V", "--version"}) {
        r = run_imgpar({v});
        CHECK(r.exit_code == 0);
        CHECK(has(r.out, "imgpar " IMGPAR_VERSION));
    }
    r = run_imgpar({"--help"});
    CHECK(has(r.out, "imgpar help COMMAND"));
    CHECK(has(r.out, "-V, --version"));
    CHECK(has(r.out, "before or after its name"));
}

TEST_CASE("cli parsing: help describes only options the command has") {
    auto r = run_imgpar({"devices", "--help"});
    CHECK(r.exit_code == 0);
    CHECK_FALSE(has(r.out, "per input"));
    CHECK(has(r.out, "imgpar.devices/1"));
    for (const char* cmd : {"threshold", "equalize"}) {
        r = run_imgpar({cmd, "--help"});
        CHECK(r.exit_code == 0);
        CHECK_FALSE(has(r.out, "border"));
    }
    TempDir dir;
    r = run_imgpar({"histo", test::sample_path("camera.png"), "--plot", "-"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--plot"));
    CHECK_FALSE(has(r.err, "--format"));  // histo has none
}

TEST_CASE("cli parsing: --format never writes one format under another's extension") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");
    auto r = run_imgpar({"blur", "--format", "jpg", in, "x.png"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "x.png: its extension says png but --format says jpeg"));
    CHECK(dir.entries().empty());
    r = run_imgpar({"convert", "--format", "png", in, "x.JPG"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(dir.entries().empty());
    // Names that do not say: --format decides.
    r = run_imgpar({"blur", "--format", "jpg", in, "noext"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(test::read_bytes(dir.file("noext")).substr(0, 2) == "\xff\xd8");
    r = run_imgpar({"convert", "--format", "jpeg", in, "y.jpg"}, dir.path());
    CHECK(r.exit_code == 0);
}

TEST_CASE("cli parsing: an option with no effect beside the others is warned about, and the command runs") {
    const std::string in = test::sample_path("chelsea.png");
    auto r = run_imgpar({"histo", "--log", in});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "imgpar: warning: histo: --log has no effect without --plot"));
    r = run_imgpar({"histo", "--plot-size", "800x400", in});
    CHECK(has(r.err, "warning: histo: --plot-size has no effect without --plot"));
    r = run_imgpar({"histo", "--ascii", "--json", in});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "imgpar: warning: histo: --ascii has no effect with --json"));
    r = run_imgpar({"histo", "--list", "--csv", in});
    CHECK(has(r.err, "warning: histo: --list has no effect with --csv"));
    TempDir dir;
    r = run_imgpar({"histo", "--log", "--ascii", in, "--plot", "p.png"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
}

TEST_CASE("cli histo: a channel one file lacks fails that file only; the rest are counted") {
    const std::string gray = test::sample_path("camera.png"), rgb = test::sample_path("chelsea.png");
    auto r = run_imgpar({"histo", "--channel", "red", gray, rgb});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "camera.png: --channel: 'red' is not a channel of this gray image"));
    CHECK(has(r.err, "histo: 1 done, 1 failed; 2 files"));
    CHECK(has(r.out, "chelsea.png: 451x300 RGB"));
    CHECK_FALSE(has(r.out, "camera.png"));
    r = run_imgpar({"histo", "--json", "--channel", "luma", rgb, gray, rgb});
    CHECK(r.exit_code == 1);
    REQUIRE(lines(r.out).size() == 3);  // the gray file's record says why it failed
    CHECK(has(lines(r.out)[1], "\"ok\":false"));
    CHECK(has(lines(r.out)[1], "'luma' is not a channel of this gray image"));
    // A name no image has is still a usage error, before any file is read.
    r = run_imgpar({"histo", "--channel", "purple", rgb});
    CHECK(r.exit_code == 2);
}

TEST_CASE("cli histo: text bars follow the locale's character set; --ascii forces ASCII") {
    const std::string in = test::sample_path("chelsea.png");
    const std::string block = "\xe2\x96\x88";  // U+2588, the full block
    for (const std::vector<std::string>& env :
         {std::vector<std::string>{}, {"LC_ALL=C"}, {"LANG=POSIX"}, {"LANG=de_DE.ISO-8859-1"},
          {"LC_ALL=C", "LANG=C.UTF-8"}}) {
        CAPTURE(env.size());
        const auto r = test::run_imgpar_in_locale(env, {"histo", in});
        CHECK(r.exit_code == 0);
        CHECK(ascii_only(r.out));
        CHECK(has(r.out, "@"));  // the tallest column
    }
    for (const std::vector<std::string>& env :
         {std::vector<std::string>{"LC_ALL=C.UTF-8"}, {"LANG=C.UTF-8"}, {"LC_CTYPE=en_US.UTF-8", "LANG=C"}}) {
        const auto r = test::run_imgpar_in_locale(env, {"histo", in});
        CHECK(r.exit_code == 0);
        CHECK(has(r.out, block));
        const auto forced = test::run_imgpar_in_locale(env, {"histo", "--ascii", in});
        CHECK(ascii_only(forced.out));
    }
}

TEST_CASE("cli parsing: --threads sets the CPU threads, changes no byte, and takes 1 to 1024") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");
    for (const std::string t : {"1", "2", "3"}) {
        const auto r = run_imgpar({"--threads", t, "blur", "--device", "cpu", in, "b" + t + ".png", "--sigma", "3"}, dir.path());
        CHECK(r.exit_code == 0);
    }
    CHECK(test::read_bytes(dir.file("b1.png")) == test::read_bytes(dir.file("b2.png")));
    CHECK(test::read_bytes(dir.file("b1.png")) == test::read_bytes(dir.file("b3.png")));
    for (const std::string bad : {"0", "1025", "-2", "two"}) {
        CAPTURE(bad);
        const auto r = run_imgpar({"box", "--threads", bad, in, "x.png"}, dir.path());
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "--threads"));
    }
}
