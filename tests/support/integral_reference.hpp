// Summed-area tables for the tests: an independent reference (columns
// summed first, then along the rows, in 64 bits: the other order from the
// library's) and a comparison that reports the first differing entry as
// (x, y, channel, plane, expected, actual).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <limits>
#include <vector>

#include "src/ops/integral.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test {

// Entries of a table of `src` ((H+1) x (W+1) x C, row-major), of the samples
// or of their squares.
template <typename T>
std::vector<std::uint64_t> reference_integral_of(ImageView<const T> src, bool squares) {
    const int W = src.width, H = src.height, C = src.channels;
    const std::size_t row = static_cast<std::size_t>(W + 1) * C;
    std::vector<std::uint64_t> column(static_cast<std::size_t>(W) * C, 0);
    std::vector<std::uint64_t> table(row * (H + 1), 0);
    for (int Y = 1; Y <= H; ++Y) {
        const T* in = src.row(Y - 1);
        for (std::size_t i = 0; i < column.size(); ++i) column[i] += squares ? std::uint64_t{in[i]} * in[i] : in[i];
        for (int c = 0; c < C; ++c) {
            std::uint64_t sum = 0;
            for (int X = 1; X <= W; ++X) {
                sum += column[static_cast<std::size_t>(X - 1) * C + c];
                table[Y * row + static_cast<std::size_t>(X) * C + c] = sum;
            }
        }
    }
    return table;
}
inline std::vector<std::uint64_t> reference_integral(ConstViewU8 src, bool squares) {
    return reference_integral_of(src, squares);
}
inline std::vector<std::uint64_t> reference_integral(ConstViewU16 src, bool squares) {
    return reference_integral_of(src, squares);
}

// An entry of a host table, as an integer (a double holds it exactly).
inline std::uint64_t table_entry(const SumTableView& t, int plane, std::size_t index) {
    const unsigned char* row0 = static_cast<const unsigned char*>(t.data) + static_cast<std::size_t>(plane) * t.height * t.pitch;
    const std::size_t per_row = static_cast<std::size_t>(t.width) * t.channels;
    const unsigned char* p = row0 + (index / per_row) * t.pitch + (index % per_row) * sum_type_bytes(t.type);
    switch (t.type) {
        case SumType::U32: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
        case SumType::U64: { std::uint64_t v; std::memcpy(&v, p, 8); return v; }
        case SumType::F64: { double v; std::memcpy(&v, p, 8); return static_cast<std::uint64_t>(v); }
    }
    return 0;
}

// A table in a packed host buffer, and its view.
struct HostTable {
    std::vector<std::uint8_t> bytes;
    SumTableView view;
};

// A packed buffer for the table of a width x height x channels image, filled
// with 0xAB so an entry left unwritten shows.
inline HostTable host_table(int width, int height, int channels, SumType type, bool squared) {
    HostTable t;
    t.view = sum_table_view(nullptr, type, width, height, channels, squared);
    t.bytes.assign(t.view.row_bytes() * t.view.height * t.view.planes, 0xAB);
    t.view.data = t.bytes.data();
    return t;
}

// cpu::integral of `src` (8 or 16 bits).
inline HostTable cpu_table(ConstViewU8 src, SumType type, bool squared) {
    HostTable t = host_table(src.width, src.height, src.channels, type, squared);
    cpu::integral(src, t.view);
    return t;
}
inline HostTable cpu_table(ConstViewU16 src, SumType type, bool squared) {
    HostTable t = host_table(src.width, src.height, src.channels, type, squared);
    cpu::integral(src, t.view);
    return t;
}

// Checks every entry of every plane of `t` against the reference of `src`;
// returns the number of differing entries (0 on success).
template <typename T>
std::size_t check_table_against_reference_of(ImageView<const T> src, const SumTableView& t) {
    std::size_t bad = 0;
    for (int p = 0; p < t.planes; ++p) {
        const std::vector<std::uint64_t> want = reference_integral(src, p == 1);
        for (std::size_t i = 0; i < want.size(); ++i) {
            const std::uint64_t got = table_entry(t, p, i);
            if (got == want[i]) continue;
            if (bad++ == 0) {
                const std::size_t per_row = static_cast<std::size_t>(t.width) * t.channels;
                const std::size_t s = i % per_row;
                FAIL_CHECK("first mismatch at (x, y, channel, plane) = (", s / t.channels, ", ", i / per_row, ", ",
                           s % t.channels, ", ", p, "): expected ", want[i], ", got ", got);
            }
        }
    }
    return bad;
}
inline std::size_t check_table_against_reference(ConstViewU8 src, const SumTableView& t) {
    return check_table_against_reference_of(src, t);
}
inline std::size_t check_table_against_reference(ConstViewU16 src, const SumTableView& t) {
    return check_table_against_reference_of(src, t);
}

// Calls check(image, type, squared) for every size of `sizes` (test images:
// random, every third one white), every channel count, every type, with and
// without squares; returns how many.
template <typename Check>
int for_each_table_case(const std::vector<std::pair<int, int>>& sizes, Check&& check) {
    int runs = 0;
    for (const auto& [w, h] : sizes)
        for (int c = 1; c <= 4; ++c)
            for (SumType type : {SumType::U32, SumType::U64, SumType::F64})
                for (bool squared : {false, true}) {
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(sum_type_name(type));
                    CAPTURE(squared);
                    // A u32 table of an image whose totals need more bits is refused
                    // (tested on its own); every other case is compared.
                    if (type == SumType::U32 &&
                        integral_bound(w, h, squared) > std::numeric_limits<std::uint32_t>::max())
                        continue;
                    const ImageU8 img = runs % 3 == 2 ? constant_image(w, h, c, 255)
                                                      : random_image(w, h, c, static_cast<unsigned>(runs));
                    check(img, type, squared);
                    ++runs;
                }
    return runs;
}

}  // namespace imgpar::test
