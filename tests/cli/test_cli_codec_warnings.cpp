// End-to-end: an encoder option that the run's output format does not use
// (--quality but for JPEG, WebP and AVIF, --lossless but for WebP,
// --chroma-subsampling and --jpeg-encoder but for JPEG, --compression but
// for PNG) is warned about once per run, naming the option and why; the run
// goes on (exit 0) and -q silences it as other warnings.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

std::size_t count(const std::string& s, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = s.find(needle); at != std::string::npos; at = s.find(needle, at + 1)) ++n;
    return n;
}

struct OptionCase {
    std::vector<std::string> args;
    std::string used_by;  // the formats that read it, as the warning names them
};

}  // namespace

TEST_CASE("cli codec options: each one given for an output format that ignores it warns once, naming both") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");
    const std::vector<OptionCase> options = {{{"--quality", "85"}, "JPEG, WebP and AVIF"},
                                             {{"--lossless"}, "WebP"},
                                             {{"--chroma-subsampling", "444"}, "JPEG"},
                                             {{"--jpeg-encoder", "cpu"}, "JPEG"},
                                             {{"--compression", "9"}, "PNG"}};
    for (const auto& [ext, label] : std::vector<std::pair<std::string, std::string>>{
             {"png", "PNG"}, {"jpg", "JPEG"}, {"bmp", "BMP"}, {"webp", "WebP"}}) {
        for (const OptionCase& o : options) {
            const std::string out = "out." + ext;
            std::vector<std::string> args = {"convert", in, out};
            args.insert(args.end(), o.args.begin(), o.args.end());
            const auto r = run_imgpar(args, dir.path());
            CAPTURE(o.args[0]);
            CAPTURE(out);
            REQUIRE_MESSAGE(r.exit_code == 0, r.err);
            const std::string warning = "imgpar: warning: convert: " + o.args[0] + " applies to " + o.used_by +
                                        " outputs; " + out + " is " + label + ": ignored\n";
            const bool used = has(o.used_by, label);
            CHECK(count(r.err, warning) == (used ? 0u : 1u));
            if (used) CHECK(r.err.empty());
        }
    }
    // Several at once: a line each. Standard output is named as such.
    auto r = run_imgpar({"blur", in, "-", "--format", "bmp", "--quality", "70", "--compression", "0"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "--quality applies to JPEG, WebP and AVIF outputs; standard output is BMP: ignored"));
    CHECK(has(r.err, "--compression applies to PNG outputs; standard output is BMP: ignored"));
    // -q silences warnings, this one too.
    r = run_imgpar({"convert", "-q", in, "q.png", "--quality", "85"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
}

TEST_CASE("cli codec options: a batch warns once when none of its outputs uses the option, not when one does") {
    TempDir dir;
    const std::string png = test::read_bytes(test::sample_path("camera.png"));
    const std::string jpg = test::read_bytes(test::sample_path("rocket.jpg"));
    for (const char* name : {"a.png", "b.png", "c.png"}) test::write_bytes(dir.file(name), png);
    test::write_bytes(dir.file("d.jpg"), jpg);
    const std::string warned = "imgpar: warning: blur: --quality applies to JPEG, WebP and AVIF outputs; none of the 3 "
                               "outputs is JPEG, WebP or AVIF: ignored\n";

    auto r = run_imgpar({"blur", "--out-dir", "o1", "a.png", "b.png", "c.png", "--quality", "85"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(count(r.err, warned) == 1);
    // --format decides: JPEG outputs use --quality, PNG ones --compression.
    r = run_imgpar({"blur", "--out-dir", "o2", "a.png", "b.png", "c.png", "--format", "jpg", "--quality", "85",
                    "--compression", "3"},
                   dir.path());
    CHECK(r.exit_code == 0);
    CHECK(!has(r.err, "--quality"));
    CHECK(count(r.err, "--compression applies to PNG outputs; none of the 3 outputs is PNG: ignored\n") == 1);
    // -o: the template's extension.
    r = run_imgpar({"blur", "-o", "o3/{stem}.bmp", "a.png", "b.png", "c.png", "--chroma-subsampling", "420"},
                   dir.path());
    CHECK(r.exit_code == 0);
    CHECK(count(r.err, "--chroma-subsampling applies to JPEG outputs; none of the 3 outputs is JPEG: ignored\n") == 1);
    // A JPEG among the outputs uses --quality: no warning.
    r = run_imgpar({"blur", "--out-dir", "o4", "a.png", "d.jpg", "--quality", "85"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(!has(r.err, "warning"));
}

TEST_CASE("cli codec options: a chain that writes an image warns as its stages' commands do") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");
    auto r = run_imgpar({"chain", "blur 0x1 | flip", in, "out.png", "--quality", "85"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(count(r.err, "imgpar: warning: chain: --quality applies to JPEG, WebP and AVIF outputs; out.png is PNG: ignored\n") == 1);
    r = run_imgpar({"chain", "blur 0x1 | flip", in, "out.jpg", "--compression", "9", "--quality", "85"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(count(r.err, "warning") == 1);
    CHECK(has(r.err, "chain: --compression applies to PNG outputs; out.jpg is JPEG: ignored"));
}
