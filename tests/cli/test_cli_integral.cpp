// End-to-end: imgpar integral writes .npy arrays that hold the exact table
// (checked here against the reference, and by NumPy and OpenCV where
// python3 has numpy and cv2), refuses names and places it cannot write
// before reading anything, and runs over many files as the image commands.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "src/io/load.hpp"
#include "src/io/npy.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/integral_reference.hpp"
#include "tests/support/python_peer.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

// Checks the .npy at `path` against the reference table of `image`: header,
// type and every entry. Returns the header.
NpyHeader check_npy(const std::string& path, const ImageU8& image, bool squared, const std::string& descr) {
    const std::string file = test::read_bytes(path);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(file.data());
    const NpyHeader h = parse_npy_header(path, bytes, file.size());
    CHECK(h.descr == descr);
    CHECK_FALSE(h.fortran_order);
    std::vector<std::size_t> shape;
    if (squared) shape.push_back(2);
    shape.push_back(static_cast<std::size_t>(image.height()) + 1);
    shape.push_back(static_cast<std::size_t>(image.width()) + 1);
    if (image.channels() > 1) shape.push_back(static_cast<std::size_t>(image.channels()));
    CHECK(h.shape == shape);
    const SumType type = descr == "<u4" ? SumType::U32 : descr == "<u8" ? SumType::U64 : SumType::F64;
    const SumTableView t = sum_table_view(const_cast<std::uint8_t*>(bytes) + h.data_offset, type, image.width(),
                                          image.height(), image.channels(), squared);
    REQUIRE(h.data_offset + t.row_bytes() * t.height * t.planes == file.size());
    CHECK(test::check_table_against_reference(image.view(), t) == 0);
    return h;
}

// Loads the array with numpy.load alone, and compares it with OpenCV's
// cv2.integral / cv2.integral2 of the same PNG (OpenCV reads colour as BGR).
constexpr const char* kOpenCvCheck = R"(import sys
import numpy as np
npy, png, squared, dtype = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
table = np.load(npy)
import cv2
img = cv2.imread(png, cv2.IMREAD_UNCHANGED)
if img.ndim == 3:
    img = img[..., [2, 1, 0, 3][: img.shape[2]]] if img.shape[2] == 4 else img[..., ::-1]
img = np.ascontiguousarray(img)
assert table.dtype == np.dtype(dtype), (table.dtype, dtype)
if squared:
    sums, squares = table
    want_sums, want_squares = cv2.integral2(img, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
    ok = np.array_equal(sums.astype(np.float64), want_sums) and np.array_equal(squares.astype(np.float64), want_squares)
else:
    want = cv2.integral(img, sdepth=cv2.CV_64F)
    ok = table.shape == want.shape and np.array_equal(table.astype(np.float64), want)
print("equal" if ok else "DIFFERENT", table.shape)
)";

}  // namespace

