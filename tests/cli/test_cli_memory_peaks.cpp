// End to end: the memory a command really takes against its estimate. Each
// case runs at the smallest --max-memory that admits it (the need its
// refusals state) and measures its peak resident memory beyond what the
// process takes anyway (the same command on an 8x8 image, or imgpar
// --version, whichever is more): an admitted file must stay inside its
// limit. The images are noise, whose encodings are the largest, and of
// modest size, a second or so a run.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <algorithm>

#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/peak_rss.hpp"
#include "tests/support/report_images16.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::TempDir;

namespace {

std::uint64_t file_kib(const std::string& path) {
    struct stat s {};
    return ::stat(path.c_str(), &s) == 0 ? static_cast<std::uint64_t>(s.st_size) / 1024 + 1 : 0;
}

// Writes `image` as `path`, in the format its extension names.
std::string save(const std::string& path, const ImageU8& image) {
    SaveOptions options;
    options.quality = 95;
    std::vector<std::string> warnings;
    save_image(path, image.view(), options, warnings);
    return path;
}

// One command over inputs of one kind: `args` with "{0}", "{1}" standing
// for the inputs and "{out}" for the output's folder.
struct Case {
    std::vector<std::string> args;
    std::vector<std::string> inputs;  // the images' paths
    std::vector<std::string> tiny;    // 8x8 images of the same kinds, for the baseline
};

std::vector<std::string> filled(const std::vector<std::string>& args, const std::vector<std::string>& inputs,
                                const std::string& out) {
    std::vector<std::string> a;
    for (const std::string& arg : args) {
        if (arg.size() == 3 && arg[0] == '{' && arg[1] >= '0' && arg[1] <= '9')
            a.push_back(inputs.at(static_cast<std::size_t>(arg[1] - '0')));
        else if (arg.rfind("{out}", 0) == 0)
            a.push_back(out + arg.substr(5));
        else
            a.push_back(arg);
    }
    a.insert(a.end(), {"--device", "cpu"});
    return a;
}

// Runs the case at its smallest admitted limit; checks it ran and stayed
// inside the limit.
void check_inside_estimate(const Case& c, const TempDir& dir) {
    // The process's own peak varies by a few hundred KiB from run to run
    // (threads, the allocator): the most of three runs.
    std::uint64_t base = test::run_measured({"--version"}).peak_kib;
    for (int i = 0; i < 2; ++i)
        base = std::max(base, test::run_measured(filled(c.args, c.tiny, dir.file("tiny"))).peak_kib);
    std::uint64_t start = 1024;
    for (const std::string& in : c.inputs) start += file_kib(in);
    const std::vector<std::string> args = filled(c.args, c.inputs, dir.file("o"));
    const test::LimitedRun r = test::run_at_smallest_limit(args, start);
    // The smaller peak of two runs at the limit: what a thread's scheduling
    // adds varies too (an undercount shows in every run).
    std::vector<std::string> again = args;
    again.insert(again.end(), {"--max-memory", std::to_string(r.limit_kib) + "K"});
    const std::uint64_t peak = std::min(r.run.peak_kib, test::run_measured(again).peak_kib);
    const std::uint64_t used = peak > base ? peak - base : 0;
    std::string command;
    for (const std::string& a : c.args) command += a + " ";
    INFO(command, "-> exit ", r.run.exit_code, " at --max-memory ", r.limit_kib, "K: peak ", used, " KiB beyond ",
         base, " KiB; ", r.run.err);
    REQUIRE(r.run.exit_code == 0);
    CHECK(used <= r.limit_kib);
}

// Noise of `channels` as `name` in `dir`, width x height, with an 8x8 twin.
struct Input {
    std::string path, tiny;
};
Input noise(const TempDir& dir, const std::string& name, int width, int height, int channels, unsigned seed = 1) {
    return {save(dir.file(name), test::random_image(width, height, channels, seed)),
            save(dir.file("tiny-" + name), test::random_image(8, 8, channels, seed))};
}

void check(const TempDir& dir, const std::vector<std::string>& args, const std::vector<Input>& inputs) {
    Case c{args, {}, {}};
    for (const Input& in : inputs) {
        c.inputs.push_back(in.path);
        c.tiny.push_back(in.tiny);
    }
    check_inside_estimate(c, dir);
}

}  // namespace

TEST_CASE("cli memory peaks: convert counts the PNG encoder's segments and file, and BMP's and JPEG's buffers") {
    TempDir dir;
    const Input rgba = noise(dir, "rgba.png", 1024, 1024, 4);
    check(dir, {"convert", "{0}", "{out}.png"}, {rgba});  // was 1.15x its estimate (424 MiB at 300M)
    check(dir, {"convert", "{0}", "{out}.bmp"}, {rgba});
    check(dir, {"convert", "{0}", "{out}.jpg", "--quality", "100"}, {rgba});
    const Input gray = noise(dir, "gray.png", 1024, 1024, 1);
    check(dir, {"convert", "{0}", "{out}.bmp"}, {gray});  // 24 bits a pixel: 3 images, appended
}

