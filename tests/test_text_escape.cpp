// Text for people shows control characters escaped (text_escape.hpp): a
// name cannot fake a line or act on the terminal.
#include <doctest/doctest.h>

#include "src/report/text_escape.hpp"

using imgpar::escape_control;

TEST_CASE("escape_control: C0, DEL, C1 and bytes that are not UTF-8 are shown; text and UTF-8 are kept") {
    CHECK(escape_control("plain name.png") == "plain name.png");
    CHECK(escape_control("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    CHECK(escape_control("a\nb\rc\td") == "a\\nb\\rc\\td");
    CHECK(escape_control(std::string("\x00\x01\x1b[31m\x7f", 8)) == "\\x00\\x01\\x1b[31m\\x7f");
    CHECK(escape_control("\xc2\x80\xc2\x9b\xc2\x9f\xc2\xa0") == "\\u0080\\u009b\\u009f\xc2\xa0");  // C1; NBSP kept
    CHECK(escape_control("\xff\xfe") == "\\xff\\xfe");
    CHECK(escape_control("caf\xe9.png") == "caf\\xe9.png");             // Latin-1
    CHECK(escape_control("\xc0\xaf \xed\xa0\x80") == "\\xc0\\xaf \\xed\\xa0\\x80");  // overlong, surrogate
    CHECK(escape_control("cut \xe2\x82") == "cut \\xe2\\x82");
    CHECK(escape_control("back\\slash") == "back\\slash");
}
