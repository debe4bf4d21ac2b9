// End-to-end: XMP (extended XMP too), IPTC and comments that exiftool wrote
// go through imgpar (JPEG -> JPEG, PNG -> PNG, JPEG -> PNG -> JPEG) and
// exiftool and Pillow read them back from imgpar's outputs; --strip drops
// them, thumbnail keeps only the ICC profile; info names the colour space
// and the metadata; a CMYK JPEG from Pillow decodes to Pillow's RGB. Where
// exiftool (libimage-exiftool-perl) or Pillow is missing, the case says so.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/python_peer.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

bool have_exiftool() { return std::system("exiftool -ver > /dev/null 2>&1") == 0; }

// What a shell command prints on stdout.
std::string output_of(const std::string& cmd) {
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
    return out;
}

// The tags exiftool reads from `file`, one "Group:Tag: value" a line.
std::string exif_tags(const TempDir& dir, const std::string& file) {
    return output_of("exiftool -q -q -G1 -s -XMP-dc:Title -XMP-dc:Description -IPTC:Keywords -IPTC:Caption-Abstract "
                     "-Comment -ICC_Profile:ProfileDescription '" + dir.file(file) + "'");
}

const std::string kLong(70000, 'L');  // an XMP property too large for one APP1: exiftool writes extended XMP

// in.jpg: an imgpar JPEG to which exiftool added XMP (and extended XMP),
// IPTC, a comment and an sRGB profile. False when exiftool is missing.
bool make_tagged_jpeg(const TempDir& dir) {
    if (!have_exiftool()) {
        MESSAGE("exiftool not installed: this check needs libimage-exiftool-perl");
        return false;
    }
    std::vector<std::string> warnings;
    save_image(dir.file("in.jpg"), test::photo_like_image(64, 48, 3, 5).view(), SaveOptions{}, warnings);
    test::write_bytes(dir.file("long.txt"), kLong);
    // An sRGB profile from Pillow's littleCMS where Python has it.
    const std::string python = test::python_with("from PIL import ImageCms");
    const bool icc = !python.empty() &&
                     std::system((python + " -c \"from PIL import ImageCms; open('" + dir.file("srgb.icc") +
                                  "', 'wb').write(ImageCms.ImageCmsProfile(ImageCms.createProfile('sRGB')).tobytes())\"")
                                     .c_str()) == 0;
    const std::string cmd = "cd '" + dir.path() +
                            "' && exiftool -q -overwrite_original '-XMP-dc:Title=An imgpar title' "
                            "'-XMP-dc:Description<=long.txt' -IPTC:Keywords=alpha -IPTC:Keywords=beta "
                            "'-IPTC:Caption-Abstract=Caf\xc3\xa9 caption' -IPTC:CodedCharacterSet=UTF8 "
                            "'-Comment=Scanned by imgpar' " + std::string(icc ? "'-ICC_Profile<=srgb.icc' " : "") +
                            "in.jpg > /dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    return true;
}

}  // namespace

