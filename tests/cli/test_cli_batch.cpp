// End-to-end: many files per run. --out-dir and --output templates, inputs
// never overwritten, --skip-existing, keeping going past bad files, JSON
// Lines with failures, --files-from, --shard, --jobs and the progress bar.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "src/io/load.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

// photos/ with four good images and, when asked, one file that is not one.
std::vector<std::string> make_photos(TempDir& dir, bool with_bad) {
    fs::create_directories(dir.file("photos"));
    std::vector<std::string> names;
    for (const char* s : {"camera.png", "chelsea.png", "chelsea_alpha.png", "rocket.jpg"}) {
        fs::copy_file(test::sample_path(s), dir.file(std::string("photos/") + s));
        names.push_back(std::string("photos/") + s);
    }
    if (with_bad) {
        std::ofstream(dir.file("photos/broken.png")) << "not an image";
        names.insert(names.begin() + 2, "photos/broken.png");
    }
    return names;
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

}  // namespace

TEST_CASE("cli batch: --out-dir writes one output per input, named as the input") {
    TempDir dir;
    const auto photos = make_photos(dir, false);
    auto r = run_imgpar(with({"blur", "--out-dir", "out/blurred", "--sigma", "1"}, photos), dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(has(r.err, "blur: 4 written; 4 files in"));
    for (const auto& p : photos) {
        const std::string out = dir.file("out/blurred/" + fs::path(p).filename().string());
        REQUIRE(fs::exists(out));
        CHECK(load_image(out).image.width() == load_image(dir.file(p)).image.width());
    }
    // The IN OUT form gives the same bytes as the batch.
    r = run_imgpar({"blur", "--sigma", "1", "photos/rocket.jpg", "one.jpg"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(read_file(dir.file("one.jpg")) == read_file(dir.file("out/blurred/rocket.jpg")));

    // --format with --out-dir changes the extension.
    r = run_imgpar(with({"convert", "--out-dir", "jpgs", "--format", "jpg"}, photos), dir.path());
    CHECK(r.exit_code == 0);
    CHECK(load_image(dir.file("jpgs/camera.jpg")).header.format == ImageFormat::Jpeg);
    CHECK(fs::exists(dir.file("jpgs/rocket.jpg")));
}

TEST_CASE("cli batch: --output templates") {
    TempDir dir;
    const auto photos = make_photos(dir, false);
    auto r = run_imgpar(with({"sharpen", "--output", "res/{dir}/{stem}_sharp.{ext}"}, photos), dir.path());
    CHECK(r.exit_code == 0);
    CHECK(fs::exists(dir.file("res/photos/camera_sharp.png")));
    CHECK(fs::exists(dir.file("res/photos/rocket_sharp.jpg")));
    r = run_imgpar(with({"convert", "-o", "{{x}}/{name}.png"}, photos), dir.path());
    CHECK(r.exit_code == 0);
    CHECK(load_image(dir.file("{x}/rocket.jpg.png")).header.format == ImageFormat::Png);

    r = run_imgpar(with({"blur", "--output", "out/{base}.png"}, photos), dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "unknown placeholder {base}"));
    r = run_imgpar(with({"blur", "--output", "out/{stem.png"}, photos), dir.path());
    CHECK(r.exit_code == 2);
    r = run_imgpar(with({"blur", "--output", "out/{stem}.xcf"}, photos), dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "cannot tell the output format"));
    r = run_imgpar(with({"blur", "--output", "same.png"}, photos), dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "would be written twice"));
    r = run_imgpar(with({"blur", "--output", "a/{name}", "--out-dir", "b"}, photos), dir.path());
    CHECK(r.exit_code == 2);
    CHECK_FALSE(fs::exists(dir.file("a")));
    CHECK_FALSE(fs::exists(dir.file("b")));
}