// A TIFF written to a file goes strip by strip into it as libtiff makes it:
// its estimate is the strips' buffers, not the file (it counted the file
// twice, 25.7 MiB for a 6 MiB image); to stdout the file is still made in
// memory first, and counted.
TEST_CASE("cli memory peaks: a 16-bit TIFF streamed to its file counts its strips, not the file") {
    TempDir dir;
    Input rgb16;
    rgb16.path = dir.file("rgb16.png");
    rgb16.tiny = dir.file("tiny-rgb16.png");
    test::save_image_file(rgb16.path, test::random_runs_image16(1024, 1024, 3, 3));
    test::save_image_file(rgb16.tiny, test::random_runs_image16(8, 8, 3, 3));
    check(dir, {"convert", "{0}", "{out}.tif"}, {rgb16});
    check(dir, {"convert", "{0}", "{out}-lzw.tif", "--compression", "lzw"}, {rgb16});
    // 6 MiB of samples and a 6 MiB input file: a file output fits in 16M, stdout's in-memory file does not.
    const auto to_file = test::run_imgpar({"convert", rgb16.path, dir.file("f.tif"), "--max-memory", "16M", "--device", "cpu"});
    CHECK_MESSAGE(to_file.exit_code == 0, to_file.err);
    const auto to_stdout = test::run_imgpar(
        {"convert", rgb16.path, "-", "--format", "tiff", "--max-memory", "16M", "--device", "cpu"});
    CHECK(to_stdout.exit_code == 1);
    CHECK(test::has(to_stdout.err, "raise it with --max-memory"));
}

TEST_CASE("cli memory peaks: equalize and threshold of gray+alpha, written as PNG") {
    TempDir dir;
    const Input gray_alpha = noise(dir, "ga.png", 2048, 2048, 2);
    check(dir, {"equalize", "{0}", "{out}.png"}, {gray_alpha});  // 218 MiB at 150M
    check(dir, {"threshold", "--otsu", "{0}", "{out}.png"}, {gray_alpha});
}

TEST_CASE("cli memory peaks: compare counts both inputs and its SSIM buffers") {
    TempDir dir;
    const Input a = noise(dir, "a.png", 1024, 1024, 3, 1), b = noise(dir, "b.png", 1024, 1024, 3, 2);
    check(dir, {"compare", "{0}", "{1}"}, {a, b});  // 403 MiB at 260M: it counted one input
    check(dir, {"compare", "{0}", "{1}", "--ssim-downsample", "2", "--diff", "{out}-diff.png", "--ssim-map",
                "{out}-map.png"},
          {a, b});
}

TEST_CASE("cli memory peaks: edges of a gray image written as BMP") {
    TempDir dir;
    check(dir, {"edges", "{0}", "{out}.bmp"}, {noise(dir, "gray.png", 2048, 2048, 1)});  // 1,321 MiB at 1000M
}

TEST_CASE("cli memory peaks: integral --squared of a 1-pixel-wide image, whose table has two columns") {
    TempDir dir;
    // (H+1) x 2 entries of 8 bytes, twice: 32 bytes a pixel, not 16 (534 MiB at 280M).
    check(dir, {"integral", "--squared", "{0}", "{out}.npy"}, {noise(dir, "thin.png", 1, 1 << 20, 1)});
}

TEST_CASE("cli memory peaks: blur and resize of a JPEG, written as JPEG") {
    TempDir dir;
    const Input jpeg = noise(dir, "rgb.jpg", 1024, 1024, 3);
    check(dir, {"blur", "{0}", "{out}.jpg", "--quality", "100"}, {jpeg});
    check(dir, {"resize", "{0}", "{out}.jpg", "150%", "--quality", "100"}, {jpeg});
}

TEST_CASE("cli memory peaks: the files in flight share --max-memory") {
    TempDir dir;
    // Each file: its 32 MiB table and a 1 MiB image; two fit in 80M, not three.
    std::vector<std::string> args{"integral", "--squared", "-j", "4", "--out-dir", dir.file("tables")};
    const ImageU8 thin = test::photo_like_image(1, 1 << 20, 1);
    for (int i = 0; i < 4; ++i) args.push_back(save(dir.file("t" + std::to_string(i) + ".png"), thin));
    args.insert(args.end(), {"--max-memory", "80M", "--device", "cpu"});
    const std::uint64_t base = test::run_measured({"--version"}).peak_kib;
    const test::PeakRun r = test::run_measured(args);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.peak_kib - std::min(r.peak_kib, base) <= 80 * 1024);  // it was 4 files' worth, 170 MiB
}
