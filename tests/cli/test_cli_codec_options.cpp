// End-to-end: the encoder options of commands that write an image,
// --compression (PNG) and --chroma-subsampling (JPEG): accepted values change
// the file as promised, anything else is a usage error that writes nothing.
#include <doctest/doctest.h>

#include "src/io/load.hpp"
#include "src/io/png_codec.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

TEST_CASE("cli --compression: 0 to 9 write the same pixels; 0 stores; out of range is a usage error") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");
    const ImageU8 pixels = test::load_sample("chelsea.png");
    for (const char* level : {"0", "1", "6", "9"}) {
        const std::string out = dir.file(std::string("c") + level + ".png");
        auto r = run_imgpar({"convert", in, out, "--compression", level});
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        IMGPAR_CHECK_IMAGES_EQUAL(pixels, load_image(out).image);
    }
    if (png_codec_available())  // (stb treats levels below 5 as 5)
        CHECK(test::read_bytes(dir.file("c0.png")).size() > test::read_bytes(dir.file("c1.png")).size() * 3 / 2);
    CHECK(test::read_bytes(dir.file("c9.png")).size() <= test::read_bytes(dir.file("c1.png")).size());

    auto before = dir.entries();
    for (const char* bad : {"10", "-1", "fast", "1.5"}) {
        auto r = run_imgpar({"convert", in, dir.file("bad.png"), "--compression", bad});
        CHECK_MESSAGE(r.exit_code == 2, bad);
        CHECK(has(r.err, "--compression"));
    }
    auto r = run_imgpar({"blur", in, dir.file("bad.png"), "--compression", "12"});
    CHECK(r.exit_code == 2);
    CHECK(dir.entries() == before);
    CHECK(has(run_imgpar({"convert", "--help"}).out, "--compression"));
}

TEST_CASE("cli --chroma-subsampling: each layout writes a JPEG of the full size; others are usage errors") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");
    for (const char* layout : {"auto", "444", "422", "420"}) {
        const std::string out = dir.file(std::string("c") + layout + ".jpg");
        auto r = run_imgpar({"convert", in, out, "--chroma-subsampling", layout, "--quality", "85"});
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        const LoadedImage back = load_image(out);
        CHECK(back.image.width() == test::load_sample("chelsea.png").width());
    }
    // At quality 85 auto means 4:2:0: the same file.
    CHECK(test::read_bytes(dir.file("cauto.jpg")) == test::read_bytes(dir.file("c420.jpg")));

    auto before = dir.entries();
    for (const char* bad : {"411", "4:4:4", ""}) {
        auto r = run_imgpar({"convert", in, dir.file("bad.jpg"), "--chroma-subsampling", bad});
        CHECK_MESSAGE(r.exit_code == 2, bad);
    }
    CHECK(dir.entries() == before);
    CHECK(has(run_imgpar({"blur", "--help"}).out, "--chroma-subsampling"));
}

TEST_CASE("cli --jpeg-encoder: gpu needs results computed on the GPU; other values are usage errors") {
    TempDir dir;
    const std::string in = test::sample_path("rocket.jpg");
    auto r = run_imgpar({"blur", in, dir.file("a.jpg"), "--jpeg-encoder", "gpu", "--device", "cpu"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--jpeg-encoder"));
    CHECK(has(r.err, "--device cpu"));
    r = run_imgpar({"convert", in, dir.file("b.jpg"), "--jpeg-encoder", "gpu"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "computes nothing"));
    r = run_imgpar({"blur", in, dir.file("c.jpg"), "--jpeg-encoder", "fast"});
    CHECK(r.exit_code == 2);
    CHECK(dir.entries().empty());
    // cpu and the default (auto) on the CPU: libjpeg-turbo, the same bytes.
    REQUIRE(run_imgpar({"blur", in, dir.file("d.jpg"), "--jpeg-encoder", "cpu", "--device", "cpu"}).exit_code == 0);
    REQUIRE(run_imgpar({"blur", in, dir.file("e.jpg"), "--device", "cpu"}).exit_code == 0);
    REQUIRE(run_imgpar({"blur", in, dir.file("f.jpg"), "--jpeg-encoder", "auto", "--device", "cpu"}).exit_code == 0);
    CHECK(test::read_bytes(dir.file("d.jpg")) == test::read_bytes(dir.file("e.jpg")));
    CHECK(test::read_bytes(dir.file("f.jpg")) == test::read_bytes(dir.file("e.jpg")));
}

TEST_CASE("cli --jpeg-decoder: hardware and gpu need results computed on the GPU; other values are usage errors") {
    TempDir dir;
    const std::string in = test::sample_path("rocket.jpg");
    auto r = run_imgpar({"blur", in, dir.file("a.jpg"), "--jpeg-decoder", "hardware", "--device", "cpu"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--jpeg-decoder"));
    CHECK(has(r.err, "--device cpu"));
    r = run_imgpar({"convert", in, dir.file("b.jpg"), "--jpeg-decoder", "hardware"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "computes nothing"));
    r = run_imgpar({"blur", in, dir.file("b.jpg"), "--jpeg-decoder", "gpu", "--device", "cpu"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "gpu needs the GPU"));
    r = run_imgpar({"convert", in, dir.file("b.jpg"), "--jpeg-decoder", "gpu"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "computes nothing"));
    r = run_imgpar({"blur", in, dir.file("c.jpg"), "--jpeg-decoder", "nvjpeg"});
    CHECK(r.exit_code == 2);
    CHECK(dir.entries().empty());
    // Every decoder gives libjpeg-turbo's pixels: a batch's bytes do not depend on it.
    const std::string photo = test::read_bytes(in);
    test::write_bytes(dir.file("r1.jpg"), photo);
    test::write_bytes(dir.file("r2.jpg"), photo);
    for (const char* decoder : {"auto", "cpu", "gpu", "hardware"}) {
        const std::string out = dir.file(std::string("out_") + decoder);
        REQUIRE(run_imgpar({"blur", dir.file("r1.jpg"), dir.file("r2.jpg"), "--out-dir", out, "--jpeg-decoder", decoder})
                    .exit_code == 0);
    }
    for (const char* file : {"/r1.jpg", "/r2.jpg"}) {
        const std::string cpu = test::read_bytes(dir.file("out_cpu") + file);
        CHECK(test::read_bytes(dir.file("out_auto") + file) == cpu);
        CHECK(test::read_bytes(dir.file("out_hardware") + file) == cpu);
        CHECK(test::read_bytes(dir.file("out_gpu") + file) == cpu);
    }
    CHECK(has(run_imgpar({"blur", "--help"}).out, "--jpeg-decoder"));
}
