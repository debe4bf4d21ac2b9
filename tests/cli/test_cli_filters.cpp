// End-to-end: blur, box, sharpen, edges and convolve as a user runs them.
#include <doctest/doctest.h>

#include <sstream>

#include "src/gpu_runtime.hpp"
#include "src/io/jpeg_codec.hpp"
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
std::map<std::string, std::string> json_of(const test::RunResult& r) {
    std::string line = r.out.substr(0, r.out.find('\n'));
    std::string why;
    CHECK_MESSAGE(test::is_valid_json(line, &why), line, ": ", why);
    return test::json_members(line);
}
}  // namespace

TEST_CASE("cli filters: every command writes an image of the input's shape") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea_alpha.png");
    struct Run {
        std::vector<std::string> args;
        int channels;
    } runs[] = {
        {{"blur", in, "blur.png", "--sigma", "3"}, 4},
        {{"blur", in, "geom.png", "0x2"}, 4},
        {{"box", in, "box.png", "--radius", "4", "--border", "reflect101"}, 4},
        {{"sharpen", in, "sharp.png", "--amount", "1.5"}, 4},
        {{"edges", in, "edges.png"}, 4},
        {{"edges", in, "edges_gray.png", "--gray", "--op", "scharr"}, 2},
        {{"convolve", in, "conv.png", "--kernel", "1 2 1; 2 4 2; 1 2 1", "--normalize"}, 4},
        // Gray stays gray in JPEG with libjpeg-turbo; stb's encoder writes YCbCr.
        {{"blur", test::sample_path("camera.png"), "cam.jpg", "--border", "constant:128"}, jpeg_codec_available() ? 1 : 3},
    };
    for (const auto& run : runs) {
        auto r = run_imgpar(run.args, dir.path());
        CHECK_MESSAGE(r.exit_code == 0, run.args[0], " ", run.args[2], ": ", r.err);
        CHECK(r.out.empty());
        LoadedImage out = load_image(dir.file(run.args[2]));
        CHECK(out.image.width() == 451 + (run.args[1] == in ? 0 : 61));
        CHECK(out.image.channels() == run.channels);
    }
}

TEST_CASE("cli filters: the geometry form equals --sigma/--radius") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");
    REQUIRE(run_imgpar({"blur", in, "a.png", "5x1.5"}, dir.path()).exit_code == 0);
    REQUIRE(run_imgpar({"blur", in, "b.png", "--radius", "5", "--sigma", "1.5"}, dir.path()).exit_code == 0);
    IMGPAR_CHECK_IMAGES_EQUAL(load_image(dir.file("a.png")).image, load_image(dir.file("b.png")).image);
}

TEST_CASE("cli filters: --json and --verbose state kernel size, border and backend") {
    TempDir dir;
    auto r = run_imgpar({"blur", test::sample_path("camera.png"), "o.png", "--json", "--border", "wrap"}, dir.path());
    REQUIRE(r.exit_code == 0);
    auto m = json_of(r);
    CHECK(m["schema"] == "\"imgpar.image_op/2\"");
    CHECK(m["command"] == "\"blur\"");
    CHECK((m["backend"] == "\"cpu\"" || m["backend"] == "\"gpu\""));
    auto op = test::json_members(m["operation"]);
    CHECK(op["filter"] == "\"gaussian\"");
    CHECK(op["radius"] == "6");
    CHECK(op["border"] == "\"wrap\"");
    auto kernel = test::json_members(op["kernel"]);
    CHECK(kernel["width"] == "13");
    CHECK(kernel["separable"] == "true");

    r = run_imgpar({"convolve", test::sample_path("camera.png"), "o.png", "-v", "--kernel", "0 -1 0; -1 5 -1; 0 -1 0"},
                   dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "3x3"));
    CHECK(has(r.err, "backend"));
    CHECK(has(r.err, "border replicate"));
}

