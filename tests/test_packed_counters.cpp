// The settlement of the 16-bit GPU histogram's packed counters
// (src/ops/packed_counters.hpp): whatever the order of additions to a word,
// each counter's 64-bit total plus its half of the word is its true count
// after every single addition. The device applies the same functions to the
// values its atomic additions return, so any order it takes is one of these.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "src/ops/packed_counters.hpp"

using namespace imgpar;

namespace {

struct Word {
    std::uint32_t bits = 0;
    unsigned long long total[2] = {0, 0};  // settled 64-bit totals (modulo 2^64)
    unsigned long long truth[2] = {0, 0};

    void add(bool high, std::uint32_t n) {
        const std::uint32_t old = bits;
        bits = old + packed_increment(high, n);
        const PackedSettlement s = settle_packed_add(old, high, n);
        total[high ? 1 : 0] += s.own;
        if (!high) total[1] += s.neighbour;
        else CHECK(s.neighbour == 0ull);
        truth[high ? 1 : 0] += n;
    }
    bool exact() const { return total[0] + (bits & 0xFFFFu) == truth[0] && total[1] + (bits >> 16) == truth[1]; }
};

}  // namespace

TEST_CASE("packed 16-bit counters: every wrap settled, in any order") {
    SUBCASE("a carry into a high counter at 65535, and out of the word") {
        Word w;
        w.add(true, 0xFFFF);  // high at 65535
        w.add(false, 0xFFFF);  // low at 65535
        REQUIRE(w.bits == 0xFFFFFFFFu);
        w.add(false, 1);  // low wraps, its carry wraps the high counter
        CHECK(w.bits == 0u);
        CHECK(w.exact());
        w.add(true, 1);
        w.add(false, 0xFFFF);
        w.add(false, 2);  // low wraps with the high at 1: the high total takes one back
        CHECK(w.exact());
        CHECK(w.truth[0] == 0x10000u * 2 + 1);
    }
    SUBCASE("single counts: many wraps of both halves, interleaved") {
        Word w;
        std::mt19937 rng(7);
        for (int i = 0; i < 600000; ++i) {
            w.add((rng() % 3u) == 0u, 1);
            if (i % 997 == 0) REQUIRE(w.exact());
        }
        CHECK(w.exact());
        CHECK(w.truth[0] > 3u * 0x10000u);
        CHECK(w.truth[1] > 3u * 0x10000u / 2u);
    }
    SUBCASE("warp-sized and large additions, every order near the boundaries") {
        std::mt19937 rng(11);
        for (int run = 0; run < 2000; ++run) {
            Word w;
            for (int i = 0; i < 400; ++i) {
                const bool high = (rng() & 1u) != 0u;
                const std::uint32_t n = (rng() & 3u) == 0u ? 1u + rng() % 0xFFFFu : 1u + rng() % 32u;
                w.add(high, n);
                if (!w.exact()) {
                    FAIL_CHECK("run " << run << " step " << i << ": word " << w.bits);
                    break;
                }
            }
        }
    }
}