TEST_CASE("cli integral: the .npy holds the exact table, of sums or of sums and squares, in the type asked") {
    TempDir dir;
    const ImageU8 chelsea = load_image(test::sample_path("chelsea.png")).image;
    const ImageU8 camera = load_image(test::sample_path("camera.png")).image;
    auto r = run_imgpar({"integral", test::sample_path("chelsea.png"), "t.npy", "--device", "cpu"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    check_npy(dir.file("t.npy"), chelsea, false, "<u4");
    r = run_imgpar({"integral", test::sample_path("camera.png"), "sq.npy", "--squared", "--device", "cpu"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    check_npy(dir.file("sq.npy"), camera, true, "<u8");  // 512x512 x 255^2 passes 32 bits
    r = run_imgpar({"integral", test::sample_path("chelsea_alpha.png"), "f.NPY", "--dtype", "f64", "--device", "cpu"},
                   dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    check_npy(dir.file("f.NPY"), load_image(test::sample_path("chelsea_alpha.png")).image, false, "<f8");
    r = run_imgpar({"integral", test::sample_path("camera.png"), "-", "--dtype", "u64", "--device", "cpu"}, dir.path());
    CHECK(r.exit_code == 0);
    test::write_bytes(dir.file("stdout.npy"), r.out);
    check_npy(dir.file("stdout.npy"), camera, false, "<u8");
}

TEST_CASE("cli integral: --json says the type written and the shape") {
    TempDir dir;
    const auto r = run_imgpar({"integral", test::sample_path("chelsea.png"), "t.npy", "--json", "--squared", "--device", "cpu"},
                              dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(has(r.out, "\"schema\":\"imgpar.array_op/1\""));
    CHECK(has(r.out, "\"dtype\":\"u64\""));
    CHECK(has(r.out, "\"dtype_requested\":\"auto\""));
    CHECK(has(r.out, "\"squared\":true"));
    CHECK(has(r.out, "\"shape\":[2,301,452,3]"));
}

TEST_CASE("cli integral: names and places it cannot write are usage errors, and nothing is written") {
    TempDir dir;
    fs::create_directory(dir.file("folder.npy"));
    const std::string in = test::sample_path("camera.png");
    const std::vector<std::vector<std::string>> cases = {
        {"integral", in, "t.png"},
        {"integral", in, "t"},
        {"integral", in, ".npy/"},
        {"integral", in, "missing/t.npy"},
        {"integral", in, "folder.npy"},
        {"integral", in, "t.npy", "--dtype", "i32"},
        {"integral", in, in, "--out-dir", "out"},
        {"integral", in, "-o", "{stem}.png"},
        {"integral", in, "t.npy", "extra"},
    };
    for (const auto& args : cases) {
        CAPTURE(args.back());
        const auto r = run_imgpar(args, dir.path());
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
    }
    CHECK(has(run_imgpar({"integral", in, "t.png"}, dir.path()).err, "allowed: a name ending in .npy"));
    CHECK(dir.entries() == std::vector<std::string>{"folder.npy"});
}

TEST_CASE("cli integral: many inputs with --out-dir and --output, one .npy each") {
    TempDir dir;
    fs::copy_file(test::sample_path("camera.png"), dir.file("camera.png"));
    fs::copy_file(test::sample_path("chelsea.png"), dir.file("chelsea.png"));
    auto r = run_imgpar({"integral", "camera.png", "chelsea.png", "--out-dir", "tables", "--device", "cpu"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    check_npy(dir.file("tables/camera.npy"), load_image(dir.file("camera.png")).image, false, "<u4");
    check_npy(dir.file("tables/chelsea.npy"), load_image(dir.file("chelsea.png")).image, false, "<u4");
    r = run_imgpar({"integral", "camera.png", "chelsea.png", "-o", "t/{stem}_sat.npy", "--device", "cpu"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(fs::exists(dir.file("t/camera_sat.npy")));
    CHECK(fs::exists(dir.file("t/chelsea_sat.npy")));
    // A file that fails (missing) is reported and the others are written.
    r = run_imgpar({"integral", "camera.png", "nope.png", "--out-dir", "more", "--device", "cpu"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "nope.png"));
    CHECK(fs::exists(dir.file("more/camera.npy")));
}

TEST_CASE("cli integral: numpy.load reads the file, and it equals OpenCV's cv2.integral and cv2.integral2") {
    const std::string python = test::python_with("import numpy, cv2");
    if (python.empty()) {
        MESSAGE("python3 with numpy and cv2 not installed: this check needs python3-numpy and python3-opencv");
        return;
    }
    TempDir dir;
    test::write_bytes(dir.file("check.py"), kOpenCvCheck);
    std::vector<std::string> pngs = {test::sample_path("chelsea.png"), test::sample_path("camera.png"),
                                     test::sample_path("chelsea_alpha.png")};
    // Awkward sizes and every layout, written as PNG (exact) for OpenCV to read.
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 37}, {37, 1}, {97, 211}, {33, 31}};
    int n = 0;
    for (const auto& [w, h] : sizes)
        for (int c : {1, 3, 4}) {
            const std::string png = dir.file("gen" + std::to_string(n++) + ".png");
            std::vector<std::string> warnings;
            save_image(png, test::random_image(w, h, c, static_cast<unsigned>(n)).view(), SaveOptions{}, warnings);
            pngs.push_back(png);
        }
    for (const std::string& png : pngs)
        for (const auto& [squared, dtype] : {std::pair<bool, std::string>{false, "auto"}, {true, "auto"}, {false, "f64"}}) {
            CAPTURE(png);
            CAPTURE(squared);
            CAPTURE(dtype);
            std::vector<std::string> args = {"integral", png, "t.npy", "--dtype", dtype, "--device", "cpu"};
            if (squared) args.push_back("--squared");
            const auto r = run_imgpar(args, dir.path());
            REQUIRE_MESSAGE(r.exit_code == 0, r.err);
            const std::string written = test::read_bytes(dir.file("t.npy"));
            const std::string descr =
                parse_npy_header("t.npy", reinterpret_cast<const std::uint8_t*>(written.data()), written.size()).descr;
            const std::string numpy_type = descr == "<u4" ? "uint32" : descr == "<u8" ? "uint64" : "float64";
            const std::string cmd = python + " '" + dir.file("check.py") + "' '" + dir.file("t.npy") + "' '" + png + "' " +
                                    (squared ? "1 " : "0 ") + numpy_type + " > '" + dir.file("py.txt") + "' 2>&1";
            CHECK(std::system(cmd.c_str()) == 0);
            const std::string said = test::read_bytes(dir.file("py.txt"));
            CHECK_MESSAGE((has(said, "equal") && !has(said, "DIFFERENT")), said);
        }
}
