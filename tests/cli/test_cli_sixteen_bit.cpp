// 16-bit files from the command line: a 16-bit PNG or TIFF keeps its 16 bits
// through a run whose steps take them (convert: no step), --depth converts
// either way, 8-bit formats get the image reduced with a warning, and an
// output that cannot hold what --depth asks fails alone with nothing written.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <utility>
#include <vector>

#include "src/io/load.hpp"
#include "src/io/sample_depth.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

LoadedImage load16(const std::string& path) {
    LoadOptions o;
    o.keep_16_bits = true;
    return load_image(path, o);
}

void save16(const std::string& path, const ImageU16& img) {
    std::vector<std::string> warnings;
    save_image(path, img.view(), SaveOptions{}, warnings);
}

}  // namespace

TEST_CASE("cli 16-bit: convert keeps every sample of a 16-bit PNG and TIFF, in either format") {
    TempDir dir;
    for (int c = 1; c <= 4; ++c) {
        const ImageU16 img = test::random_image16(61, 37, c, 40u + c);
        for (const std::string in_ext : {"png", "tif"}) {
            const std::string in = dir.file("in" + std::to_string(c) + "." + in_ext);
            save16(in, img);
            for (const std::string out_ext : {"png", "tif"}) {
                CAPTURE(c);
                CAPTURE(in_ext);
                CAPTURE(out_ext);
                const std::string out = dir.file("out" + std::to_string(c) + in_ext + "." + out_ext);
                const auto r = run_imgpar({"convert", in, out});
                REQUIRE(r.exit_code == 0);
                CHECK(r.err.empty());
                const LoadedImage back = load16(out);
                CHECK(back.header.bit_depth == 16);
                REQUIRE(back.sixteen());
                IMGPAR_CHECK_IMAGES_EQUAL(img, back.image16);
            }
        }
    }
    if (std::system("command -v vipsheader > /dev/null 2>&1") == 0) {
        const std::string out = dir.file("out4png.png");
        const std::string info = dir.file("vips.txt");
        REQUIRE(std::system(("vipsheader -f format '" + out + "' > '" + info + "'").c_str()) == 0);
        const std::string format = test::read_bytes(info);
        CHECK((has(format, "USHORT") || has(format, "ushort")));
    } else {
        MESSAGE("vipsheader not installed (libvips-tools): its check is skipped");
    }
}

TEST_CASE("cli 16-bit: --depth 8 reduces to nearest, --depth 16 widens exactly, and --json says the depth written") {
    TempDir dir;
    const ImageU16 img = test::photo_like_image16(45, 31, 3, 8);
    const std::string in = dir.file("in.png");
    save16(in, img);
    auto r = run_imgpar({"convert", in, dir.file("eight.png"), "--depth", "8", "--json"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(test::json_members(r.out.substr(0, r.out.find('\n')))["output_depth"] == "8");
    const LoadedImage eight = load16(dir.file("eight.png"));
    CHECK(eight.header.bit_depth == 8);
    IMGPAR_CHECK_IMAGES_EQUAL(reduce_to_8_bits(img.view()), eight.image);

    r = run_imgpar({"convert", dir.file("eight.png"), dir.file("wide.tif"), "--depth", "16", "--json"});
    REQUIRE(r.exit_code == 0);
    CHECK(test::json_members(r.out.substr(0, r.out.find('\n')))["output_depth"] == "16");
    const LoadedImage wide = load16(dir.file("wide.tif"));
    REQUIRE(wide.sixteen());
    IMGPAR_CHECK_IMAGES_EQUAL(test::widened(eight.image), wide.image16);

    r = run_imgpar({"convert", in, dir.file("same.png"), "--json"});
    REQUIRE(r.exit_code == 0);
    CHECK(test::json_members(r.out.substr(0, r.out.find('\n')))["output_depth"] == "16");
}

TEST_CASE("cli 16-bit: a JPEG or WebP output is reduced with a warning; --depth 16 there fails that output alone") {
    TempDir dir;
    const std::string in = dir.file("in.png");
    save16(in, test::photo_like_image16(40, 30, 3, 2));
    auto r = run_imgpar({"convert", in, dir.file("o.jpg")});
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "o.jpg: JPEG output holds 8 bits per sample: the 16-bit image reduced to 8 bits"));
    r = run_imgpar({"convert", in, dir.file("o.webp"), "--depth", "8"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());

    r = run_imgpar({"convert", in, dir.file("d.jpg"), "--depth", "16"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "d.jpg"));
    CHECK(has(r.err, "JPEG holds 8 bits per sample; --depth 16 suits PNG and TIFF outputs"));
    CHECK_FALSE(std::filesystem::exists(dir.file("d.jpg")));
}

TEST_CASE("cli 16-bit: a chain keeps 16 bits and equals its stages run one by one through 16-bit PNGs") {
    TempDir dir;
    const std::string in = dir.file("in.png");
    save16(in, test::photo_like_image16(97, 61, 4, 12));
    auto r = run_imgpar({"chain", "resize 50% | blur 0x1.5 | sharpen | flop", in, dir.file("chain.png")});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    for (const auto& [op, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"resize", {"50%"}}, {"blur", {"0x1.5"}}, {"sharpen", {}}, {"flop", {}}}) {
        const std::string from = dir.file("step.png");
        if (op == "resize") std::filesystem::copy_file(in, from, std::filesystem::copy_options::overwrite_existing);
        std::vector<std::string> cmd = {op, from, dir.file("next.png")};
        cmd.insert(cmd.end(), args.begin(), args.end());
        r = run_imgpar(cmd);
        REQUIRE(r.exit_code == 0);
        std::filesystem::rename(dir.file("next.png"), from);
    }
    const LoadedImage chained = load16(dir.file("chain.png")), stepped = load16(dir.file("step.png"));
    REQUIRE(chained.sixteen());
    REQUIRE(stepped.sixteen());
    CHECK(chained.image16.width() == 49);
    IMGPAR_CHECK_IMAGES_EQUAL(stepped.image16, chained.image16);
}

TEST_CASE("cli 16-bit: compare measures 16-bit pairs on the 16-bit scale; an 8-bit side is widened with a warning") {
    TempDir dir;
    const ImageU16 a = test::photo_like_image16(120, 90, 3, 3);
    ImageU16 b = ImageU16::copy_of(a.view());
    b.data()[0] = static_cast<std::uint16_t>(b.data()[0] ^ 1);  // one sample one level apart: invisible in 8 bits
    save16(dir.file("a.png"), a);
    save16(dir.file("b.png"), b);
    auto r = run_imgpar({"compare", dir.file("a.png"), dir.file("b.png"), "--json", "--diff", dir.file("d.png")});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(has(r.out, "\"max_abs\":1"));
    CHECK(load16(dir.file("d.png")).header.bit_depth == 16);
    // The same pair reduced to 8 bits would be identical; against an 8-bit copy, a's samples are widened.
    std::vector<std::string> warnings;
    save_image(dir.file("a8.png"), reduce_to_8_bits(a.view()).view(), SaveOptions{}, warnings);
    r = run_imgpar({"compare", dir.file("a8.png"), dir.file("b.png")});
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "one image is 8-bit and the other 16-bit: the 8-bit one is compared widened"));
}
