// What imgpar writes as WebP and AVIF, read by the formats' reference
// decoders and by libvips, and the GIFs it reads, read by Pillow: the same
// pixels. Each check runs where its tool is installed (Debian: webp,
// libavif-bin, libvips-tools, python3-pil) and says it was skipped where not.
//
// AVIF: avifdec (libavif, as imgpar) gives imgpar's pixels exactly. libvips
// reads AVIF through libheif, whose YUV-to-RGB arithmetic rounds otherwise:
// on the same 4:4:4 file it and avifdec differ by up to 1 level (that bound
// is checked). At 4:2:0 their chroma upsampling differs too, by up to 83
// levels at sharp edges: imgpar writes colour AVIF as 4:4:4 for that.
#include <doctest/doctest.h>

#include <cstdlib>

#include "src/io/avif_codec.hpp"
#include "src/io/gif_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "src/io/webp_codec.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/load_checks.hpp"
#include "tests/support/python_peer.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;
using test::TempDir;

namespace {

bool have_tool(const std::string& tool, const char* package) {
    if (std::system(("command -v " + tool + " > /dev/null 2>&1").c_str()) == 0) return true;
    MESSAGE(tool, " is not installed: skipped (Debian's ", package, " package)");
    return false;
}

bool run(const std::string& cmd) { return std::system((cmd + " > /dev/null 2>&1").c_str()) == 0; }

// Packed RGB(A) samples of `img`, gray expanded, with or without alpha.
std::string rgb_samples(const ImageU8& img, bool alpha) {
    std::string s;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const std::uint8_t* p = img.view().pixel(x, y);
            const bool gray = img.channels() <= 2;
            for (int c = 0; c < 3; ++c) s.push_back(static_cast<char>(p[gray ? 0 : c]));
            if (alpha) s.push_back(static_cast<char>(has_alpha(img.channels()) ? p[img.channels() - 1] : 255));
        }
    return s;
}

// libvips' decode of `file` as raw interleaved samples.
std::string vips_raw(const TempDir& dir, const std::string& file) {
    const std::string raw = dir.file(file + ".raw");
    REQUIRE(run("vips rawsave '" + dir.file(file) + "' '" + raw + "'"));
    return test::read_bytes(raw);
}

int max_difference(const std::string& a, const std::string& b) {
    REQUIRE(a.size() == b.size());
    int most = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        most = std::max(most, std::abs(static_cast<int>(static_cast<unsigned char>(a[i])) - static_cast<unsigned char>(b[i])));
    return most;
}

ImageU8 layout(int channels, int w, int h) {
    return has_alpha(channels) ? test::alpha_image(w, h, channels, 11) : test::photo_like_image(w, h, channels, 11);
}

void save(const TempDir& dir, const std::string& name, const ImageU8& img, SaveOptions o) {
    std::vector<std::string> warnings;
    save_image(dir.file(name), img.view(), o, warnings);
}

}  // namespace

TEST_CASE("peers: dwebp and libvips decode imgpar's WebPs to imgpar's pixels") {
    if (!webp_codec_available()) return;
    const bool dwebp = have_tool("dwebp", "webp"), vips = have_tool("vips", "libvips-tools");
    TempDir dir;
    int files = 0;
    for (int channels = 1; channels <= 4; ++channels)
        for (bool lossless : {false, true}) {
            const ImageU8 img = layout(channels, 131, 67);
            SaveOptions o;
            o.lossless = lossless;
            const std::string name = "w" + std::to_string(channels) + (lossless ? "l" : "q") + ".webp";
            save(dir, name, img, o);
            CAPTURE(name);
            const ImageU8 mine = load_image(dir.file(name)).image;
            const bool alpha = has_alpha(channels);
            if (dwebp) {
                REQUIRE(run("dwebp '" + dir.file(name) + "' -pam -o '" + dir.file(name + ".pam") + "'"));
                const std::string pam = test::read_bytes(dir.file(name + ".pam"));
                const std::string body = pam.substr(pam.find("ENDHDR\n") + 7);  // dwebp's PAM is always RGBA
                CHECK(body == rgb_samples(mine, true));
                ++files;
            }
            if (vips) {
                CHECK(vips_raw(dir, name) == rgb_samples(mine, alpha));
                ++files;
            }
        }
    MESSAGE(files, " WebP decodes compared");
}

