// End-to-end: imgpar resize. The forms of the size (geometry, --width,
// --height, --scale, --fit, --fill with gravity), the filters, what -v and
// --json say, mistakes (exit 2, nothing written), an image too small or too
// large for the geometry failing alone in a batch, and resize in chains.
#include <doctest/doctest.h>

#include <filesystem>

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

namespace fs = std::filesystem;

namespace {

std::string size_of(const std::string& path) {
    const ImageHeader h = read_image_header(path, read_image_file(path, {}), {});
    return std::to_string(h.width) + "x" + std::to_string(h.height) + "x" + std::to_string(h.channels);
}

}  // namespace

TEST_CASE("cli resize: every form of the size gives the size it states") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");  // 451x300 RGB
    const std::string out = dir.file("o.png");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"50%"}, "226x150x3"},
        {{"200x200"}, "200x133x3"},
        {{"200x200!"}, "200x200x3"},
        {{"200x200^"}, "301x200x3"},
        {{"1000x1000>"}, "451x300x3"},
        {{"100x"}, "100x67x3"},
        {{"x30"}, "45x30x3"},
        {{"--width", "90"}, "90x60x3"},
        {{"--height", "60", "--width", "17"}, "17x60x3"},
        {{"--scale", "0.5x2"}, "226x600x3"},
        {{"--fit", "100x100"}, "100x67x3"},
        {{"--fill", "100x100"}, "100x100x3"},
        {{"--fill", "64x32", "--gravity", "southeast", "--filter", "area"}, "64x32x3"},
        {{"13x13!", "--filter", "nearest"}, "13x13x3"},
    };
    for (const auto& [args, want] : cases) {
        std::vector<std::string> a = {"resize", in, out, "--device", "cpu"};
        a.insert(a.end(), args.begin(), args.end());
        CAPTURE(want);
        const auto r = run_imgpar(a);
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        CHECK(size_of(out) == want);
    }
    // Alpha is kept; gray stays gray.
    REQUIRE(run_imgpar({"resize", test::sample_path("chelsea_alpha.png"), out, "33%"}).exit_code == 0);
    CHECK(size_of(out) == "149x99x4");
    REQUIRE(run_imgpar({"resize", test::sample_path("camera.png"), out, "--scale", "0.1"}).exit_code == 0);
    CHECK(size_of(out) == "51x51x1");
}

TEST_CASE("cli resize: -v and --json name the filters, the sizes and the kernel") {
    TempDir dir;
    const auto r = run_imgpar({"resize", test::sample_path("rocket.jpg"), dir.file("o.jpg"), "--fill", "100x50", "-v",
                               "--json", "--device", "cpu"});
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "resize: lanczos3 640x427 -> 100x67, kept 100x50+0+8"));
    const auto m = test::json_members(lines(r.out).at(0));
    CHECK(m.at("output_width") == "100");
    CHECK(m.at("output_height") == "50");
    CHECK(has(m.at("operation"), "\"resized_width\":100"));
    CHECK(has(m.at("operation"), "\"filter_down\":\"lanczos3\""));
    CHECK(has(m.at("kernel"), "separable"));
}

TEST_CASE("cli resize: mistakes are usage errors that write nothing") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{}, "give one of a geometry"},
        {{"50%", "--width", "10"}, "give either a geometry or --width"},
        {{"--fit", "10x10", "--fill", "10x10"}, "give only one of"},
        {{"--scale", "0"}, "--scale: '0' is not a scale factor"},
        {{"--scale", "101"}, "--scale"},
        {{"--fit", "10"}, "--fit: '10' is not WxH"},
        {{"--fill", "0x10"}, "--fill: '0' is not a size in pixels"},
        {{"--width", "20", "--gravity", "north"}, "--gravity: places the crop of --fill"},
        {{"--fill", "10x10", "--gravity", "up"}, "--gravity"},
        {{"50%", "--filter", "gaussian"}, "--filter"},
        {{"fifty"}, "is not a geometry"},
    };
    for (const auto& [args, message] : cases) {
        std::vector<std::string> a = {"resize", in, dir.file("o.png")};
        a.insert(a.end(), args.begin(), args.end());
        CAPTURE(message);
        const auto r = run_imgpar(a);
        CHECK(r.exit_code == 2);
        CHECK_MESSAGE(has(r.err, message), r.err);
    }
    CHECK(dir.entries().empty());
}