TEST_CASE("cli batch: an input is never overwritten, by name or through a link") {
    TempDir dir;
    const auto photos = make_photos(dir, false);
    const std::string before = read_file(dir.file("photos/camera.png"));
    auto r = run_imgpar(with({"blur", "--out-dir", "photos"}, photos), dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "never overwrites its inputs"));
    r = run_imgpar(with({"blur", "--output", "./photos/../photos/{name}"}, photos), dir.path());
    CHECK(r.exit_code == 2);
    fs::create_directories(dir.file("links"));
    fs::create_symlink(dir.file("photos/camera.png"), dir.file("links/camera.png"));
    r = run_imgpar({"blur", "--out-dir", "links", "photos/camera.png"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(read_file(dir.file("photos/camera.png")) == before);
    // The IN OUT form may name its input as the output: that is explicit.
    r = run_imgpar({"blur", "photos/camera.png", "photos/camera.png"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(read_file(dir.file("photos/camera.png")) != before);
    // Standard input has no name to derive an output from.
    r = run_imgpar({"blur", "--out-dir", "o", "-"}, dir.path(), test::sample_path("camera.png"));
    CHECK(r.exit_code == 2);
}

TEST_CASE("cli batch: bad files are reported, the others done, exit 1 with a summary; JSON has every file") {
    TempDir dir;
    const auto photos = make_photos(dir, true);
    auto r = run_imgpar(with({"blur", "--json", "--out-dir", "out"}, photos), dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "photos/broken.png"));
    CHECK(has(r.err, "blur: 4 written, 1 failed; 5 files in"));
    const auto ls = lines(r.out);
    REQUIRE(ls.size() == 5);
    for (std::size_t i = 0; i < ls.size(); ++i) {
        std::string why;
        CHECK_MESSAGE(test::is_valid_json(ls[i], &why), ls[i], ": ", why);
        const auto m = test::json_members(ls[i]);
        CHECK(m.at("input") == "\"" + photos[i] + "\"");  // input order, whatever finished first
        CHECK(m.at("ok") == (i == 2 ? "false" : "true"));
        if (i == 2) CHECK(has(m.at("error"), "broken.png"));
    }
    CHECK_FALSE(fs::exists(dir.file("out/broken.png")));
    CHECK(fs::exists(dir.file("out/rocket.jpg")));
    // A missing file among report inputs: the others still reported.
    r = run_imgpar({"histo", "--csv", "photos/camera.png", "nope.png", "photos/rocket.jpg"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "nope.png: no such file"));
    CHECK(has(r.out, "photos/rocket.jpg"));
}

TEST_CASE("cli batch: --skip-existing resumes without touching what is there") {
    TempDir dir;
    const auto photos = make_photos(dir, false);
    auto r = run_imgpar({"blur", "--out-dir", "out", photos[0], photos[1]}, dir.path());
    REQUIRE(r.exit_code == 0);
    write_file(dir.file("out/camera.png"), "marker");  // stands for a finished output
    r = run_imgpar(with({"blur", "--out-dir", "out", "--skip-existing", "--json"}, photos), dir.path());
    CHECK(r.exit_code == 0);
    CHECK(read_file(dir.file("out/camera.png")) == "marker");
    CHECK(fs::exists(dir.file("out/rocket.jpg")));
    CHECK(has(r.err, "2 written, 2 skipped; 4 files"));
    CHECK(has(r.out, "\"skipped\":true"));
}

TEST_CASE("cli batch: --files-from (lines, NUL, stdin) and --shard") {
    TempDir dir;
    const auto photos = make_photos(dir, false);
    std::string list;
    for (const auto& p : photos) list += p + "\n";
    write_file(dir.file("list.txt"), list);
    std::string nul_list;
    for (const auto& p : photos) nul_list += p + std::string(1, '\0');
    write_file(dir.file("list0"), nul_list);

    auto r = run_imgpar({"info", "--csv", "--files-from", "list.txt"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(lines(r.out).size() == 5);  // header and four rows
    r = run_imgpar({"info", "--csv", "--files-from", "list0"}, dir.path());
    CHECK(lines(r.out).size() == 5);
    r = run_imgpar({"info", "--csv", "--files-from", "-"}, dir.path(), dir.file("list.txt"));
    CHECK(lines(r.out).size() == 5);
    r = run_imgpar({"blur", "--files-from", "list.txt", "--out-dir", "o"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(fs::exists(dir.file("o/chelsea_alpha.png")));
    r = run_imgpar({"info", "--files-from", "missing.txt"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "missing.txt"));
    r = run_imgpar({"blur", "--files-from", "list.txt", "x.png"}, dir.path());
    CHECK(r.exit_code == 2);  // the IN OUT form takes no list

    // Two shards split the list: every file in exactly one, in list order.
    const auto first = lines(run_imgpar({"info", "--csv", "--files-from", "list.txt", "--shard", "1/2"}, dir.path()).out);
    const auto second = lines(run_imgpar({"info", "--csv", "--files-from", "list.txt", "--shard", "2/2"}, dir.path()).out);
    REQUIRE(first.size() == 3);
    REQUIRE(second.size() == 3);
    CHECK(has(first[1], photos[0]));
    CHECK(has(second[1], photos[1]));
    CHECK(has(first[2], photos[2]));
    CHECK(has(second[2], photos[3]));
    for (const char* bad : {"0/2", "3/2", "1/0", "x/2", "1", "1/2/3", "-1/2"})
        CHECK(run_imgpar({"info", "--shard", bad, photos[0]}, dir.path()).exit_code == 2);
}

TEST_CASE("cli batch: --jobs does not change the bytes; progress only when asked or on a terminal") {
    TempDir dir;
    const auto photos = make_photos(dir, false);
    auto r = run_imgpar(with({"blur", "--out-dir", "j1", "-j", "1"}, photos), dir.path());
    CHECK(r.exit_code == 0);
    r = run_imgpar(with({"blur", "--out-dir", "j4", "--jobs", "4", "--progress"}, photos), dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "imgpar: blur: 4/4 files (100%) in "));  // stderr is a file: plain lines
    for (const auto& p : photos) {
        const std::string name = fs::path(p).filename().string();
        CHECK(read_file(dir.file("j1/" + name)) == read_file(dir.file("j4/" + name)));
    }
    r = run_imgpar(with({"blur", "--out-dir", "j5"}, photos), dir.path());
    CHECK_FALSE(has(r.err, "4/4 files"));  // stderr is a file here
    CHECK(run_imgpar(with({"blur", "--out-dir", "x", "--jobs", "0"}, photos), dir.path()).exit_code == 2);
    CHECK(run_imgpar(with({"blur", "--out-dir", "x", "--progress", "--no-progress"}, photos), dir.path()).exit_code == 2);
}

TEST_CASE("cli batch: the IN OUT form is unchanged, and several inputs without a destination are a usage error") {
    TempDir dir;
    const auto photos = make_photos(dir, false);
    auto r = run_imgpar({"blur", photos[0], "b.png", "0x3"}, dir.path());
    CHECK(r.exit_code == 0);
    r = run_imgpar({"blur", photos[0], photos[1], photos[2]}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--out-dir"));
    r = run_imgpar({"sharpen", photos[0]}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "OUT: missing"));
}