TEST_CASE("cli metadata kinds: exiftool reads back XMP, extended XMP, IPTC and comments from imgpar's JPEG") {
    TempDir dir;
    if (!make_tagged_jpeg(dir)) return;
    const std::string in = exif_tags(dir, "in.jpg");
    REQUIRE(has(in, "An imgpar title"));
    REQUIRE(has(in, "[IPTC]          Keywords                        : alpha, beta"));
    REQUIRE(has(in, "Scanned by imgpar"));
    REQUIRE(has(in, kLong.substr(0, 100)));  // from the extended XMP

    auto r = run_imgpar({"blur", "--sigma", "1", "in.jpg", "out.jpg"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(exif_tags(dir, "out.jpg") == in);
    const ImageMetadata a = load_image(dir.file("in.jpg")).header.metadata;
    const ImageMetadata b = load_image(dir.file("out.jpg")).header.metadata;
    CHECK(a.xmp == b.xmp);
    CHECK(!a.xmp_extended.empty());
    CHECK(a.xmp_extended == b.xmp_extended);
    CHECK(a.iptc == b.iptc);
    CHECK(a.comments == b.comments);

    // Into PNG: all but the extended XMP, which is said.
    r = run_imgpar({"convert", "in.jpg", "out.png"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "out.png: metadata not written: extended XMP"));
    const std::string png = exif_tags(dir, "out.png");
    CHECK(has(png, "[XMP-dc]        Title                           : An imgpar title"));
    CHECK(has(png, "[IPTC]          Keywords                        : alpha, beta"));
    CHECK(has(png, "Caf\xc3\xa9 caption"));
    CHECK(has(png, "[PNG]           Comment                         : Scanned by imgpar"));
    // libvips reads the pixels around the new chunks and segments as imgpar does.
    if (std::system("vips --version > /dev/null 2>&1") == 0) {
        for (const char* file : {"out.png", "out.jpg"}) {
            CAPTURE(file);
            const std::string raw = dir.file(std::string(file) + ".raw");
            REQUIRE(std::system(("vips rawsave '" + dir.file(file) + "' '" + raw + "' > /dev/null 2>&1").c_str()) == 0);
            const ImageU8 mine = load_image(dir.file(file)).image;
            CHECK(test::read_bytes(raw) == std::string(reinterpret_cast<const char*>(mine.data()), mine.size_bytes()));
        }
    } else {
        MESSAGE("vips not installed: the pixels are not read back by libvips (libvips-tools)");
    }
    // PNG -> PNG keeps what the PNG has.
    REQUIRE(run_imgpar({"blur", "out.png", "again.png"}, dir.path()).exit_code == 0);
    CHECK(exif_tags(dir, "again.png") == png);
    // And back into JPEG: what the PNG held, as the JPEG segments hold it.
    r = run_imgpar({"convert", "out.png", "back.jpg"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    const std::string back = exif_tags(dir, "back.jpg");
    CHECK(has(back, "[XMP-dc]        Title                           : An imgpar title"));
    CHECK(has(back, "[IPTC]          Keywords                        : alpha, beta"));
    CHECK(has(back, "[File]          Comment                         : Scanned by imgpar"));
    CHECK(load_image(dir.file("back.jpg")).header.metadata.iptc == a.iptc);

    // --strip: none of it; thumbnail: the ICC profile only (--keep-metadata: all).
    REQUIRE(run_imgpar({"convert", "--strip", "in.jpg", "bare.jpg"}, dir.path()).exit_code == 0);
    CHECK(exif_tags(dir, "bare.jpg").empty());
    REQUIRE(run_imgpar({"convert", "--strip", "in.jpg", "bare.png"}, dir.path()).exit_code == 0);
    CHECK(exif_tags(dir, "bare.png").empty());
    REQUIRE(run_imgpar({"thumbnail", "--size", "32x32", "in.jpg", "t.jpg"}, dir.path()).exit_code == 0);
    const ImageMetadata t = load_image(dir.file("t.jpg")).header.metadata;
    CHECK(t.icc == a.icc);
    CHECK(t.xmp.empty());
    CHECK(t.iptc.empty());
    CHECK(t.comments.empty());
    REQUIRE(run_imgpar({"thumbnail", "--keep-metadata", "--size", "32x32", "in.jpg", "k.jpg"}, dir.path()).exit_code == 0);
    CHECK(exif_tags(dir, "k.jpg") == in);
}

TEST_CASE("cli metadata kinds: info shows each kind, text and JSON (schema imgpar.info/3)") {
    TempDir dir;
    if (!make_tagged_jpeg(dir)) return;
    auto r = run_imgpar({"info", "in.jpg"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.out, "jpeg 64x48 RGB (3 channels), stored YCbCr, 8-bit, 1 page, "));
    CHECK(has(r.out, "ICC profile "));
    CHECK(has(r.out, "XMP "));
    CHECK(has(r.out, " extended)"));
    CHECK(has(r.out, "IPTC "));
    CHECK(has(r.out, "1 comment (\"Scanned by imgpar\")"));
    r = run_imgpar({"info", "--json", "in.jpg"}, dir.path());
    std::string why;
    REQUIRE_MESSAGE(test::is_valid_json(test::lines(r.out).at(0), &why), why);
    const auto j = test::json_members(test::lines(r.out).at(0));
    CHECK(j.at("schema") == "\"imgpar.info/3\"");
    CHECK(j.at("color_space") == "\"YCbCr\"");
    CHECK(j.at("pages") == "1");
    CHECK(j.at("xmp_extended_bytes") != "0");
    CHECK(j.at("iptc_bytes") != "0");
    CHECK(has(j.at("comments"), "\"text\":\"Scanned by imgpar\""));
    CHECK(j.at("metadata_dropped") == "[]");
    r = run_imgpar({"info", "--csv", "in.jpg"}, dir.path());
    CHECK(has(test::lines(r.out).at(0), ",color_space,pages,xmp_bytes,iptc_bytes,comments,page,error"));
    CHECK(has(test::lines(r.out).at(1), ",YCbCr,1,"));
}

namespace {

// Pillow writes the files whose colour spaces info names, and a CMYK JPEG
// (inverted inks, an Adobe segment: as Photoshop writes them) with the RGB
// Pillow decodes it to.
const char* kPillowFiles = R"(
import sys
from PIL import Image
d = sys.argv[1]
rgb = Image.new('RGB', (40, 30))
for y in range(30):
    for x in range(40):
        rgb.putpixel((x, y), (x * 6, y * 8, (x * y) % 256))
rgb.convert('L').save(d + '/gray.jpg', quality=95)
rgb.save(d + '/ycbcr.jpg', quality=95)
cmyk = Image.new('CMYK', (40, 30))
for y in range(30):
    for x in range(40):
        cmyk.putpixel((x, y), (x * 6, y * 8, 255 - x * 6, (x * y) % 200))
cmyk.save(d + '/cmyk.jpg', quality=95)
open(d + '/cmyk_pillow.rgb', 'wb').write(Image.open(d + '/cmyk.jpg').convert('RGB').tobytes())
p = rgb.quantize(16)
p.save(d + '/palette.png')
p.save(d + '/palette_trns.png', transparency=0)
rgb.convert('LA').save(d + '/gray_alpha.png')
)";

}  // namespace

TEST_CASE("cli metadata kinds: info's colour spaces from Pillow's files; a CMYK JPEG decodes to Pillow's RGB") {
    const std::string python = test::python_with("import PIL");
    if (python.empty()) {
        MESSAGE("python3 with PIL not installed: this check needs python3-pil");
        return;
    }
    TempDir dir;
    test::write_bytes(dir.file("make.py"), kPillowFiles);
    REQUIRE(std::system((python + " '" + dir.file("make.py") + "' '" + dir.path() + "'").c_str()) == 0);
    const std::pair<const char*, const char*> expected[] = {
        {"gray.jpg", "gray (1 channel), stored gray"},     {"ycbcr.jpg", "RGB (3 channels), stored YCbCr"},
        {"cmyk.jpg", "RGB (3 channels), stored CMYK"},     {"palette.png", "RGB (3 channels), stored palette,"},
        {"palette_trns.png", "RGBA (4 channels), stored palette+tRNS"},
        {"gray_alpha.png", "gray+alpha (2 channels), stored gray+alpha"}};
    for (const auto& [file, text] : expected) {
        CAPTURE(file);
        const auto r = run_imgpar({"info", file}, dir.path());
        CHECK(r.exit_code == 0);
        CHECK(has(r.out, text));
    }
    auto r = run_imgpar({"convert", "cmyk.jpg", "cmyk.png"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "cmyk.jpg: CMYK JPEG converted to RGB without colour management (inverted inks, as Adobe writes them)"));
    const LoadedImage mine = load_image(dir.file("cmyk.png"));
    const std::string pillow = test::read_bytes(dir.file("cmyk_pillow.rgb"));
    REQUIRE(pillow.size() == mine.image.size_bytes());
    int off = 0;
    for (std::size_t i = 0; i < pillow.size(); ++i)
        off += static_cast<std::uint8_t>(pillow[i]) != mine.image.data()[i];
    CHECK(off == 0);
    // Every command decodes it the same way, with the same warning.
    r = run_imgpar({"stats", "cmyk.jpg"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "CMYK JPEG converted to RGB"));
}

TEST_CASE("cli metadata kinds: hostile metadata is dropped with a warning naming the file; the pixels still go through") {
    TempDir dir;
    std::vector<std::string> warnings;
    const std::vector<std::uint8_t> plain =
        encode_image(test::photo_like_image(40, 30, 3, 2).view(), ImageFormat::Jpeg, 90, warnings);
    // After SOI and JFIF: an XMP packet naming extended XMP of which one
    // chunk claims a 4 GiB whole, and 300 comments.
    const std::string guid(32, 'A');
    std::string segments;
    const auto add = [&](int marker, const std::string& payload) {
        const std::size_t n = payload.size() + 2;
        segments += std::string{'\xFF', static_cast<char>(marker), static_cast<char>(n >> 8), static_cast<char>(n & 0xFF)};
        segments += payload;
    };
    add(0xE1, std::string("http://ns.adobe.com/xap/1.0/\0", 29) + "<x HasExtendedXMP='" + guid + "'/>");
    add(0xE1, std::string("http://ns.adobe.com/xmp/extension/\0", 35) + guid + std::string("\xFF\xFF\xFF\x00\0\0\0\0", 8) +
                  std::string(1000, 'x'));
    for (int k = 0; k < 300; ++k) add(0xFE, "comment " + std::to_string(k));
    const std::size_t at = 4 + (static_cast<std::size_t>(plain[4]) << 8 | plain[5]);  // past SOI and JFIF
    std::string file(plain.begin(), plain.begin() + static_cast<std::ptrdiff_t>(at));
    file += segments;
    file.append(plain.begin() + static_cast<std::ptrdiff_t>(at), plain.end());
    test::write_bytes(dir.file("hostile.jpg"), file);

    auto r = run_imgpar({"convert", "hostile.jpg", "out.jpg"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.err, "hostile.jpg: metadata: extended XMP: 4294967040 bytes claimed, over the limit of 16 MiB"));
    CHECK(has(r.err, "hostile.jpg: metadata: comments past the limits of 256 comments"));
    const ImageMetadata out = load_image(dir.file("out.jpg")).header.metadata;
    CHECK(out.xmp_extended.empty());
    CHECK(out.comments.size() == 256);
    r = run_imgpar({"info", "--json", "hostile.jpg"}, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.out, "\"metadata_dropped\":[\"comments past the limits"));
    CHECK(has(r.out, "\"extended XMP: 4294967040 bytes claimed"));
}
