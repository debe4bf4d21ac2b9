// Whether an output would be written onto an input: files compared as files.
#include <doctest/doctest.h>

#include <filesystem>

#include "src/io/same_file.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::TempDir;

namespace fs = std::filesystem;

TEST_CASE("same_file: by device and inode when both exist, by normal path otherwise") {
    TempDir dir;
    test::write_bytes(dir.file("a.png"), "a");
    fs::create_symlink("a.png", dir.file("link.png"));
    fs::create_hard_link(dir.file("a.png"), dir.file("hard.png"));
    CHECK(same_file(dir.file("a.png"), dir.file("link.png")));
    CHECK(same_file(dir.file("hard.png"), dir.file("a.png")));
    CHECK(same_file(dir.file("./a.png"), dir.file("a.png")));
    CHECK(same_file(dir.file("x/../new.png"), dir.file("new.png")));
    CHECK_FALSE(same_file(dir.file("new.png"), dir.file("a.png")));
}