TEST_CASE("cli resize: a result beyond the pixel limit fails that file alone; resize in a chain and a batch") {
    TempDir dir;
    fs::create_directories(dir.file("in"));
    fs::copy_file(test::sample_path("camera.png"), dir.file("in/camera.png"));
    fs::copy_file(test::sample_path("rocket.jpg"), dir.file("in/rocket.jpg"));
    // 512x512 times 100 is 2.6e9 pixels, beyond 2^28; 640x427 too.
    auto r = run_imgpar({"resize", "--scale", "100", "--out-dir", "out", "in/camera.png", "in/rocket.jpg"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "camera.png: resized to 51200x51200 it would have more than 268435456 pixels"));
    r = run_imgpar({"chain", "resize 50% --filter area | blur --sigma 1 | sharpen", "--out-dir", "out", "--device", "cpu",
                    "in/camera.png", "in/rocket.jpg"},
                   dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(size_of(dir.file("out/camera.png")) == "256x256x1");
    CHECK(size_of(dir.file("out/rocket.jpg")) == "320x214x3");
}

TEST_CASE("cli thumbnail: fits or fills the box, shrinks JPEGs on load to the same size, upright, ICC profile only") {
    if (!jpeg_codec_available()) return;
    TempDir dir;
    // A 1000x600 JPEG whose EXIF says orientation 6 (turn 90 clockwise), with an ICC profile.
    ImageMetadata m;
    m.exif = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0};
    m.icc.assign(600, 7);
    const ImageU8 photo = test::photo_like_image(1000, 600, 3, 5);
    const std::vector<std::uint8_t> jpeg = jpeg_encode(photo.view(), 90, ChromaSubsampling::Auto, &m);
    test::write_bytes(dir.file("in.jpg"), std::string(jpeg.begin(), jpeg.end()));

    auto r = run_imgpar({"thumbnail", "in.jpg", "t.jpg", "--size", "100x100", "-v", "--device", "cpu"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(size_of(dir.file("t.jpg")) == "60x100x3");  // upright: 600x1000, fitted
    CHECK(has(r.err, "shrink-on-load: decoded at 1/8, 75x125 RGB of 1000x600"));
    const ImageMetadata kept = load_image(dir.file("t.jpg")).header.metadata;
    CHECK(kept.exif.empty());
    CHECK(kept.icc == m.icc);
    // The same size without shrink-on-load; close pixels (another decode).
    REQUIRE(run_imgpar({"thumbnail", "in.jpg", "whole.jpg", "--size", "100x100", "--no-shrink-on-load"}, dir.path())
                .exit_code == 0);
    CHECK(size_of(dir.file("whole.jpg")) == "60x100x3");
    r = run_imgpar({"compare", "t.jpg", "whole.jpg", "--json", "--no-ssim"}, dir.path());
    CHECK(test::json_members(lines(r.out).at(0)).count("all"));

    REQUIRE(run_imgpar({"thumbnail", "in.jpg", "c.png", "--size", "64x32", "--crop", "--keep-metadata"}, dir.path())
                .exit_code == 0);
    CHECK(size_of(dir.file("c.png")) == "64x32x3");
    CHECK_FALSE(load_image(dir.file("c.png")).header.metadata.exif.empty());
    // A box larger than the image: fitted as resize fits (enlarged), decoded whole.
    REQUIRE(run_imgpar({"thumbnail", "in.jpg", "big.png", "--size", "2000x2000"}, dir.path()).exit_code == 0);
    CHECK(size_of(dir.file("big.png")) == "1200x2000x3");
    CHECK(run_imgpar({"thumbnail", "in.jpg", "x.png", "--size", "64"}, dir.path()).exit_code == 2);
    CHECK(run_imgpar({"thumbnail", "in.jpg", "x.png", "--gravity", "north"}, dir.path()).exit_code == 2);
}

TEST_CASE("cli thumbnail: --device auto weighs the image decoded smaller, so a batch of thumbnails stays on the CPU") {
    // 2400x1600 JPEGs thumbnailed to 256: decoded at 1/8, a file is mostly
    // its Huffman decoding on a core whichever backend computes, so starting
    // and releasing a GPU cannot pay (it was chosen while the estimate took
    // the resize and the copies at the full size).
    if (!jpeg_codec_available()) return;
    TempDir dir;
    const ImageU8 photo = test::photo_like_image(2400, 1600, 3, 9);
    const std::vector<std::uint8_t> jpeg = jpeg_encode(photo.view(), 90, ChromaSubsampling::Auto, nullptr);
    std::vector<std::string> args = {"thumbnail", "--size", "256x256", "-v", "--out-dir", "out"};
    for (int i = 0; i < 40; ++i) {
        const std::string name = "p" + std::to_string(i) + ".jpg";
        test::write_bytes(dir.file(name), std::string(jpeg.begin(), jpeg.end()));
        args.push_back(name);
    }
    const auto r = run_imgpar(args, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(has(r.err, "device auto: the CPU: thumbnail of 40 files (3.8 MP each, as the first, decoded at 1/8)"));
    CHECK(has(r.err, "backend cpu"));
    CHECK_FALSE(has(r.err, "backend gpu"));
}
