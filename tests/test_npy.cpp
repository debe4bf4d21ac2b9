// NumPy .npy files (src/io/npy.hpp): the header bytes NumPy's format 1.0
// prescribes, read back by the parser, and hostile headers refused.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/io/npy.hpp"

using namespace imgpar;

namespace {

NpyHeader parse(const std::string& bytes) {
    return parse_npy_header("t.npy", reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

std::string v1(const std::string& dict) {
    std::string h("\x93NUMPY\x01\x00", 8);
    h += static_cast<char>(dict.size() & 0xff);
    h += static_cast<char>(dict.size() >> 8);
    return h + dict;
}

}  // namespace

TEST_CASE("npy: the header is format 1.0, little-endian, C order, padded to 64 bytes with a newline") {
    const std::string h = npy_header(NpyType::U64, {5, 4, 3});
    CHECK(h.size() % 64 == 0);
    CHECK(h.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) == 0);
    const std::size_t length = static_cast<unsigned char>(h[8]) | static_cast<std::size_t>(static_cast<unsigned char>(h[9])) << 8;
    CHECK(length + 10 == h.size());
    CHECK(h.back() == '\n');
    CHECK(h.find("{'descr': '<u8', 'fortran_order': False, 'shape': (5, 4, 3), }") == 10);
    CHECK(npy_header(NpyType::U32, {7}).find("'shape': (7,)") != std::string::npos);
    CHECK(npy_header(NpyType::F64, {2, 3}).find("'descr': '<f8'") != std::string::npos);
    CHECK(npy_header(NpyType::U32, {2, 3}).find("'descr': '<u4'") != std::string::npos);
    CHECK_THROWS_AS(npy_header(NpyType::U32, {}), Error);
    CHECK_THROWS_AS(npy_header(NpyType::U32, {3, 0}), Error);
}

TEST_CASE("npy: headers read back, including a one-dimensional shape and NumPy's own spacing") {
    for (const auto& shape : std::vector<std::vector<std::size_t>>{{1}, {9}, {2, 3}, {2, 4097, 4097, 3}}) {
        const std::string h = npy_header(NpyType::U32, shape);
        const NpyHeader r = parse(h);
        CHECK(r.descr == "<u4");
        CHECK_FALSE(r.fortran_order);
        CHECK(r.shape == shape);
        CHECK(r.data_offset == h.size());
    }
    // As numpy.save writes it (spaces differ, keys in another order are fine too).
    const NpyHeader r = parse(v1("{'descr': '<i8', 'fortran_order': True, 'shape': (3,), }      \n"));
    CHECK(r.descr == "<i8");
    CHECK(r.fortran_order);
    CHECK(r.shape == std::vector<std::size_t>{3});
}

TEST_CASE("npy: a file being built holds its header and room for the samples, aligned") {
    NpyFile f(NpyType::U64, {3, 5});
    CHECK(f.size() == npy_header(NpyType::U64, {3, 5}).size() + 15 * 8);
    CHECK(f.data_bytes() == 15 * 8);
    CHECK(reinterpret_cast<std::uintptr_t>(f.data()) % 8 == 0);
    CHECK(std::memcmp(f.bytes(), "\x93NUMPY", 6) == 0);
    CHECK(parse_npy_header("f", f.bytes(), f.size()).data_offset == f.size() - f.data_bytes());
}

TEST_CASE("npy: bad headers are input errors naming the file") {
    const std::string cases[] = {
        "",
        "PNG\x89",
        std::string("\x93NUMPY\x03\x00\x10\x00", 10),
        v1("{'descr': '<u8', 'fortran_order': False, 'shape': (3, 4), }").substr(0, 30),
        v1("{'descr': '<u8', 'fortran_order': False, 'shape': (3, 4), }\n").substr(0, 40),
        v1("{'fortran_order': False, 'shape': (3, 4), }\n"),
        v1("{'descr': '<u8', 'fortran_order': Maybe, 'shape': (3, 4), }\n"),
        v1("{'descr': '<u8', 'fortran_order': False, 'shape': (3, x), }\n"),
        v1("{'descr': '<u8', 'fortran_order': False, 'shape': (3,, 4), }\n"),
        v1("{'descr': '<u8', 'fortran_order': False, 'shape': (99999999999999999999999,), }\n"),
        v1("{'descr': '<u8', 'fortran_order': False, }\n"),
    };
    for (const std::string& bytes : cases) {
        CAPTURE(bytes);
        try {
            parse(bytes);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Input);
            CHECK(std::string(e.what()).find("t.npy") == 0);
        }
    }
}
