// Summed-area tables on the CPU (src/ops/integral.hpp) against the reference
// of tests/support/integral_reference.hpp: every type, with and without
// squares, every channel count, sizes around the GPU's tiles; the type
// choice and its errors.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "src/error.hpp"
#include "src/ops/integral.hpp"
#include "tests/support/integral_reference.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

TEST_CASE("integral: every entry equals the reference, for every type, channel count and awkward size") {
    std::vector<std::pair<int, int>> sizes = test::awkward_sizes();
    for (int n : {31, 32, 33, 63, 64, 65}) sizes.push_back({n, 97 - n});
    const int checked = test::for_each_table_case(sizes, [](const ImageU8& img, SumType type, bool squared) {
        const test::HostTable t = test::cpu_table(img.view(), type, squared);
        CHECK(test::check_table_against_reference(img.view(), t.view) == 0);
    });
    CHECK(checked > 300);
}

TEST_CASE("integral: a white image's totals are exact at the 32-bit limit and past it") {
    // 255 * 4096 * 4112 = 4294901760 fits in 32 bits; one more row does not.
    const ImageU8 fits = test::constant_image(4096, 4112, 1, 255);
    const test::HostTable t32 = test::cpu_table(fits.view(), SumType::U32, false);
    CHECK(test::table_entry(t32.view, 0, t32.bytes.size() / 4 - 1) == 4294901760u);
    CHECK(integral_type(IntegralSpec{}, 4096, 4112, "f") == SumType::U32);
    CHECK(integral_type(IntegralSpec{}, 4096, 4113, "f") == SumType::U64);
    const ImageU8 past = test::constant_image(4096, 4113, 1, 255);
    for (SumType type : {SumType::U64, SumType::F64}) {
        const test::HostTable t = test::cpu_table(past.view(), type, false);
        CHECK(test::table_entry(t.view, 0, t.bytes.size() / 8 - 1) == 255ull * 4096 * 4113);
    }
}

TEST_CASE("integral: --dtype auto is the smallest type every possible total fits; u32 past it fails the file") {
    CHECK(integral_bound(2, 3, false) == 255u * 6);
    CHECK(integral_bound(2, 3, true) == 65025u * 6);
    IntegralSpec sq;
    sq.squared = true;
    CHECK(integral_type(sq, 66051, 1, "f") == SumType::U32);  // 65025 * 66051 = 4294966275
    CHECK(integral_type(sq, 66052, 1, "f") == SumType::U64);
    IntegralSpec u32;
    u32.type = SumType::U32;
    CHECK(integral_type(u32, 4096, 4112, "f") == SumType::U32);
    try {
        integral_type(u32, 6000, 4000, "big.png");
        FAIL("u32 for a 24 MP image was accepted");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        CHECK(std::string(e.what()).find("big.png") != std::string::npos);
        CHECK(std::string(e.what()).find("--dtype u64") != std::string::npos);
    }
    IntegralSpec f64;
    f64.type = SumType::F64;
    CHECK(integral_type(f64, 1, 1, "f") == SumType::F64);
    // The CPU entry refuses a u32 table it cannot fill exactly.
    const ImageU8 img(6000, 4000, 1);
    std::vector<std::uint8_t> bytes(16);
    const SumTableView t = sum_table_view(bytes.data(), SumType::U32, 6000, 4000, 1, false);
    CHECK_THROWS_AS(cpu::integral(img.view(), t), Error);
}

TEST_CASE("integral: --dtype words") {
    CHECK_FALSE(parse_sum_type("auto").has_value());
    CHECK(parse_sum_type("u32") == SumType::U32);
    CHECK(parse_sum_type("u64") == SumType::U64);
    CHECK(parse_sum_type("f64") == SumType::F64);
    CHECK_THROWS_WITH_AS(parse_sum_type("i32"), doctest::Contains("--dtype"), Error);
}

TEST_CASE("integral: a table of another shape is refused") {
    const ImageU8 img = test::random_image(5, 4, 3);
    std::vector<std::uint8_t> bytes(1024);
    SumTableView t = sum_table_view(bytes.data(), SumType::U64, 5, 4, 3, false);
    t.channels = 1;
    CHECK_THROWS_AS(cpu::integral(img.view(), t), Error);
    t = sum_table_view(bytes.data(), SumType::U64, 4, 4, 3, false);
    CHECK_THROWS_AS(cpu::integral(img.view(), t), Error);
}
