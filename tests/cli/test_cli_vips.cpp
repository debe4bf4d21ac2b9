// What imgpar writes, read by another decoder: every PNG (each layout,
// each compression level) and JPEG (each chroma layout, striped or not)
// decodes in libvips to the pixels imgpar decodes. Runs where the vips tool
// is installed (Debian: libvips-tools); says so and passes trivially where not.
#include <doctest/doctest.h>

#include <cstdlib>

#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::TempDir;

namespace {

bool have_vips() { return std::system("vips --version > /dev/null 2>&1") == 0; }

// The file's pixels as libvips decodes them: band-interleaved 8-bit samples.
std::string vips_pixels(const TempDir& dir, const std::string& file) {
    const std::string raw = dir.file(file + ".raw");
    const std::string cmd = "vips rawsave '" + dir.file(file) + "' '" + raw + "' > /dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    return test::read_bytes(raw);
}

std::string packed(const ImageU8& img) {
    std::string s;
    for (int y = 0; y < img.height(); ++y) {
        const auto* row = img.data() + static_cast<std::size_t>(y) * img.row_bytes();
        s.append(reinterpret_cast<const char*>(row), img.row_bytes());
    }
    return s;
}

}  // namespace

TEST_CASE("libvips decodes imgpar's PNGs and JPEGs to imgpar's pixels") {
    if (!have_vips()) {
        MESSAGE("vips not installed: this check needs libvips-tools");
        return;
    }
    TempDir dir;
    int files = 0;
    for (int channels = 1; channels <= 4; ++channels)
        for (int level : {0, 1, 6, 9}) {
            const ImageU8 img = test::photo_like_image(301, 203, channels, static_cast<unsigned>(channels * 10 + level));
            SaveOptions o;
            o.compression = level;
            std::vector<std::string> warnings;
            const std::string name = "p" + std::to_string(channels) + "_" + std::to_string(level) + ".png";
            save_image(dir.file(name), img.view(), o, warnings);
            CAPTURE(name);
            CHECK(vips_pixels(dir, name) == packed(img));
            ++files;
        }
    if (jpeg_codec_available())
        for (ChromaSubsampling c : {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420})
            for (int w : {301, 2400}) {  // 2400x1000 is written in stripes with restart markers
                const ImageU8 img = test::photo_like_image(w, w == 301 ? 203 : 1000, 3, static_cast<unsigned>(w));
                SaveOptions o;
                o.chroma = c;
                std::vector<std::string> warnings;
                const std::string name = "j" + std::to_string(static_cast<int>(c)) + "_" + std::to_string(w) + ".jpg";
                save_image(dir.file(name), img.view(), o, warnings);
                CAPTURE(name);
                CHECK(vips_pixels(dir, name) == packed(load_image(dir.file(name)).image));
                ++files;
            }
    MESSAGE(files, " files read back by libvips");
}
