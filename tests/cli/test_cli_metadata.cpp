// End-to-end: EXIF and ICC profiles go from input to output (JPEG and PNG),
// --strip drops them, --auto-orient turns the pixels upright, info shows them.
#include <doctest/doctest.h>

#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/png_codec.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

// A little-endian TIFF block with one entry: Orientation = `o`.
std::vector<std::uint8_t> exif_with_orientation(int o) {
    return {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, static_cast<std::uint8_t>(o), 0, 0, 0,
            0, 0, 0, 0};
}

std::vector<std::uint8_t> fake_profile() {
    std::vector<std::uint8_t> icc(3000);
    for (std::size_t i = 0; i < icc.size(); ++i) icc[i] = static_cast<std::uint8_t>(i * 13 + 1);
    return icc;
}

ImageMetadata metadata_of(const std::string& path) { return load_image(path).header.metadata; }

}  // namespace

TEST_CASE("cli metadata: kept through blur and convert, into JPEG and PNG; --strip drops it") {
    if (!jpeg_codec_available()) return;
    TempDir dir;
    ImageMetadata m;
    m.exif = exif_with_orientation(6);
    m.icc = fake_profile();
    const ImageU8 photo = test::photo_like_image(64, 40, 3, 9);
    const std::vector<std::uint8_t> jpeg = jpeg_encode(photo.view(), 90, ChromaSubsampling::Auto, &m);
    test::write_bytes(dir.file("in.jpg"), std::string(jpeg.begin(), jpeg.end()));

    REQUIRE(run_imgpar({"blur", "in.jpg", "out.jpg"}, dir.path()).exit_code == 0);
    CHECK(metadata_of(dir.file("out.jpg")).exif == m.exif);
    CHECK(metadata_of(dir.file("out.jpg")).icc == m.icc);
    REQUIRE(run_imgpar({"convert", "in.jpg", "out.png"}, dir.path()).exit_code == 0);
    CHECK(metadata_of(dir.file("out.png")).exif == m.exif);
    if (png_codec_available()) CHECK(metadata_of(dir.file("out.png")).icc == m.icc);
    // And back from PNG to JPEG.
    REQUIRE(run_imgpar({"convert", "out.png", "again.jpg"}, dir.path()).exit_code == 0);
    CHECK(metadata_of(dir.file("again.jpg")).exif == m.exif);

    REQUIRE(run_imgpar({"blur", "--strip", "in.jpg", "bare.jpg"}, dir.path()).exit_code == 0);
    CHECK(metadata_of(dir.file("bare.jpg")).empty());
    REQUIRE(run_imgpar({"convert", "--strip", "in.jpg", "bare.png"}, dir.path()).exit_code == 0);
    CHECK(metadata_of(dir.file("bare.png")).empty());

    auto r = run_imgpar({"info", "in.jpg"}, dir.path());
    CHECK(has(r.out, "orientation 6, rotated 90 clockwise"));
    CHECK(has(r.out, "ICC profile 3000 bytes"));
    r = run_imgpar({"info", "--json", "in.jpg", "bare.jpg"}, dir.path());
    const auto ls = test::lines(r.out);
    REQUIRE(ls.size() == 2);
    const auto j0 = test::json_members(ls[0]);
    CHECK(j0.at("orientation") == "6");
    CHECK(j0.at("icc_bytes") == "3000");
    CHECK(test::json_members(ls[1]).at("orientation") == "null");
    r = run_imgpar({"blur", "-v", "in.jpg", "v.jpg"}, dir.path());
    CHECK(has(r.err, "metadata written: EXIF"));
}

TEST_CASE("cli metadata: --auto-orient turns the pixels upright and sets the orientation to 1") {
    if (!jpeg_codec_available()) return;
    TempDir dir;
    const ImageU8 photo = test::photo_like_image(50, 30, 3, 11);
    for (int o = 1; o <= 8; ++o) {
        CAPTURE(o);
        ImageMetadata m;
        m.exif = exif_with_orientation(o);
        const std::vector<std::uint8_t> jpeg = jpeg_encode(photo.view(), 95, ChromaSubsampling::Auto, &m);
        test::write_bytes(dir.file("o.jpg"), std::string(jpeg.begin(), jpeg.end()));
        REQUIRE(run_imgpar({"convert", "--auto-orient", "o.jpg", "up.png"}, dir.path()).exit_code == 0);
        const LoadedImage stored = load_image(dir.file("o.jpg"));
        const LoadedImage up = load_image(dir.file("up.png"));
        IMGPAR_CHECK_IMAGES_EQUAL(apply_orientation(stored.image.view(), o), up.image);
        CHECK(up.image.width() == (o >= 5 ? 30 : 50));
        CHECK(exif_orientation(up.header.metadata.exif) == 1);
        // Without it, the pixels stay as stored and so does the tag.
        REQUIRE(run_imgpar({"convert", "o.jpg", "same.png"}, dir.path()).exit_code == 0);
        CHECK(exif_orientation(load_image(dir.file("same.png")).header.metadata.exif) == o);
    }
}
