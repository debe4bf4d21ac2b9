#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

void check_text_error(const std::string& text, const std::string& word) {
    INFO("kernel text: '", text, "'");
    try {
        parse_kernel_text(text);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        CHECK(e.subject() == "--kernel");
        INFO("message: ", e.what());
        CHECK(std::string(e.what()).find(word) != std::string::npos);
    }
}

// Writes `content` to a kernel file and expects an input error naming the
// file and containing `word` (e.g. "line 3").
void check_file_error(const test::TempDir& dir, const std::string& content, const std::string& word) {
    const std::string path = dir.file("bad.mat");
    test::write_bytes(path, content);
    INFO("file content: '", content, "'");
    try {
        parse_kernel_file(path);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        INFO("message: ", e.what());
        CHECK(e.subject() == path);
        CHECK(std::string(e.what()).find(word) != std::string::npos);
    }
}

}  // namespace

TEST_CASE("parse_kernel_text: inline forms") {
    KernelMatrix k = parse_kernel_text("1 2 1; 2 4 2; 1 2 1");
    CHECK(k.width == 3);
    CHECK(k.height == 3);
    CHECK(k.values == std::vector<double>{1, 2, 1, 2, 4, 2, 1, 2, 1});
    CHECK_FALSE(k.scale);
    CHECK_FALSE(k.offset);

    CHECK(parse_kernel_text("1,2,1;2,4,2").values == std::vector<double>{1, 2, 1, 2, 4, 2});
    CHECK(parse_kernel_text("1, 2, 1\n2, 4, 2\n").height == 2);
    CHECK(parse_kernel_text("  1 2 ;\n\n 3 4 ; ").values == std::vector<double>{1, 2, 3, 4});
    CHECK(parse_kernel_text("\t-1\t0\t1\r\n").values == std::vector<double>{-1, 0, 1});

    KernelMatrix one = parse_kernel_text("7");
    CHECK(one.width == 1);
    CHECK(one.height == 1);
    CHECK(one.values == std::vector<double>{7});

    KernelMatrix nums = parse_kernel_text("-1.5e-1 +2 .5 5. 1E3 -0 0.125");
    CHECK(nums.width == 7);
    CHECK(nums.values == std::vector<double>{-0.15, 2, 0.5, 5, 1000, 0, 0.125});

    KernelMatrix column = parse_kernel_text("1;2;3;4");
    CHECK(column.width == 1);
    CHECK(column.height == 4);

    std::string wide;
    for (int i = 0; i < 63; ++i) wide += "1 ";
    CHECK(parse_kernel_text(wide).width == 63);
}

TEST_CASE("parse_kernel_text: malformed kernels") {
    check_text_error("", "empty");
    check_text_error(" ; \n ;", "empty");
    check_text_error("1 2; 3", "same number");
    check_text_error("1 2 3; 4 5", "row 2");
    check_text_error("1 x 2", "'x' is not a number");
    check_text_error("nan", "not a number");
    check_text_error("1 inf", "not a number");
    check_text_error("infinity", "not a number");
    check_text_error("1e", "not a number");
    check_text_error("0x10", "not a number");
    check_text_error("--1", "not a number");
    check_text_error("1.2.3", "not a number");
    check_text_error("1e999", "out of range");
    check_text_error(".", "not a number");
    check_text_error("1;;2 3", "same number");
    std::string wide, tall;
    for (int i = 0; i < 64; ++i) wide += "1 ";
    for (int i = 0; i < 64; ++i) tall += "1;";
    check_text_error(wide, "63");
    check_text_error(tall, "63");
}

