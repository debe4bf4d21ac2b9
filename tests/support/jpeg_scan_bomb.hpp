// Progressive JPEG scan bombs, built byte by byte: a gray frame whose first
// scan carries its DC values, then hundreds of AC scans that each cover the
// whole image with runs of empty blocks (end-of-block runs of up to 32767
// blocks: a few bytes a scan). A decoder still passes over every block of
// every scan: 883 scans over 4 Mi blocks took libjpeg-turbo most of a
// minute for a file of under a megabyte. Header-only, for the unit and the
// command-line suites (src/io/jpeg_work_budget.hpp is what refuses them).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tests/support/hostile_files.hpp"

namespace imgpar::test {

// Entropy-coded bits, most significant first, with a 0 byte stuffed after
// each 0xFF and the last byte padded with 1 bits.
class ScanBits {
public:
    void put(unsigned value, int count) {
        for (int i = count - 1; i >= 0; --i) {
            acc_ = static_cast<unsigned>(acc_ << 1 | ((value >> i) & 1u));
            if (++bits_ == 8) flush_byte();
        }
    }
    Bytes done() {
        while (bits_ != 0) put(1, 1);
        return std::move(out_);
    }

private:
    void flush_byte() {
        out_.push_back(static_cast<std::uint8_t>(acc_));
        if (out_.back() == 0xFF) out_.push_back(0x00);
        acc_ = 0;
        bits_ = 0;
    }
    Bytes out_;
    unsigned acc_ = 0;
    int bits_ = 0;
};

// How the bomb's scans are laid out.
enum class ScanBomb {
    // 1 + 63 x 14 = 883 scans, a valid progression: every AC coefficient
    // alone, a first pass at the coarsest approximation (13) and its 13
    // refinements; the marker walk counts them all.
    ValidProgression,
    // The same scans but the first AC one (882): coefficient 1 is refined
    // without a first pass. libjpeg-turbo warns of the inconsistent
    // progression and goes on, while the marker walk stops at that scan, so
    // only the decoder's own count of the scans it reads can stop the file.
    BogusProgression,
};

// A `side` x `side` gray progressive JPEG of `kind`, every block empty.
inline Bytes jpeg_scan_bomb(int side, ScanBomb kind = ScanBomb::ValidProgression) {
    const std::uint32_t blocks = static_cast<std::uint32_t>((side + 7) / 8) * static_cast<std::uint32_t>((side + 7) / 8);
    JpegBytes j;
    j.soi().dqt(0).sof(0xC2, side, side, {{1, 1, 1, 0}});
    // DC table 0: one code, "0", for a difference of 0 (one bit a block).
    j.dht(0, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0x00});
    // AC table 0: the end-of-block runs EOB0 to EOB14 (symbols 0x00 to
    // 0xE0), 4 bits each.
    Bytes runs;
    for (int r = 0; r < 15; ++r) runs.push_back(static_cast<std::uint8_t>(r << 4));
    j.dht(1, 0, {0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, runs);
    ScanBits dc;
    for (std::uint32_t b = 0; b < blocks; ++b) dc.put(0, 1);
    j.sos({{1, 0, 0}}, 0, 0, 0, 0).raw(dc.done());
    // Each AC scan: end-of-block runs over all of the blocks.
    ScanBits ac;
    for (std::uint32_t left = blocks; left > 0;) {
        const std::uint32_t run = left < 32767 ? left : 32767;
        int r = 0;
        while ((run >> (r + 1)) != 0) ++r;  // EOBr: 2^r + r extra bits
        ac.put(static_cast<unsigned>(r), 4);
        ac.put(run - (1u << r), r);
        left -= run;
    }
    const Bytes ac_data = ac.done();
    for (int k = 1; k < 64; ++k) {
        if (k > 1 || kind == ScanBomb::ValidProgression) j.sos({{1, 0, 0}}, k, k, 0, 13).raw(ac_data);
        for (int ah = 13; ah >= 1; --ah) j.sos({{1, 0, 0}}, k, k, ah, ah - 1).raw(ac_data);
    }
    j.eoi();
    return j.bytes;
}

}  // namespace imgpar::test
