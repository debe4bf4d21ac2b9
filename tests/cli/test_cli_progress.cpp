// End-to-end: the progress bar of a batch fits the terminal it is drawn on
// (every redraw at most COLUMNS - 1 wide, so none wraps), whether the
// terminal reports its width or $COLUMNS does; with stderr in a file
// (--progress into a log) it is plain lines, each ended by a newline.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/python_peer.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

// Six 1 MP photos under a wide blur, one at a time on one thread: about
// 0.1 s each, so the bar is redrawn (every 0.2 s) with the rate and ETA.
// `sigma` 1: the same files quickly.
std::vector<std::string> batch(const TempDir& dir, const char* sigma = "50") {
    std::vector<std::string> warnings;
    save_image(dir.file("p.jpg"), test::photo_like_image(1024, 1024, 3).view(), SaveOptions{}, warnings);
    const std::string bytes = test::read_bytes(dir.file("p.jpg"));
    std::vector<std::string> args = {"blur", "--device", "cpu", "--jobs", "1", "--threads", "1", "--sigma", sigma,
                                     "--out-dir", dir.file("out")};
    for (int i = 0; i < 6; ++i) {
        test::write_bytes(dir.file("p" + std::to_string(i) + ".jpg"), bytes);
        args.push_back(dir.file("p" + std::to_string(i) + ".jpg"));
    }
    return args;
}

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// What imgpar drew on a terminal `columns` wide (0: no size reported), with
// `env` set; empty (and a message) without a Python to make the terminal.
std::string drawn_on_terminal(const TempDir& dir, int columns, const std::string& env,
                              const std::vector<std::string>& args) {
    const std::string python = test::python_with("import pty, termios, tty");
    if (python.empty()) {
        MESSAGE("no python3 with the pty module: the terminal checks are skipped");
        return {};
    }
    std::string cmd = "env " + env + " " + python + " " + quoted(std::string(IMGPAR_SAMPLES_DIR) + "/../tests/cli/pty_run.py") +
                      " " + std::to_string(columns) + " " + quoted(dir.file("drawn")) + " " + quoted(IMGPAR_BINARY);
    for (const std::string& a : args) cmd += " " + quoted(a);
    REQUIRE(std::system(cmd.c_str()) == 0);
    return test::read_bytes(dir.file("drawn"));
}

// The bar's redraws: what a terminal shows between carriage returns, the
// erase-line sequence taken out; pieces ended by a newline are messages
// (the summary), which may wrap.
std::vector<std::string> redraws(std::string drawn) {
    for (std::size_t at; (at = drawn.find("\033[K")) != std::string::npos;) drawn.erase(at, 3);
    std::vector<std::string> pieces;
    std::string piece;
    for (char c : drawn) {
        if (c == '\r' || c == '\n') {
            if (c == '\r') pieces.push_back(piece);
            piece.clear();
        } else {
            piece += c;
        }
    }
    pieces.push_back(piece);
    return pieces;
}

void check_fits(const std::string& drawn, std::size_t columns) {
    int bars = 0, with_eta = 0;
    for (const std::string& piece : redraws(drawn)) {
        CHECK_MESSAGE(piece.size() < columns, "'", piece, "' is ", piece.size(), " wide");
        if (has(piece, "/6 [")) ++bars;
        if (has(piece, "ETA")) ++with_eta;
    }
    CHECK_MESSAGE(bars >= 2, drawn);
    CHECK_MESSAGE(with_eta >= 1, drawn);
}

}  // namespace

TEST_CASE("cli progress: on a 50-column terminal every redraw fits in 49 columns") {
    TempDir dir;
    const std::vector<std::string> args = batch(dir);
    // The terminal says its width ($COLUMNS, wider, is not asked).
    std::string drawn = drawn_on_terminal(dir, 50, "COLUMNS=200", args);
    if (drawn.empty()) return;
    check_fits(drawn, 50);
    // A terminal that reports no size: $COLUMNS.
    drawn = drawn_on_terminal(dir, 0, "COLUMNS=50", args);
    check_fits(drawn, 50);
    // Neither: 80 columns, room for the whole line.
    drawn = drawn_on_terminal(dir, 0, "-u COLUMNS", args);
    check_fits(drawn, 80);
    CHECK(has(drawn, "blur "));
}

TEST_CASE("cli progress: --progress with stderr in a file writes plain lines, no bar and no carriage return") {
    TempDir dir;
    std::vector<std::string> args = batch(dir, "1");
    args.push_back("--progress");
    const auto r = run_imgpar(args);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err.find('\r') == std::string::npos);
    CHECK(r.err.find('\033') == std::string::npos);
    CHECK(!has(r.err, "["));
    REQUIRE(!r.err.empty());
    CHECK(r.err.back() == '\n');
    CHECK_MESSAGE(has(r.err, "imgpar: blur: 6/6 files (100%) in "), r.err);
}
