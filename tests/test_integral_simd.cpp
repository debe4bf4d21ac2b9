// The CPU summed-area table's vector rows and row bands (src/ops/integral.cpp,
// src/ops/simd/integral_rows.cpp) against the one-pass loop they replaced,
// kept here as the oracle: byte for byte, under every instruction set the
// machine runs, for every width up to 70 (every remainder of every vector
// width, for every channel count), every type, with and without squares, at
// several thread counts (row bands), and at the largest totals u32 holds.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "src/ops/integral.hpp"
#include "src/ops/simd/integral_rows.hpp"
#include "src/ops/simd/targets.hpp"
#include "src/parallel.hpp"
#include "tests/support/integral_reference.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// The oracle: one pass down the rows, each entry the entry above plus the
// running sum along the row, in T (the arithmetic of the plain loop).
template <typename T>
void oracle_plane(ConstViewU8 src, const SumTableView& t, int p) {
    const int C = src.channels;
    auto row = [&](int y) {
        return reinterpret_cast<T*>(static_cast<unsigned char*>(t.data) + (static_cast<std::size_t>(p) * t.height + y) * t.pitch);
    };
    std::memset(static_cast<void*>(row(0)), 0, t.row_bytes());
    for (int y = 0; y < src.height; ++y) {
        const std::uint8_t* in = src.row(y);
        const T* above = row(y);
        T* out = row(y + 1);
        T run[4] = {};
        for (int c = 0; c < C; ++c) out[c] = 0;
        for (int x = 0; x < src.width; ++x)
            for (int c = 0; c < C; ++c) {
                const unsigned v = in[x * C + c];
                run[c] += static_cast<T>(p == 1 ? v * v : v);
                const std::size_t i = static_cast<std::size_t>(x + 1) * C + c;
                out[i] = above[i] + run[c];
            }
    }
}

test::HostTable oracle_table(ConstViewU8 src, SumType type, bool squared) {
    test::HostTable t = test::host_table(src.width, src.height, src.channels, type, squared);
    for (int p = 0; p < t.view.planes; ++p) {
        switch (type) {
            case SumType::U32: oracle_plane<std::uint32_t>(src, t.view, p); break;
            case SumType::U64: oracle_plane<std::uint64_t>(src, t.view, p); break;
            case SumType::F64: oracle_plane<double>(src, t.view, p); break;
        }
    }
    return t;
}

// The index of the first differing byte of the two tables, or -1.
long long first_difference(const test::HostTable& want, const test::HostTable& got) {
    if (want.bytes.size() != got.bytes.size()) return 0;
    for (std::size_t i = 0; i < want.bytes.size(); ++i)
        if (want.bytes[i] != got.bytes[i]) return static_cast<long long>(i);
    return -1;
}

void check_same_table(const ImageU8& img, SumType type, bool squared) {
    const test::HostTable want = oracle_table(img.view(), type, squared);
    const test::HostTable got = test::cpu_table(img.view(), type, squared);
    CHECK(first_difference(want, got) == -1);
}

const SumType kTypes[] = {SumType::U32, SumType::U64, SumType::F64};

}  // namespace

TEST_CASE("integral simd: every width 1-70, every channel count, type and plane, under every instruction set") {
    int checked = 0;
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        for (int c = 1; c <= 4; ++c)
            for (int w = 1; w <= 70; ++w)
                for (SumType type : kTypes)
                    for (bool squared : {false, true}) {
                        CAPTURE(c);
                        CAPTURE(w);
                        CAPTURE(sum_type_name(type));
                        CAPTURE(squared);
                        const int h = 1 + w % 3;
                        const ImageU8 img = w % 5 == 4 ? test::constant_image(w, h, c, 255)
                                                       : test::random_image(w, h, c, static_cast<unsigned>(w * 7 + c));
                        check_same_table(img, type, squared);
                        ++checked;
                    }
    });
    CHECK(checked >= 4 * 70 * 3 * 2);
}

TEST_CASE("integral simd: one row, one column, all zero, under every instruction set") {
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        for (int c = 1; c <= 4; ++c)
            for (SumType type : kTypes)
                for (bool squared : {false, true}) {
                    CAPTURE(c);
                    CAPTURE(sum_type_name(type));
                    CAPTURE(squared);
                    check_same_table(test::random_image(1000, 1, c, 3), type, squared);
                    check_same_table(test::random_image(1, 1000, c, 4), type, squared);
                    check_same_table(test::constant_image(37, 5, c, 0), type, squared);
                }
    });
}

TEST_CASE("integral simd: the vector rows alone, in place and after a running total") {
    // integral_row with above == out (the row updated in place) and a row
    // above that is not the zero row, against the plain loop.
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        for (int c = 1; c <= 4; ++c)
            for (int w = 1; w <= 70; ++w) {
                CAPTURE(c);
                CAPTURE(w);
                const ImageU8 img = test::random_image(w, 1, c, static_cast<unsigned>(w + 100 * c));
                const std::size_t n = static_cast<std::size_t>(w + 1) * c;
                std::vector<std::uint64_t> above(n), want(n), got;
                for (std::size_t i = 0; i < n; ++i) above[i] = 1000003ull * i;
                std::uint64_t run[4] = {};
                for (int k = 0; k < c; ++k) want[static_cast<std::size_t>(k)] = 0;
                simd::integral_row_plain(img.row(0), w, c, true, above.data(), want.data(), 0, run);
                got = above;
                simd::integral_row(img.row(0), w, c, true, got.data(), got.data());
                CHECK(got == want);
            }
    });
}

TEST_CASE("integral simd: row bands give the one-pass table at every thread count") {
    // Large enough for several bands (a band holds at least 2^18 samples).
    const ImageU8 rgb = test::random_image(700, 900, 3, 11);
    const ImageU8 gray = test::random_image(1500, 1100, 1, 12);
    const ImageU8 rgba = test::random_image(401, 1303, 4, 13);
    for (int threads : {1, 2, 3, 7}) {
        CAPTURE(threads);
        set_cpu_thread_count(threads);
        for (const ImageU8* img : {&rgb, &gray, &rgba})
            for (SumType type : kTypes)
                for (bool squared : {false, true}) {
                    const int channels = img->channels();
                    CAPTURE(channels);
                    CAPTURE(sum_type_name(type));
                    CAPTURE(squared);
                    if (type == SumType::U32 && squared) continue;  // 65025 W H passes 32 bits
                    check_same_table(*img, type, squared);
                }
    }
    set_cpu_thread_count(0);
}

TEST_CASE("integral simd: white images at the largest totals a u32 table holds, in bands") {
    // 255 * 4112 * 4096 and 65025 * 66051 are the largest totals below 2^32;
    // the last entry of each is that total, every other as the oracle's.
    for (int threads : {1, 2, 5}) {
        CAPTURE(threads);
        set_cpu_thread_count(threads);
        const ImageU8 tall = test::constant_image(4112, 4096, 1, 255);
        check_same_table(tall, SumType::U32, false);
        const test::HostTable t = test::cpu_table(tall.view(), SumType::U32, false);
        CHECK(test::table_entry(t.view, 0, t.bytes.size() / 4 - 1) == 4294901760u);
        for (const ImageU8& line : {test::constant_image(66051, 1, 1, 255), test::constant_image(1, 66051, 1, 255)}) {
            check_same_table(line, SumType::U32, true);
            const test::HostTable sq = test::cpu_table(line.view(), SumType::U32, true);
            CHECK(test::table_entry(sq.view, 1, sq.bytes.size() / 8 - 1) == 4294966275u);
        }
    }
    set_cpu_thread_count(0);
}
