// The JSON writer: whatever the bytes of a string (file names are any bytes),
// the output is valid JSON in valid UTF-8.
#include <doctest/doctest.h>

#include "src/report/json.hpp"
#include "tests/support/json_check.hpp"

using namespace imgpar;

TEST_CASE("json_quote: UTF-8 kept, controls escaped, other bytes as surrogate escapes") {
    CHECK(json_quote("plain, with \"quotes\" and \\") == "\"plain, with \\\"quotes\\\" and \\\\\"");
    CHECK(json_quote("tab\there\nnew") == "\"tab\\there\\nnew\"");
    CHECK(json_quote(std::string("nul\0x", 5)) == "\"nul\\u0000x\"");
    CHECK(json_quote("del\x7f") == "\"del\\u007f\"");
    CHECK(json_quote("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    // Latin-1 bytes, a stray continuation, an overlong '/', a UTF-16
    // surrogate in UTF-8 form, a sequence cut short, beyond U+10FFFF.
    CHECK(json_quote("caf\xe9") == "\"caf\\udce9\"");
    CHECK(json_quote("\x80") == "\"\\udc80\"");
    CHECK(json_quote("\xc0\xaf") == "\"\\udcc0\\udcaf\"");
    CHECK(json_quote("\xed\xa0\x80") == "\"\\udced\\udca0\\udc80\"");
    CHECK(json_quote("\xe2\x82") == "\"\\udce2\\udc82\"");
    CHECK(json_quote("\xf4\x90\x80\x80") == "\"\\udcf4\\udc90\\udc80\\udc80\"");
    for (int b = 0; b < 256; ++b) {
        const std::string s = "a" + std::string(1, static_cast<char>(b)) + "b";
        std::string why;
        CHECK_MESSAGE(test::is_valid_json(json_quote(s), &why), "byte ", b, ": ", why);
    }
}
