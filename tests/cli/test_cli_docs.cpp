// End-to-end: the reference pages in docs/commands are what `imgpar manpage
// --markdown` writes from the declarations now, byte for byte, so they stay
// true; each shows its command's forms, options and examples as --help does.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/help_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> names_in(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("cli docs: docs/commands is what the declarations make now") {
    TempDir dir;
    const auto r = run_imgpar({"manpage", "--markdown", dir.file("commands")});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string committed = IMGPAR_DOCS_COMMANDS_DIR;
    const std::vector<std::string> made = names_in(dir.file("commands"));
    REQUIRE(fs::is_directory(committed));
    CHECK_MESSAGE(names_in(committed) == made,
                  "docs/commands has other files than imgpar writes; run: imgpar manpage --markdown docs/commands");
    for (const std::string& name : made) {
        CAPTURE(name);
        CHECK_MESSAGE(test::read_bytes(committed + "/" + name) == test::read_bytes(dir.file("commands/" + name)),
                      "docs/commands/", name, " differs from the declarations; run: imgpar manpage --markdown docs/commands");
    }
}

TEST_CASE("cli docs: each command's page has its forms, options and examples; the index links every page") {
    TempDir dir;
    REQUIRE(run_imgpar({"manpage", "--markdown", dir.path()}).exit_code == 0);
    const std::string index = test::read_bytes(dir.file("README.md"));
    CHECK(has(index, "## Common options"));
    CHECK(has(index, "| `--device DEV` |"));
    CHECK(has(index, "| half the memory, 1G to 4G |"));  // the machine's own value would differ between machines
    for (const std::string& c : test::listed_commands()) {
        CAPTURE(c);
        CHECK(has(index, "| [" + c + "](" + c + ".md) |"));
        const std::string page = test::read_bytes(dir.file(c + ".md"));
        const std::string help = run_imgpar({c, "--help"}).out;
        CHECK(has(page, "# imgpar " + c + "\n"));
        for (const std::string& f : test::help_synopsis(help)) CHECK_MESSAGE(has(page, "\n" + f + "\n"), f);
        for (const std::string& e : test::help_examples(help)) CHECK_MESSAGE(has(page, "```sh\n" + e + "\n```"), e);
    }
    const std::string blur = test::read_bytes(dir.file("blur.md"));
    CHECK(has(blur, "| `--sigma S` | Standard deviation in pixels | 0 < S <= 50 | 2 |"));
    CHECK(has(blur, "12-bit fixed point summing exactly to one"));  // the arithmetic the declaration states
    CHECK(has(test::read_bytes(dir.file("resize.md")), "| `-o, --output TEMPLATE` |"));
}
