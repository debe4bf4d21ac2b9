// Two 16-bit counters in one 32-bit word (the 16-bit GPU histogram's shared-
// memory table, cuda/histogram16.cu), updated by a plain atomic addition and
// settled exactly in 64-bit totals. Host and device share it so the CPU tests
// can drive every order of additions through the same arithmetic.
//
// The word is low + 65536 * high modulo 2^32. Adding n (1..65535) to one
// counter adds packed_increment(high, n) to the word; from the word's value
// before the addition (which an atomic addition returns), settle_packed_add
// gives what the two counters' 64-bit totals are owed, so that after any
// sequence of additions, in any order, total + the word's half is each
// counter's true count (modulo 2^64, which the sums stay far below):
// - a low counter that passes 65,535 wraps: its total gets 65,536, and the
//   carry made the high counter one too many, which its total takes back;
// - the high counter wraps, by its own addition or by that carry when it was
//   65,535: its total gets 65,536 (the carry out of the word is lost).
#pragma once

#include <cstdint>

#include "src/hd.hpp"

namespace imgpar {

IMGPAR_HD std::uint32_t packed_increment(bool high, std::uint32_t n) { return high ? n << 16 : n; }

struct PackedSettlement {
    unsigned long long own = 0;        // to the counter added to
    unsigned long long neighbour = 0;  // to the high counter, after a low one's carry (modulo 2^64)
};

IMGPAR_HD PackedSettlement settle_packed_add(std::uint32_t old, bool high, std::uint32_t n) {
    PackedSettlement s;
    const std::uint32_t lo = old & 0xFFFFu, hi = old >> 16;
    if (high) {
        if (hi + n > 0xFFFFu) s.own = 0x10000ull;
    } else if (lo + n > 0xFFFFu) {
        s.own = 0x10000ull;
        s.neighbour = hi == 0xFFFFu ? 0xFFFFull : ~0ull;  // +65536 - 1 when the carry wrapped it, else -1
    }
    return s;
}

}  // namespace imgpar