TEST_CASE("cli filters: --device cpu and --device auto give identical bytes") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"blur", "--sigma", "2.5"}, {"box", "--radius", "7"}, {"sharpen"}, {"edges"},
          {"convolve", "--kernel", "1 0 -1; 2 0 -2; 1 0 -1", "--offset=128"}}) {
        std::vector<std::string> a = {args[0], in, "cpu.png", "--device", "cpu"};
        a.insert(a.end(), args.begin() + 1, args.end());
        REQUIRE(run_imgpar(a, dir.path()).exit_code == 0);
        a[2] = "auto.png";
        a[4] = "auto";
        REQUIRE(run_imgpar(a, dir.path()).exit_code == 0);
        IMGPAR_CHECK_IMAGES_EQUAL(load_image(dir.file("cpu.png")).image, load_image(dir.file("auto.png")).image);
    }
}

TEST_CASE("cli filters: --device gpu without a usable GPU fails clearly; auto picks the CPU for a small job") {
    if (gpu_status().usable()) return;  // covered by the GPU suite on GPU machines
    TempDir dir;
    auto r = run_imgpar({"blur", test::sample_path("camera.png"), "o.png", "--device", "gpu"}, dir.path());
    CHECK(r.exit_code == 3);
    CHECK(has(r.err, "no usable GPU"));
    CHECK(dir.entries().empty());
    // auto: a small job runs on the CPU by cost, and -v says why.
    r = run_imgpar({"blur", test::sample_path("camera.png"), "o.png", "-v"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "device auto: the CPU: blur of 1 file (0.3 MP)"));
    CHECK(has(r.err, "less than the GPU would add"));
    CHECK(has(r.err, "backend cpu"));
    r = run_imgpar({"blur", "-q", test::sample_path("camera.png"), "o.png"}, dir.path());
    CHECK(r.err.empty());
}

TEST_CASE("cli filters: auto runs a small batch on the CPU, and -v gives both estimates") {
    // Three small photos: starting and releasing a GPU would cost far more
    // than their compute, on any machine.
    TempDir dir;
    const std::string bytes = test::read_bytes(test::sample_path("camera.png"));
    for (const char* name : {"a.png", "b.png", "c.png"}) test::write_bytes(dir.file(name), bytes);
    const auto r = run_imgpar({"blur", "-v", "--out-dir", "o", "a.png", "b.png", "c.png"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "device auto: the CPU: blur of 3 files (0.3 MP each, as the first) takes about"));
    CHECK(has(r.err, "s a file on one: decode "));
    CHECK(has(r.err, "s with the GPU ("));
    CHECK(has(r.err, "backend cpu"));
    CHECK_FALSE(has(r.err, "backend gpu"));
}

TEST_CASE("cli filters: a GPU that does not exist is exit code 3, on every machine, and writes nothing") {
    TempDir dir;
    auto r = run_imgpar({"blur", test::sample_path("camera.png"), "o.png", "--device", "gpu:63"}, dir.path());
    CHECK(r.exit_code == 3);
    CHECK(has(r.err, "--device gpu"));
    CHECK(dir.entries().empty());
}

