// TIFF from the command line: imgpar's TIFFs (each compression, each
// layout) are read back by libtiff's tools (tiffinfo, tiffcmp) and by
// libvips with imgpar's pixels; --compression takes each format's values
// and refuses the other's; multi-page files by page; CMYK, palette and
// 16-bit inputs made by Pillow; cut files refused with nothing written.
// The checks that need a tool say so and are skipped where it is missing.
#include <doctest/doctest.h>

#include <cstdlib>

#include "src/io/load.hpp"
#include "src/io/tiff_codec.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/python_peer.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

bool have(const std::string& tool) { return std::system(("command -v " + tool + " > /dev/null 2>&1").c_str()) == 0; }

int sh(const std::string& cmd) { return std::system((cmd + " > /dev/null 2>&1").c_str()); }

std::string packed(const ImageU8& img) {
    return std::string(reinterpret_cast<const char*>(img.data()), img.size_bytes());
}

}  // namespace

TEST_CASE("cli TIFF: each compression and layout reads back in tiffinfo, tiffcmp and libvips with imgpar's pixels") {
    if (!tiff_codec_available()) {
        MESSAGE("this build has no libtiff: skipped");
        return;
    }
    TempDir dir;
    const bool tools = have("tiffinfo") && have("tiffcmp");
    const bool vips = have("vips");
    if (!tools) MESSAGE("tiffinfo/tiffcmp not installed (libtiff-tools): those checks are skipped");
    if (!vips) MESSAGE("vips not installed (libvips-tools): those checks are skipped");
    int checked = 0;
    for (int channels = 1; channels <= 4; ++channels) {
        const ImageU8 img = channels % 2 ? test::photo_like_image(301, 203, channels, 3u + channels)
                                         : test::alpha_image(301, 203, channels, 3u + channels);
        const std::string png = dir.file("in" + std::to_string(channels) + ".png");
        test::save_image_file(png, img);
        for (const std::string c : {"none", "lzw", "deflate"}) {
            const std::string tif = dir.file("o" + std::to_string(channels) + c + ".tif");
            const auto r = run_imgpar({"convert", png, tif, "--compression", c});
            REQUIRE(r.exit_code == 0);
            CHECK(r.err.empty());
            CAPTURE(tif);
            IMGPAR_CHECK_IMAGES_EQUAL(img, load_image(tif).image);
            if (tools) {
                const std::string info = dir.file("info.txt");
                REQUIRE(std::system(("tiffinfo '" + tif + "' > '" + info + "' 2>&1").c_str()) == 0);
                const std::string text = test::read_bytes(info);
                CHECK(has(text, c == "none" ? "Compression Scheme: None" : c == "lzw" ? "Compression Scheme: LZW"
                                                                                  : "Compression Scheme: AdobeDeflate"));
                CHECK(!has(text, "Error"));
                if (vips) {  // libvips writes the same pixels from the PNG; libtiff's tiffcmp compares them
                    const std::string ref = dir.file("ref.tif");
                    REQUIRE(sh("vips copy '" + png + "' '" + ref + "'") == 0);
                    CHECK(sh("tiffcmp '" + tif + "' '" + ref + "'") == 0);
                }
            }
            if (vips) {
                const std::string raw = dir.file("v.raw");
                REQUIRE(sh("vips rawsave '" + tif + "' '" + raw + "'") == 0);
                CHECK(test::read_bytes(raw) == packed(img));
            }
            ++checked;
        }
    }
    MESSAGE(checked, " TIFF outputs checked");
}