TEST_CASE("parse_kernel_file: libvips matrix files") {
    test::TempDir dir;
    const std::string path = dir.file("k.mat");

    test::write_bytes(path, "3 3\n1 2 1\n2 4 2\n1 2 1\n");
    KernelMatrix k = parse_kernel_file(path);
    CHECK(k.width == 3);
    CHECK(k.height == 3);
    CHECK(k.values == std::vector<double>{1, 2, 1, 2, 4, 2, 1, 2, 1});
    CHECK_FALSE(k.scale);
    CHECK_FALSE(k.offset);

    test::write_bytes(path, "3 3 16 128\n1 2 1\n2 4 2\n1 2 1\n");
    k = parse_kernel_file(path);
    REQUIRE(k.scale);
    REQUIRE(k.offset);
    CHECK(*k.scale == 16.0);
    CHECK(*k.offset == 128.0);

    test::write_bytes(path, "2 1 0.5\n-1.5 2e1");
    k = parse_kernel_file(path);
    CHECK(*k.scale == 0.5);
    CHECK_FALSE(k.offset);
    CHECK(k.values == std::vector<double>{-1.5, 20});

    // Blank lines, tabs, trailing whitespace and CRLF line ends are tolerated.
    test::write_bytes(path, "\n2 2   \r\n\r\n  1\t-2  \r\n\n3 4\t\r\n\n\n");
    k = parse_kernel_file(path);
    CHECK(k.width == 2);
    CHECK(k.height == 2);
    CHECK(k.values == std::vector<double>{1, -2, 3, 4});

    // A libvips-style Gaussian with a negative offset.
    test::write_bytes(path, "1 3 4 -10.5\n1\n2\n1\n");
    k = parse_kernel_file(path);
    CHECK(k.width == 1);
    CHECK(k.height == 3);
    CHECK(*k.offset == -10.5);
}

TEST_CASE("parse_kernel_file: malformed files name the file and the line") {
    test::TempDir dir;
    check_file_error(dir, "", "empty kernel file");
    check_file_error(dir, "\n \n", "empty kernel file");
    check_file_error(dir, "3\n1 2 1\n", "line 1");
    check_file_error(dir, "3 x\n1 2 1\n", "line 1");
    check_file_error(dir, "3.5 1\n1 2 1\n", "whole numbers");
    check_file_error(dir, "0 3\n", "1 to 63");
    check_file_error(dir, "64 1\n", "1 to 63");
    check_file_error(dir, "-3 1\n", "line 1");
    check_file_error(dir, "3 1 1 0 9\n1 2 1\n", "header");
    check_file_error(dir, "3 1 0\n1 2 1\n", "scale must be non-zero");
    check_file_error(dir, "3 1 abc\n1 2 1\n", "scale 'abc'");
    check_file_error(dir, "3 1 1 nan\n1 2 1\n", "offset");
    check_file_error(dir, "3 2\n1 2 1\n\n2 4\n", "line 4: expected 3 values, found 2");
    check_file_error(dir, "3 2\n1 2 1 5\n2 4 2\n", "line 2: expected 3 values, found 4");
    check_file_error(dir, "3 1\n1 two 1\n", "line 2: 'two' is not a number");
    check_file_error(dir, "2 1\n1 inf\n", "line 2");
    check_file_error(dir, "3 3\n1 2 1\n2 4 2\n", "expected 3 rows");
    check_file_error(dir, "1 1\n5\n6\n", "line 3: unexpected extra row");
    check_file_error(dir, std::string("2 1\n1 \0 2\n", 10), "line 2");

    // Missing file, a directory, a file far too large to be a kernel.
    const std::string missing = dir.file("no-such-kernel.mat");
    try {
        parse_kernel_file(missing);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        CHECK(std::string(e.what()).find("no-such-kernel.mat") != std::string::npos);
    }
    CHECK_THROWS_AS(parse_kernel_file(dir.path()), Error);
    const std::string huge = dir.file("huge.mat");
    test::write_bytes(huge, "1 1\n" + std::string(2 << 20, ' ') + "1\n");
    try {
        parse_kernel_file(huge);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        CHECK(std::string(e.what()).find("too large") != std::string::npos);
    }
}

TEST_CASE("a parsed file feeds make_custom with its scale and offset") {
    test::TempDir dir;
    const std::string path = dir.file("blur.mat");
    test::write_bytes(path, "3 3 16 1\n1 2 1\n2 4 2\n1 2 1\n");
    FilterPlan p = make_custom(parse_kernel_file(path), {}, Border{});
    CHECK(p.scale == 16.0);
    CHECK(p.offset == 1.0);
    CHECK(p.coeffs == std::vector<std::int32_t>{1, 2, 1, 2, 4, 2, 1, 2, 1});
}