TEST_CASE("cli filters: bad parameters are usage errors that say what is allowed, and write nothing") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");
    struct Bad {
        std::vector<std::string> args;
        const char* expect;
    } cases[] = {
        {{"blur", in, "o.png", "--sigma", "0"}, "sigma"},
        {{"blur", in, "o.png", "--sigma", "-1"}, "sigma"},
        {{"blur", in, "o.png", "--sigma", "51"}, "sigma"},
        {{"blur", in, "o.png", "--sigma", "abc"}, "sigma"},
        {{"blur", in, "o.png", "--radius", "151"}, "radius"},
        {{"blur", in, "o.png", "--radius", "-2"}, "radius"},
        {{"blur", in, "o.png", "2y3"}, "geometry"},
        {{"blur", in, "o.png", "0x2", "--sigma", "3"}, "not both"},
        {{"blur", in, "o.png", "--border", "mirror"}, "replicate, reflect, reflect101, wrap, constant"},
        {{"blur", in, "o.png", "--border", "constant:300"}, "0 to 255"},
        {{"box", in, "o.png", "--radius", "0"}, "radius"},
        {{"box", in, "o.png", "--radius", "1001"}, "radius"},
        {{"sharpen", in, "o.png", "--amount", "-1"}, "amount"},
        {{"sharpen", in, "o.png", "--threshold", "2"}, "threshold"},
        {{"edges", in, "o.png", "--op", "canny"}, "sobel"},
        {{"convolve", in, "o.png"}, "--kernel"},
        {{"convolve", in, "o.png", "--kernel", "1 2; 3"}, "row"},
        {{"convolve", in, "o.png", "--kernel", "1 x 1"}, "number"},
        {{"convolve", in, "o.png", "--kernel", ""}, "empty"},
        {{"convolve", in, "o.png", "--kernel", "1 1", "--scale", "0"}, "scale"},
        {{"convolve", in, "o.png", "--kernel", "1 -1", "--normalize"}, "sum"},
        {{"convolve", in, "o.png", "--kernel", "1 1", "--kernel-file", "k.txt"}, "exactly one"},
        {{"blur", in, "-", "--json", "--format", "png"}, "--json"},
    };
    for (const auto& c : cases) {
        auto r = run_imgpar(c.args, dir.path());
        CHECK_MESSAGE(r.exit_code == 2, c.args[0], " ", c.args.back(), ": ", r.err);
        CHECK_MESSAGE(has(r.err, c.expect), c.args[0], " ", c.args.back(), ": ", r.err);
        CHECK(r.out.empty());
    }
    CHECK(dir.entries().empty());
}

TEST_CASE("cli convolve: libvips matrix files, and file errors name the file") {
    TempDir dir;
    test::write_bytes(dir.file("sharpen.mat"), "3 3 1 0\n0 -1 0\n-1 5 -1\n0 -1 0\n");
    test::write_bytes(dir.file("blur.mat"), "3 3 16\n1 2 1\n2 4 2\n1 2 1\n");
    const std::string in = test::sample_path("camera.png");
    auto r = run_imgpar({"convolve", in, "a.png", "--kernel-file", "sharpen.mat"}, dir.path());
    CHECK(r.exit_code == 0);
    REQUIRE(run_imgpar({"convolve", in, "b.png", "--kernel", "0 -1 0; -1 5 -1; 0 -1 0"}, dir.path()).exit_code == 0);
    IMGPAR_CHECK_IMAGES_EQUAL(load_image(dir.file("a.png")).image, load_image(dir.file("b.png")).image);

    REQUIRE(run_imgpar({"convolve", in, "c.png", "--kernel-file", "blur.mat"}, dir.path()).exit_code == 0);
    REQUIRE(run_imgpar({"convolve", in, "d.png", "--kernel", "1 2 1; 2 4 2; 1 2 1", "--normalize"}, dir.path()).exit_code == 0);
    IMGPAR_CHECK_IMAGES_EQUAL(load_image(dir.file("c.png")).image, load_image(dir.file("d.png")).image);

    r = run_imgpar({"convolve", in, "e.png", "--kernel-file", "missing.mat"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "missing.mat"));
    test::write_bytes(dir.file("bad.mat"), "3 2\n1 2 3\n4 5\n");
    r = run_imgpar({"convolve", in, "e.png", "--kernel-file", "bad.mat"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "bad.mat"));
    CHECK_FALSE(test::file_exists(dir.file("e.png")));
}

TEST_CASE("cli filters: a bad input is exit 1 and names the file; an existing output survives") {
    TempDir dir;
    test::write_bytes(dir.file("out.png"), "precious");
    test::write_bytes(dir.file("broken.png"), "\x89PNG\r\n\x1a\nbroken");
    auto r = run_imgpar({"blur", "broken.png", "out.png"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "broken.png"));
    CHECK(test::read_bytes(dir.file("out.png")) == "precious");
    r = run_imgpar({"edges", test::sample_path("camera.png"), "nowhere/out.png"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "does not exist"));
}
