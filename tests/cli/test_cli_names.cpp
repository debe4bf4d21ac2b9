// End-to-end: file names are never mangled. Commas, spaces, quotes, leading
// dashes and bytes that are not UTF-8 reach the file system as typed, in
// every command, and JSON output stays valid UTF-8.
#include <doctest/doctest.h>

#include <filesystem>

#include "src/io/load.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace {
void copy_sample(const std::string& sample, const std::string& to) {
    std::filesystem::copy_file(test::sample_path(sample), to, std::filesystem::copy_options::overwrite_existing);
}
void check_json_lines(const std::string& out, std::size_t expected) {
    const auto ls = lines(out);
    CHECK(ls.size() == expected);
    for (const auto& l : ls) {
        std::string why;
        CHECK_MESSAGE(test::is_valid_json(l, &why), l, ": ", why);
    }
}
}  // namespace

TEST_CASE("cli names: commas, spaces, quotes, dashes and non-UTF-8 bytes work in every command") {
    TempDir dir;
    const std::vector<std::string> names = {"a,b.png", "with space.png", "it's \"quoted\".png", "-dash.png",
                                            "caf\xe9.png", "\xff\xfe.png"};
    for (const auto& n : names) copy_sample("camera.png", dir.file(n));

    for (const auto& n : names) {
        CAPTURE(n);
        auto r = run_imgpar({"info", "--json", "--", n}, dir.path());
        CHECK(r.exit_code == 0);
        check_json_lines(r.out, 1);
        r = run_imgpar({"histo", "--json", "--", n}, dir.path());
        CHECK(r.exit_code == 0);
        check_json_lines(r.out, 1);
        r = run_imgpar({"blur", "--json", "--", n, "out " + n}, dir.path());
        CHECK(r.exit_code == 0);
        check_json_lines(r.out, 1);
        CHECK(load_image(dir.file("out " + n)).image.width() == 512);
    }
    // A comma is part of a name, not a separator: one (missing) file.
    auto r = run_imgpar({"histo", "camera.png,camera.png"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "camera.png,camera.png: no such file"));
    CHECK(r.out.empty());

    // Many at once, into a folder.
    std::vector<std::string> args = {"blur", "--json", "--out-dir", "out", "--"};
    args.insert(args.end(), names.begin(), names.end());
    r = run_imgpar(args, dir.path());
    CHECK(r.exit_code == 0);
    check_json_lines(r.out, names.size());
    for (const auto& n : names) CHECK(std::filesystem::exists(dir.file("out/" + n)));
    // The Latin-1 name comes back as the Python surrogateescape convention.
    CHECK(has(r.out, "caf\\udce9.png"));
}

TEST_CASE("cli names: an empty name is an error that says so") {
    auto r = run_imgpar({"info", ""});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "empty file name"));
}
