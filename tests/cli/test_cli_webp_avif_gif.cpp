// End-to-end: WebP, AVIF and GIF through the commands as a user runs them:
// any command reads them and writes WebP and AVIF, a batch mixes formats,
// info describes each, --lossless and --quality reach the encoders (and
// warn where no output uses them), GIF outputs are a usage error, EXIF and
// ICC are kept (or --strip'ped), and hostile files fail alone, naming
// themselves, leaving nothing behind.
#include <doctest/doctest.h>

#include "src/io/avif_codec.hpp"
#include "src/io/gif_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "src/io/webp_codec.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/load_checks.hpp"
#include "tests/support/peak_rss.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

bool have_all() {
    if (webp_codec_available() && avif_codec_available() && avif_encoder_available() && gif_codec_available())
        return true;
    MESSAGE("this build lacks libwebp, libavif (with an encoder) or giflib: skipped");
    return false;
}

void copy_data(const TempDir& dir, const std::string& name, const std::string& as = "") {
    test::write_bytes(dir.file(as.empty() ? name : as), test::read_bytes(test::data_path(name)));
}

}  // namespace

TEST_CASE("cli formats: commands read WebP, AVIF and GIF and write WebP and AVIF") {
    if (!have_all()) return;
    TempDir dir;
    copy_data(dir, "rgba.avif");
    copy_data(dir, "anim.gif");
    auto r = run_imgpar({"convert", test::sample_path("chelsea.png"), "in.webp"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = run_imgpar({"blur", "in.webp", "out.avif", "--sigma", "2"}, dir.path());
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(load_image(dir.file("out.avif")).image.channels() == 3);
    r = run_imgpar({"chain", "resize --fit 32x32 | sharpen", "rgba.avif", "out.webp"}, dir.path());
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(load_image(dir.file("out.webp")).image.channels() == 4);
    r = run_imgpar({"convert", "anim.gif", "first.png"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "warning: anim.gif: animated GIF of 3 frames: the first frame is read"));
    r = run_imgpar({"stats", "-q", "anim.gif"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
}

TEST_CASE("cli formats: info names each format, size, layout and depth") {
    if (!have_all()) return;
    TempDir dir;
    for (const char* name : {"anim.webp", "deep10.avif", "gray.avif", "trns_interlaced.gif"}) copy_data(dir, name);
    const auto r = run_imgpar({"info", "anim.webp", "deep10.avif", "gray.avif", "trns_interlaced.gif"}, dir.path());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(has(r.out, "anim.webp: webp 64x43 RGBA (4 channels), 8-bit, 3 pages, "));
    CHECK(has(r.out, "deep10.avif: avif 64x43 RGB (3 channels), 10-bit"));
    CHECK(has(r.out, "gray.avif: avif 64x43 gray (1 channel), 8-bit"));
    CHECK(has(r.out, "trns_interlaced.gif: gif 64x43 RGBA (4 channels), stored palette, 8-bit, 1 page, "));
}

TEST_CASE("cli formats: a batch mixing every format runs each file, a broken one failing alone") {
    if (!have_all()) return;
    TempDir dir;
    test::write_bytes(dir.file("a.png"), test::read_bytes(test::sample_path("camera.png")));
    test::write_bytes(dir.file("b.jpg"), test::read_bytes(test::sample_path("rocket.jpg")));
    copy_data(dir, "anim.webp", "c.webp");
    copy_data(dir, "deep10.avif", "d.avif");
    copy_data(dir, "offset.gif", "e.gif");
    const std::string webp = test::read_bytes(test::data_path("anim.webp"));
    test::write_bytes(dir.file("f.webp"), webp.substr(0, webp.size() / 2));
    auto r = run_imgpar({"blur", "a.png", "b.jpg", "c.webp", "d.avif", "e.gif", "f.webp", "--out-dir", "o", "--format",
                         "webp", "--lossless"},
                        dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "f.webp"));
    CHECK(has(r.err, "truncated"));
    // Blurred at 16 bits, then reduced for the WebP output.
    CHECK(has(r.err, "d.webp: WebP output holds 8 bits per sample: the 16-bit image reduced to 8 bits"));
    for (const char* out : {"a.webp", "b.webp", "c.webp", "d.webp", "e.webp"}) CHECK(test::file_exists(dir.file("o/" + std::string(out))));
    CHECK(!test::file_exists(dir.file("o/f.webp")));
    // --lossless kept every pixel of the GIF's blur (its bare screen transparent).
    CHECK(load_image(dir.file("o/e.webp")).image.channels() == 4);
}

TEST_CASE("cli formats: --lossless is exact, --quality sets WebP and AVIF, and unused options warn") {
    if (!have_all()) return;
    TempDir dir;
    const std::string in = test::sample_path("chelsea_alpha.png");
    auto r = run_imgpar({"convert", in, "l.webp", "--lossless"}, dir.path());
    REQUIRE(r.exit_code == 0);
    IMGPAR_CHECK_IMAGES_EQUAL(load_image(in).image, load_image(dir.file("l.webp")).image);
    r = run_imgpar({"convert", in, "q30.webp", "--quality", "30"}, dir.path());
    REQUIRE(r.exit_code == 0);
    r = run_imgpar({"convert", in, "q90.webp", "-v"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "(webp, quality 90)"));
    CHECK(test::read_bytes(dir.file("q30.webp")).size() < test::read_bytes(dir.file("q90.webp")).size());
    r = run_imgpar({"convert", in, "q.avif", "-v"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "(avif, quality 60)"));

    r = run_imgpar({"convert", in, "x.png", "--lossless"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "--lossless applies to WebP outputs; x.png is PNG: ignored"));
    r = run_imgpar({"convert", in, "y.png", "--quality", "50"}, dir.path());
    CHECK(has(r.err, "--quality applies to JPEG, WebP and AVIF outputs; y.png is PNG: ignored"));
    r = run_imgpar({"convert", in, "z.webp", "--quality", "50"}, dir.path());
    CHECK(r.err.empty());
}

TEST_CASE("cli formats: GIF is read only: a .gif output or --format gif is a usage error") {
    TempDir dir;
    auto r = run_imgpar({"convert", test::sample_path("camera.png"), "out.gif"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "out.gif: imgpar reads GIF but does not write it"));
    r = run_imgpar({"convert", test::sample_path("camera.png"), "-", "--format", "gif"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(dir.entries().empty());
}

TEST_CASE("cli formats: EXIF and ICC go through WebP and AVIF, and --strip drops them") {
    if (!have_all()) return;
    TempDir dir;
    // A JPEG with both, made by imgpar from a PNG whose metadata it keeps.
    ImageMetadata m;
    m.icc = std::vector<std::uint8_t>(400, 9);
    m.exif = {'I', 'I', '*', 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    SaveOptions o;
    o.metadata = &m;
    std::vector<std::string> warnings;
    save_image(dir.file("m.png"), test::photo_like_image(40, 30, 3, 1).view(), o, warnings);
    for (const char* out : {"m.webp", "m.avif"}) {
        CAPTURE(out);
        auto r = run_imgpar({"blur", "m.png", out}, dir.path());
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        const ImageHeader h = read_image_header(out, test::file_vector(dir.file(out)), LoadOptions{});
        CHECK(h.metadata.icc == m.icc);
        CHECK(h.metadata.exif == m.exif);
        r = run_imgpar({"blur", "m.png", std::string("s") + out, "--strip"}, dir.path());
        REQUIRE(r.exit_code == 0);
        CHECK(read_image_header(out, test::file_vector(dir.file(std::string("s") + out)), LoadOptions{}).metadata.empty());
    }
}

TEST_CASE("cli formats: hostile WebP, AVIF and GIF files fail with exit 1, naming the file, writing nothing") {
    if (!have_all()) return;
    TempDir dir;
    const std::string gif = test::read_bytes(test::data_path("trns_interlaced.gif"));
    test::write_bytes(dir.file("cut.gif"), gif.substr(0, gif.size() / 2));
    const std::string avif = test::read_bytes(test::data_path("rgba.avif"));
    test::write_bytes(dir.file("cut.avif"), avif.substr(0, avif.size() / 2));
    // A WebP whose extended header claims a canvas of 2^24 x 2^24.
    test::write_bytes(dir.file("huge.webp"), std::string("RIFF\x16\0\0\0WEBPVP8X\x0a\0\0\0\0\0\0\0\xff\xff\xff\xff\xff\xff", 30));
    for (const char* name : {"cut.gif", "cut.avif", "huge.webp"}) {
        CAPTURE(name);
        const auto r = run_imgpar({"blur", name, "out.png"}, dir.path());
        CHECK(r.exit_code == 1);
        CHECK(has(r.err, name));
        CHECK(!test::file_exists(dir.file("out.png")));
    }
    const auto r = run_imgpar({"blur", "huge.webp", "out.png"}, dir.path());
    CHECK(has(r.err, "16777216x16777216"));
    // A lossless header claiming 16383 x 16383 (within the limits) for a
    // 5 x 5 image's data: refused from its first pixel, before the 768 MiB
    // image is allocated and cleared (libwebp's own ARGB buffer is reserved,
    // never touched): the run stays small.
    auto lossless = webp_encode(test::random_image(5, 5, 3, 1).view(), WebpEncodeOptions{90, true, nullptr});
    REQUIRE(lossless[20] == 0x2f);
    const std::uint32_t bits = (std::uint32_t{lossless[24]} << 24 & 0xf0000000u) | 16382u | (16382u << 14);
    for (int i = 0; i < 4; ++i) lossless[static_cast<std::size_t>(21 + i)] = static_cast<std::uint8_t>(bits >> (8 * i));
    test::write_bytes(dir.file("claims.webp"), std::string(lossless.begin(), lossless.end()));
    const test::PeakRun c = test::run_measured({"convert", dir.file("claims.webp"), dir.file("out.png")});
    CHECK(c.exit_code == 1);
    CHECK(c.peak_kib < 100 * 1024);
    CHECK(has(c.err, "claims.webp: the WebP could not be decoded: the bitstream is corrupt"));
    // A partial GIF decodes with --allow-partial, saying so.
    const auto p = run_imgpar({"convert", "cut.gif", "part.png", "--allow-partial"}, dir.path());
    CHECK(p.exit_code == 0);
    CHECK(has(p.err, "cut.gif"));
    CHECK(has(p.err, "--allow-partial"));
}
