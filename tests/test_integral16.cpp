// Summed-area tables of 16-bit images (src/ops/integral.hpp, 16-BIT CONTRACT)
// against the independent reference (tests/support/integral_reference.hpp:
// columns first, then rows, in 64 bits), every type that holds the bound,
// with and without squares, every channel count, odd sizes; and the type
// rules for 16-bit bounds.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "src/error.hpp"
#include "src/ops/integral.hpp"
#include "tests/support/integral_reference.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

TEST_CASE("integral u16: every type that holds the bound, squares, channel count and odd size") {
    int runs = 0;
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c)
            for (SumType type : {SumType::U32, SumType::U64, SumType::F64})
                for (bool squared : {false, true}) {
                    const std::uint64_t bound = integral_bound(w, h, squared, 65535);
                    if (type == SumType::U32 && bound > std::numeric_limits<std::uint32_t>::max()) continue;
                    if (type == SumType::F64 && bound > (std::uint64_t{1} << 53)) continue;
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(sum_type_name(type));
                    CAPTURE(squared);
                    const ImageU16 img = runs % 3 == 2 ? test::flat_image16(w, h, c, 65535)
                                                       : test::random_runs_image16(w, h, c, static_cast<unsigned>(runs));
                    const test::HostTable t = test::cpu_table(img.view(), type, squared);
                    CHECK(test::check_table_against_reference(img.view(), t.view) == 0);
                    ++runs;
                }
    CHECK(runs > 300);
}

TEST_CASE("integral u16: a table of squares of a large white image in u64 is exact") {
    // 65535^2 * 1500 * 1100 passes 2^52: f64 would be refused past 2^53, u64 holds it.
    const ImageU16 img = test::flat_image16(1500, 1100, 1, 65535);
    const test::HostTable t = test::cpu_table(img.view(), SumType::U64, true);
    const std::uint64_t corner = test::table_entry(t.view, 1, static_cast<std::size_t>(1101) * 1501 - 1);
    CHECK(corner == std::uint64_t{65535} * 65535 * 1500 * 1100);
}

TEST_CASE("integral u16: auto, u32 and f64 follow the 16-bit bounds") {
    IntegralSpec spec;
    // sums of 65537 pixels fit 32 bits (65535 * 65537 = 2^32 - 1), one more does not
    CHECK(integral_type(spec, 65537, 1, "a", 65535) == SumType::U32);
    CHECK(integral_type(spec, 65538, 1, "a", 65535) == SumType::U64);
    CHECK(integral_type(spec, 1000, 1000, "a", 255) == SumType::U32);  // 8 bits unchanged
    spec.squared = true;
    CHECK(integral_type(spec, 1, 1, "a", 65535) == SumType::U32);
    CHECK(integral_type(spec, 2, 1, "a", 65535) == SumType::U64);
    spec.type = SumType::U32;
    CHECK_THROWS_AS(integral_type(spec, 2, 1, "a", 65535), Error);
    spec.type = SumType::F64;
    CHECK(integral_type(spec, 2048, 1024, "a", 65535) == SumType::F64);  // 65535^2 * 2^21 < 2^53
    CHECK_THROWS_AS(integral_type(spec, 4096, 4096, "a", 65535), Error);
    CHECK(integral_type(spec, 4096, 4096, "a", 255) == SumType::F64);  // 8 bits unchanged

    const ImageU16 img = test::random_runs_image16(3, 2, 1);
    test::HostTable t = test::host_table(3, 2, 1, SumType::U32, true);
    CHECK_THROWS_AS(cpu::integral(img.view(), t.view), Error);
}