TEST_CASE("peers: avifdec decodes imgpar's AVIFs to imgpar's pixels; libvips within its rounding") {
    if (!avif_codec_available() || !avif_encoder_available()) return;
    const bool avifdec = have_tool("avifdec", "libavif-bin"), vips = have_tool("vips", "libvips-tools");
    TempDir dir;
    for (int channels = 1; channels <= 4; ++channels)
        for (int quality : {30, 95}) {
            const ImageU8 img = layout(channels, 97, 61);
            SaveOptions o;
            o.quality = quality;
            o.quality_given = true;
            const std::string name = "a" + std::to_string(channels) + "_" + std::to_string(quality) + ".avif";
            save(dir, name, img, o);
            CAPTURE(name);
            const ImageU8 mine = load_image(dir.file(name)).image;
            const bool alpha = has_alpha(channels);
            if (avifdec) {
                REQUIRE(run("avifdec '" + dir.file(name) + "' '" + dir.file(name + ".png") + "'"));
                const ImageU8 theirs = load_image(dir.file(name + ".png")).image;  // RGB(A) always
                CHECK(rgb_samples(theirs, alpha) == rgb_samples(mine, alpha));
            }
            if (vips) {
                const std::string raw = vips_raw(dir, name);
                const std::string expect = channels <= 2 && raw.size() == mine.size_bytes()
                                               ? std::string(reinterpret_cast<const char*>(mine.data()), mine.size_bytes())
                                               : rgb_samples(mine, alpha);
                const int most = max_difference(raw, expect);
                CHECK(most <= 1);
            }
        }
}

TEST_CASE("peers: Pillow decodes GIFs to imgpar's pixels (first frame, transparency, interlacing)") {
    if (!gif_codec_available()) return;
    const std::string python = test::python_with("import PIL");
    if (python.empty()) {
        MESSAGE("python3 with Pillow (python3-pil) is not installed: skipped");
        return;
    }
    TempDir dir;
    // offset.gif's frame leaves most of its screen bare: imgpar (as browsers)
    // makes it transparent, Pillow fills it with the background colour,
    // libvips with black. Only the frame is compared there.
    struct Case {
        std::string name;
        int x0, y0, x1, y1;
    };
    for (const Case& k : {Case{"anim.gif", 0, 0, 64, 43}, Case{"trns_interlaced.gif", 0, 0, 64, 43},
                          Case{"offset.gif", 2, 1, 5, 3}}) {
        CAPTURE(k.name);
        const ImageU8 mine = load_image(test::data_path(k.name)).image;
        const std::string raw = dir.file(k.name + ".rgba");
        REQUIRE(run(python + " -c 'import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.seek(0); "
                             "open(sys.argv[2], \"wb\").write(im.convert(\"RGBA\").tobytes())' '" +
                    test::data_path(k.name) + "' '" + raw + "'"));
        const std::string theirs = test::read_bytes(raw);
        const std::string ours = rgb_samples(mine, true);
        REQUIRE(theirs.size() == ours.size());
        int differ = 0;
        for (int y = k.y0; y < k.y1; ++y)
            for (int x = k.x0; x < k.x1; ++x) {
                const std::size_t p = (static_cast<std::size_t>(y) * static_cast<std::size_t>(mine.width()) + x) * 4;
                // Where both say transparent, the colour underneath is no one's to agree on.
                if (ours[p + 3] == 0 && theirs[p + 3] == 0) continue;
                differ += ours.compare(p, 4, theirs, p, 4) != 0;
            }
        CHECK(differ == 0);
    }
}

TEST_CASE("peers: libvips decodes imgpar's 16-bit PNGs and TIFFs (each compression) to imgpar's samples") {
    if (!have_tool("vips", "libvips-tools")) return;
    TempDir dir;
    int checked = 0;
    for (int channels = 1; channels <= 4; ++channels) {
        const ImageU16 img = test::random_image16(67, 45, channels, 50u + channels);
        const std::string mine(reinterpret_cast<const char*>(img.data()), img.size_bytes());  // host order, as rawsave
        for (const std::string name : {"png", "none.tif", "lzw.tif", "deflate.tif"}) {
            CAPTURE(channels);
            CAPTURE(name);
            const std::string file = std::to_string(channels) + name.substr(0, name.find('.')) + "." +
                                     (name == "png" ? std::string("png") : std::string("tif"));
            SaveOptions o;
            const std::string compression = name.substr(0, name.find('.'));
            o.tiff_compression = compression == "none"  ? TiffCompression::None
                                 : compression == "lzw" ? TiffCompression::Lzw
                                                        : TiffCompression::Deflate;
            std::vector<std::string> warnings;
            save_image(dir.file(file), img.view(), o, warnings);
            CHECK(vips_raw(dir, file) == mine);
            ++checked;
        }
    }
    MESSAGE(checked, " 16-bit files read by libvips");
}
