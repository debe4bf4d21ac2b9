// Byte counts as --max-memory takes them and as messages show them.
#include <doctest/doctest.h>

#include <string>

#include "src/error.hpp"
#include "src/io/byte_size.hpp"

using namespace imgpar;

namespace {
constexpr std::uint64_t kK = 1024, kM = kK * 1024, kG = kM * 1024, kT = kG * 1024;

std::uint64_t parse(const std::string& text) { return parse_byte_size("--max-memory", text, 1, kT * 1024); }

// The usage error for `text`, which must name the option.
std::string refusal(const std::string& text, std::uint64_t min = 1, std::uint64_t max = kT * 1024) {
    try {
        parse_byte_size("--max-memory", text, min, max);
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        CHECK(std::string(e.what()).rfind("--max-memory: ", 0) == 0);
        return e.what();
    }
    FAIL_CHECK("'", text, "' was accepted");
    return "";
}
}  // namespace

TEST_CASE("byte sizes: units are binary, either case; fractions need a unit") {
    CHECK(parse("1048576") == kM);
    CHECK(parse("1K") == kK);
    CHECK(parse("512m") == 512 * kM);
    CHECK(parse("4G") == 4 * kG);
    CHECK(parse("1.5G") == 3 * kG / 2);
    CHECK(parse("0.5k") == 512);
    CHECK(parse("2T") == 2 * kT);
    CHECK(parse("0004g") == 4 * kG);
}

TEST_CASE("byte sizes: the whole argument, strictly, and in range") {
    for (const char* bad : {"", "G", "4GB", "4 G", " 4G", "4G ", "-1", "+4G", "1.5", "4.G", ".5G", "0x10", "1e9",
                            "4,5G", "4P", "inf"}) {
        INFO("'", bad, "'");
        const std::string e = refusal(bad);
        CHECK(e.find("binary: 1K = 1024 bytes") != std::string::npos);
    }
    CHECK(refusal("0", kM).find("is outside 1.0 MiB to") != std::string::npos);
    CHECK(refusal("2000T", kM, 1024 * kT).find("is outside 1.0 MiB to 1.0 PiB") != std::string::npos);
    CHECK(refusal("99999999999999999999999999", kM).find("is outside") != std::string::npos);
    CHECK(parse_byte_size("--max-memory", "1M", kM, kM) == kM);
}

TEST_CASE("byte sizes: as messages show them, and as an argument that parses back") {
    CHECK(byte_size_text(0) == "0 bytes");
    CHECK(byte_size_text(1) == "1 byte");
    CHECK(byte_size_text(1023) == "1023 bytes");
    CHECK(byte_size_text(1536) == "1.5 KiB");
    CHECK(byte_size_text(4 * kG) == "4.0 GiB");
    CHECK(byte_size_text(3 * kT) == "3.0 TiB");
    for (std::uint64_t v : {std::uint64_t{1000}, 4 * kG, 1536 * kM, 3 * kK, 2 * kT, 4 * kG + 1}) {
        const std::string arg = byte_size_argument(v);
        CHECK(parse(arg) == v);
    }
    CHECK(byte_size_argument(4 * kG) == "4G");
    CHECK(byte_size_argument(1536 * kM) == "1536M");
    CHECK(byte_size_argument(1000) == "1000");
}