TEST_CASE("cli TIFF: --compression takes PNG levels and TIFF compressions, each for its format") {
    if (!tiff_codec_available()) return;
    TempDir dir;
    const std::string in = dir.file("in.png");
    test::save_image_file(in, test::photo_like_image(40, 30, 3));
    auto r = run_imgpar({"convert", in, dir.file("a.png"), "--compression", "lzw"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--compression: 'lzw' is a TIFF compression, and " + dir.file("a.png") +
                         " is PNG, which takes 0-9 or none"));
    r = run_imgpar({"convert", in, dir.file("a.tif"), "--compression", "6"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "'6' is a PNG level, and " + dir.file("a.tif") + " is TIFF, which takes none, lzw or deflate"));
    CHECK(!test::file_exists(dir.file("a.tif")));
    r = run_imgpar({"convert", in, dir.file("a.tif"), "--compression", "zip"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "allowed: 0-9 or none for PNG; none, lzw or deflate for TIFF"));
    for (const std::string out : {"n.png", "n.tif"}) {
        r = run_imgpar({"convert", in, dir.file(out), "--compression", "none"});
        CHECK(r.exit_code == 0);
    }
    r = run_imgpar({"convert", in, dir.file("q.jpg"), "--compression", "lzw"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "--compression applies to TIFF outputs; " + dir.file("q.jpg") + " is JPEG: ignored"));
    r = run_imgpar({"convert", in, "-", "--format", "tif"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.substr(0, 4) == std::string("II*\0", 4));
    CHECK(has(run_imgpar({"convert", "--help"}).out, "TIFF takes none, lzw or deflate"));
}

TEST_CASE("cli TIFF: pages by file.tif[N], counted by info; a missing page is an input error") {
    if (!tiff_codec_available() || !have("tiffcp")) {
        MESSAGE("tiffcp not installed (libtiff-tools) or no libtiff: skipped");
        return;
    }
    TempDir dir;
    std::vector<ImageU8> pages;
    std::string args;
    for (int i = 0; i < 3; ++i) {
        pages.push_back(test::photo_like_image(20 + i, 10 + i, 1 + i, static_cast<unsigned>(i)));
        const std::string one = dir.file("p" + std::to_string(i) + ".tif");
        test::save_image_file(dir.file("p" + std::to_string(i) + ".png"), pages.back());
        REQUIRE(run_imgpar({"convert", dir.file("p" + std::to_string(i) + ".png"), one}).exit_code == 0);
        args += " '" + one + "'";
    }
    const std::string multi = dir.file("multi.tif");
    REQUIRE(sh("tiffcp" + args + " '" + multi + "'") == 0);
    auto r = run_imgpar({"info", multi});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "3 pages, page 0 read (0-based), "));
    r = run_imgpar({"info", "--json", multi + "[2]"});
    CHECK(has(r.out, "\"color_space\":\"RGB\",\"page\":2,\"pages\":3"));
    r = run_imgpar({"convert", multi + "[1]", dir.file("second.png")});
    REQUIRE(r.exit_code == 0);
    IMGPAR_CHECK_IMAGES_EQUAL(pages[1], load_image(dir.file("second.png")).image);
    r = run_imgpar({"convert", multi + "[7]", dir.file("none.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "multi.tif[7]: page 7 does not exist: the TIFF has 3 pages (0 to 2)"));
    CHECK(!test::file_exists(dir.file("none.png")));
    // Pages of one file get outputs of their own: NAME_pN.
    r = run_imgpar({"convert", multi + "[1]", multi + "[2]", "--out-dir", dir.file("pages")});
    CHECK(r.exit_code == 0);
    IMGPAR_CHECK_IMAGES_EQUAL(pages[2], load_image(dir.file("pages/multi_p2.tif")).image);
    r = run_imgpar({"convert", multi + "[0]", "-o", "{dir}/{stem}.png"});
    CHECK(r.exit_code == 0);
    CHECK(test::file_exists(dir.file("multi_p0.png")));
    r = run_imgpar({"convert", multi + "[0]", "-o", "{dir}/multi.tif"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "is an input"));
}

TEST_CASE("cli TIFF: CMYK and palette convert with a warning; 16-bit gray reduces as 16-bit PNG does") {
    const std::string python = test::python_with("import numpy, PIL");
    if (!tiff_codec_available() || python.empty()) {
        MESSAGE("no python3 with numpy and PIL, or no libtiff: skipped");
        return;
    }
    TempDir dir;
    const std::string script = dir.file("make.py");
    test::write_bytes(script,
                      "import numpy as np, sys\n"
                      "from PIL import Image\n"
                      "d = sys.argv[1]\n"
                      "Image.new('CMYK', (5, 4), (10, 20, 30, 40)).save(d + '/cmyk.tif')\n"
                      "p = Image.new('P', (6, 3)); p.putpalette([i % 256 for i in range(768)]); p.save(d + '/pal.tif')\n"
                      "v = (np.arange(7 * 5, dtype=np.uint32) * 1877 % 65536).astype(np.uint16).reshape(5, 7)\n"
                      "Image.fromarray(v, 'I;16').save(d + '/g16.tif')\n"
                      "np.floor((2 * v.astype(np.int64) + 257) / 514).astype(np.uint8).tofile(d + '/g16.expected')\n");
    REQUIRE(sh(python + " '" + script + "' '" + dir.path() + "'") == 0);
    auto r = run_imgpar({"convert", dir.file("cmyk.tif"), dir.file("cmyk.png")});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "CMYK TIFF converted to RGB without colour management"));
    const ImageU8 rgb = load_image(dir.file("cmyk.png")).image;
    // round((255 - C)(255 - K) / 255): 245 * 215 / 255 = 206.6, 235 * 215 / 255 = 198.1, 225 * 215 / 255 = 189.7
    CHECK(rgb.at(0, 0, 0) == 207);
    CHECK(rgb.at(0, 0, 1) == 198);
    CHECK(rgb.at(0, 0, 2) == 190);
    r = run_imgpar({"convert", dir.file("pal.tif"), dir.file("pal.png")});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "palette TIFF converted to RGB"));
    // 16 bits kept where the run takes them (convert), reduced as 16-bit PNGs are with --depth 8.
    r = run_imgpar({"convert", dir.file("g16.tif"), dir.file("g16.png"), "--depth", "8"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(packed(load_image(dir.file("g16.png")).image) == test::read_bytes(dir.file("g16.expected")));
    r = run_imgpar({"convert", dir.file("g16.tif"), dir.file("g16k.png")});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(load_image(dir.file("g16k.png")).header.bit_depth == 16);
    r = run_imgpar({"info", dir.file("g16.tif")});
    CHECK(has(r.out, "tiff 7x5 gray (1 channel), stored gray, 16-bit, 1 page, "));
    // info says what the file stores, not what it decodes to.
    r = run_imgpar({"info", "--json", dir.file("cmyk.tif"), dir.file("pal.tif")});
    CHECK(has(r.out, "\"layout\":\"RGB\""));
    CHECK(has(r.out, "\"color_space\":\"CMYK\",\"page\":0,\"pages\":1"));
    CHECK(has(r.out, "\"color_space\":\"palette\",\"page\":0,\"pages\":1"));
    r = run_imgpar({"convert", "-q", dir.file("g16.tif"), dir.file("q.png")});
    CHECK(r.err.empty());
}

TEST_CASE("cli TIFF: a cut file is refused naming it, and nothing is written") {
    if (!tiff_codec_available()) return;
    TempDir dir;
    const std::string in = dir.file("in.png");
    test::save_image_file(in, test::photo_like_image(200, 150, 3));
    const std::string tif = dir.file("whole.tif");
    REQUIRE(run_imgpar({"convert", in, tif, "--compression", "none"}).exit_code == 0);
    const std::string bytes = test::read_bytes(tif);
    test::write_bytes(dir.file("cut.tif"), bytes.substr(0, bytes.size() / 2));
    auto r = run_imgpar({"blur", dir.file("cut.tif"), dir.file("out.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, dir.file("cut.tif") + ": "));
    CHECK(!test::file_exists(dir.file("out.png")));
}
