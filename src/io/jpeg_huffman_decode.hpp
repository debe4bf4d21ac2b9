// Huffman decoding of a baseline JPEG scan by many decoders at once, each
// starting in the middle of the bits: the self-synchronising scheme of
// Weissenberger and Schmidt ("Massively parallel Huffman decoding on GPUs",
// ICPP 2018), written for JPEG's blocks. The same functions run on a GPU
// thread each (cuda/jpeg_huffman.cu) and in a loop on the CPU
// (src/io/jpeg_huffman_cpu.hpp), so the CPU proves the GPU's algorithm
// against libjpeg-turbo.
//
// Why it works: a decoder that starts at an arbitrary bit, as if a code began
// there, decodes garbage for a while, but Huffman codes fall back into step
// with the true symbol boundaries after a few symbols. So the bits of each
// restart interval are cut into subsequences of a fixed size, and:
//   phase 1: each decoder decodes its subsequence from its first bit, in
//            block slot 0 at coefficient 0, and records where that leaves it
//            (the state: first symbol at or past the end, block slot in the
//            MCU, coefficient index) and the blocks and DC differences it
//            decoded;
//   phase 2: decoder i walks on into i+1, i+2, ..., decoding each from the
//            state the previous one ends in and replacing its record, until
//            its end state agrees with the one recorded there (then
//            everything after agrees too); repeated until a pass of walks
//            changes no record. The first subsequence of an interval starts
//            exactly (a restart resets the state), so the records settle, by
//            induction, to the ones a serial decode makes: the unique fixed
//            point, whatever order the decoders ran in;
//   phase 3: an exclusive scan of the blocks (and DC differences) each
//            subsequence completes gives each decoder its first block and
//            the DC predictors it starts with;
//   phase 4: each decoder decodes its subsequence again from its settled
//            state and writes the coefficients (natural order) and the DC
//            values (differences summed per component, from 0 at each
//            interval, as the standard says) into JpegCoefficients' layout.
//
// Damage is found exactly as src/io/jpeg_scan.hpp's walk defines it: a code
// in no table, a DC size over 11 or AC size over 10, a coefficient past the
// block, a zero run no coefficient follows, an interval that ends before its
// blocks do or leaves 8 or more bits after them. Phase 4 looks only at the
// blocks the file's frame needs (the serial decode's), so garbage decoded
// from an interval's padding bits never counts; a decoder that meets bad
// codes while still out of step steps over one bit (any fixed rule would do;
// this one always advances).
//
// No std:: containers, no exceptions: plain structs and pointers (src/hd.hpp).
#pragma once

#include <cstdint>

#include "src/hd.hpp"

namespace imgpar::huffman {

constexpr int kFastBits = 9;    // one lookup settles codes of up to 9 bits: nearly all of a photo's
constexpr int kTables = 8;      // DC tables 0-3, then AC tables 0-3
constexpr int kBitPadding = 8;  // zero bytes after the bits, so peek32's two words near the end stay inside
constexpr int kMaxSlots = 10;   // blocks in an MCU, the standard's limit
// The GPU's subsequence: 256 bits (32 bytes) gives a 1 MB scan 32k decoders,
// enough to fill a GPU with a few files, while staying several symbols long
// so that decoders fall into step within their neighbour. Not yet measured.
constexpr std::uint32_t kSubsequenceBits = 256;

// Phase 2's bounds. Huffman codes fall into step within a few symbols, so a
// walk is short and two walks settle every state; but a scan can be coded so
// that decoders never fall into step (every symbol 8 bits and a block always
// 64 symbols: a decoder a few symbols off stays off), and unbounded walks
// would then cost each decoder the whole interval. So a walk goes at most
// kMaxWalk subsequences, and after kMaxPasses passes of walks that still
// change records the file is not taken (libjpeg-turbo decodes it): a
// decoder's worst case is then kMaxPasses * kMaxWalk subsequences. The walk
// bound only costs passes (the records settle on the serial decode's); how
// many passes depends on the order the threads ran, so giving up is no
// verdict on the file, only on this decoder's fit for it. Encoders' files
// settle in two passes.
constexpr std::uint32_t kMaxWalk = 64;
constexpr int kMaxPasses = 64;

// Why a file is not taken after decoding, as flags: damage, or decoders that
// never fell into step.
enum Damage : std::uint32_t {
    kBadCode = 1,         // no such code, a size too large, a coefficient past the block
    kTooFewBlocks = 2,    // an interval's bits end inside its blocks
    kBadEnd = 4,          // an interval's last block runs past its bits or leaves 8 or more after it
    kOutOfStep = 8,       // not damage: phase 2 ran out of passes
};

// A Huffman table as a decoder thread reads it: codes of up to kFastBits in
// one lookup, longer ones by canonical order (largest code of each length).
struct Lookup {
    std::uint16_t fast[1 << kFastBits];  // (length << 8) | symbol; 0: a longer code
    std::int32_t max_code[17];           // [length]; -1 when there is none
    std::int32_t value_offset[17];       // symbol index = value_offset[length] + code
    std::uint8_t values[256];
};

// One block of an MCU.
struct Slot {
    std::uint8_t component;  // frame index (JpegCoefficients' component)
    std::uint8_t dc, ac;     // tables: indices into View::tables
    std::uint8_t bx, by;     // the block's place within the component's part of the MCU
    std::uint8_t h, v;       // that part's size in blocks (1 x 1 in a one-component scan)
};

struct Layout {
    int components = 0;
    int slots = 0;  // blocks per MCU
    Slot slot[kMaxSlots] = {};
    std::uint32_t mcus_x = 0, mcus = 0;     // MCUs per row; in all
    std::uint32_t mcus_per_interval = 0;    // the restart interval, or all MCUs
    std::uint32_t intervals = 0, subsequences = 0;
    std::uint32_t subsequence_bits = 0;
    std::int32_t blocks_wide[3] = {}, blocks_high[3] = {};
    std::uint64_t first_block[3] = {};
    std::uint8_t natural[64] = {};  // zigzag index -> row-major index
};

struct View {
    Layout layout;
    const Lookup* tables;                         // kTables
    const std::uint8_t* bits;                     // the intervals' bits, then kBitPadding zero bytes
    const std::uint32_t* interval_bit;            // intervals + 1
    const std::uint32_t* first_subsequence;       // intervals + 1
    const std::uint32_t* subsequence_interval;    // subsequences
};

// What a subsequence adds up: blocks completed in it and the DC differences
// of each component decoded in it (modulo 2^32: libjpeg-turbo keeps the sum
// in an int and stores its low 16 bits, so wrapping sums give its values).
struct Sums {
    std::uint32_t blocks;
    std::uint32_t dc[3];
};

IMGPAR_HD Sums add(const Sums& a, const Sums& b) {
    Sums s;
    s.blocks = a.blocks + b.blocks;
    for (int c = 0; c < 3; ++c) s.dc[c] = a.dc[c] + b.dc[c];
    return s;
}

// A decoder's state: the bit where its next symbol starts, the block slot in
// the MCU and the coefficient (zigzag index; 0 is the DC) it is decoding.
struct State {
    std::uint32_t pos, slot, k;
};

// Packed in one word, so that phase 2's decoders read and write a state whole.
IMGPAR_HD std::uint64_t pack(const State& s) {
    return static_cast<std::uint64_t>(s.pos) << 16 | static_cast<std::uint64_t>(s.slot) << 8 | s.k;
}
IMGPAR_HD State unpack(std::uint64_t w) {
    State s;
    s.pos = static_cast<std::uint32_t>(w >> 16);
    s.slot = static_cast<std::uint32_t>(w >> 8) & 0xFF;
    s.k = static_cast<std::uint32_t>(w) & 0xFF;
    return s;
}

// A state another decoder may be writing: read it whole, from memory.
IMGPAR_HD std::uint64_t load_shared(const std::uint64_t* p) { return *static_cast<const volatile std::uint64_t*>(p); }
IMGPAR_HD void store_shared(std::uint64_t* p, std::uint64_t v) { *static_cast<volatile std::uint64_t*>(p) = v; }

IMGPAR_HD std::uint32_t subsequence_begin(const View& v, std::uint32_t j) {
    const std::uint32_t iv = v.subsequence_interval[j];
    return v.interval_bit[iv] + (j - v.first_subsequence[iv]) * v.layout.subsequence_bits;
}
IMGPAR_HD std::uint32_t subsequence_end(const View& v, std::uint32_t j) {
    const std::uint32_t iv = v.subsequence_interval[j];
    const std::uint64_t end = std::uint64_t{subsequence_begin(v, j)} + v.layout.subsequence_bits;
    return end < v.interval_bit[iv + 1] ? static_cast<std::uint32_t>(end) : v.interval_bit[iv + 1];
}

// The 32 bits from bit `pos` on, first bit highest: from the two aligned
// 32-bit words that hold them (two loads a symbol where five byte loads were;
// `bits` is 4-byte aligned, and kBitPadding keeps the second word inside).
IMGPAR_HD std::uint32_t peek32(const std::uint8_t* bits, std::uint32_t pos) {
#if defined(__CUDA_ARCH__)
    const std::uint32_t* w = reinterpret_cast<const std::uint32_t*>(bits) + (pos >> 5);
    const std::uint32_t hi = __byte_perm(__ldg(w), 0u, 0x0123u), lo = __byte_perm(__ldg(w + 1), 0u, 0x0123u);
    return __funnelshift_l(lo, hi, pos & 31);
#else
    const std::uint8_t* p = bits + 4 * (pos >> 5);
    const auto be32 = [](const std::uint8_t* q) {
        return static_cast<std::uint32_t>(q[0]) << 24 | static_cast<std::uint32_t>(q[1]) << 16 |
               static_cast<std::uint32_t>(q[2]) << 8 | q[3];
    };
    const std::uint32_t hi = be32(p), lo = be32(p + 4);
    const std::uint32_t shift = pos & 31;
    return shift == 0 ? hi : (hi << shift) | (lo >> (32 - shift));
#endif
}

// The symbol whose code starts `w`, and its code's length; -1 for no code.
IMGPAR_HD int lookup(const Lookup& t, std::uint32_t w, int& length) {
    const std::uint16_t e = t.fast[w >> (32 - kFastBits)];
    if (e >> 8) {
        length = e >> 8;
        return e & 0xFF;
    }
    for (int l = kFastBits + 1; l <= 16; ++l) {
        const auto code = static_cast<std::int32_t>(w >> (32 - l));
        if (code <= t.max_code[l]) {
            length = l;
            return t.values[t.value_offset[l] + code];
        }
    }
    return -1;
}

// The value of `size` extra bits (JPEG's F.12 EXTEND), taken from the top of `w`.
IMGPAR_HD int extend(std::uint32_t w, int size) {
    if (size == 0) return 0;
    const int v = static_cast<int>(w >> (32 - size));
    return v < (1 << (size - 1)) ? v - (1 << size) + 1 : v;
}

// Decodes symbols from `s` while its position is before `end`, telling
// `sink` what each does: dc(slot, difference), coefficient(zigzag index,
// value), bad() for damage, block_end(position after the block). Returns the
// state it stops in: its position is the first symbol start at or past `end`.
template <typename Sink>
IMGPAR_HD State decode_range(const View& v, State s, std::uint32_t end, Sink& sink) {
    const Layout& l = v.layout;
    while (s.pos < end) {
        const std::uint32_t w = peek32(v.bits, s.pos);
        const Slot& slot = l.slot[s.slot];
        int length = 0;
        bool done = false, bad = false;
        if (s.k == 0) {
            const int size = lookup(v.tables[slot.dc], w, length);
            if (size < 0 || size > 11) {
                bad = true;
            } else {
                sink.dc(s.slot, extend(w << length, size));
                s.pos += static_cast<std::uint32_t>(length + size);
                s.k = 1;
            }
        } else {
            const int rs = lookup(v.tables[slot.ac], w, length);
            const int run = rs >> 4, size = rs & 15;
            if (rs < 0 || size > 10) {
                bad = true;
            } else if (size == 0 && run != 15) {  // end of block (libjpeg-turbo takes any run with size 0 so)
                s.pos += static_cast<std::uint32_t>(length);
                done = true;
            } else if (size == 0) {  // sixteen zeros
                if (s.k + 16 >= 64) {
                    bad = true;  // a zero run no coefficient follows
                } else {
                    s.pos += static_cast<std::uint32_t>(length);
                    s.k += 16;
                }
            } else if (s.k + static_cast<std::uint32_t>(run) > 63) {
                bad = true;  // past the block
            } else {
                s.k += static_cast<std::uint32_t>(run);
                sink.coefficient(s.k, extend(w << length, size));
                s.pos += static_cast<std::uint32_t>(length + size);
                done = ++s.k == 64;
            }
        }
        if (bad) {
            sink.bad();
            s.pos += 1;
            done = true;
        }
        if (done) {
            sink.block_end(s.pos);
            s.slot = s.slot + 1 == static_cast<std::uint32_t>(l.slots) ? 0 : s.slot + 1;
            s.k = 0;
        }
    }
    return s;
}

// Phases 1 and 2's sink: blocks completed and DC differences per component.
struct CountSink {
    const Layout* layout;
    Sums sums;
    IMGPAR_HD void dc(std::uint32_t slot, int diff) {
        sums.dc[layout->slot[slot].component] += static_cast<std::uint32_t>(diff);
    }
    IMGPAR_HD void coefficient(std::uint32_t, int) {}
    IMGPAR_HD void bad() {}
    IMGPAR_HD void block_end(std::uint32_t) { ++sums.blocks; }
};

// Where decoder j starts: exactly at its interval's first bit (a restart
// resets the state), else where subsequence j - 1's decode ended.
IMGPAR_HD std::uint64_t start_of(const View& v, std::uint32_t j, const std::uint64_t* end) {
    if (j == v.first_subsequence[v.subsequence_interval[j]]) return pack(State{subsequence_begin(v, j), 0, 0});
    return load_shared(end + j - 1);
}

IMGPAR_HD bool same(const Sums& a, const Sums& b) {
    return a.blocks == b.blocks && a.dc[0] == b.dc[0] && a.dc[1] == b.dc[1] && a.dc[2] == b.dc[2];
}

// Phase 1 for decoder j: from its subsequence's first bit as if a block
// began there (exact for an interval's first), recording the state it ends
// in and what it adds up.
IMGPAR_HD void phase1(const View& v, std::uint32_t j, std::uint64_t* end, Sums* sums) {
    CountSink sink{&v.layout, Sums{0, {0, 0, 0}}};
    end[j] = pack(decode_range(v, State{subsequence_begin(v, j), 0, 0}, subsequence_end(v, j), sink));
    sums[j] = sink.sums;
}

// Phase 2's walk for decoder j: from the state its subsequence ends in, on
// through the next subsequences of its interval, decoding each again and
// recording its end state and sums where they differ, until its end state
// is the one recorded (from there on, both decodes are one), or kMaxWalk
// subsequences on. True when it wrote. A walk that writes nothing checks
// that subsequence j + 1's record is its decode from subsequence j's end: a
// pass of walks that all write nothing leaves every record the serial
// decode's. Walks racing on a record all write its correct value once their
// own start is right, which the first subsequence of an interval's is; so
// each pass settles at least one more subsequence.
IMGPAR_HD bool phase2_walk(const View& v, std::uint32_t j, std::uint64_t* end, Sums* sums) {
    const std::uint32_t last = v.first_subsequence[v.subsequence_interval[j] + 1];
    const std::uint32_t stop = last - j > kMaxWalk ? j + 1 + kMaxWalk : last;
    std::uint64_t state = load_shared(end + j);
    bool wrote = false;
    for (std::uint32_t m = j + 1; m < stop; ++m) {
        CountSink sink{&v.layout, Sums{0, {0, 0, 0}}};
        const std::uint64_t e = pack(decode_range(v, unpack(state), subsequence_end(v, m), sink));
        const bool in_step = load_shared(end + m) == e;
        if (!same(sums[m], sink.sums)) {
            sums[m] = sink.sums;
            wrote = true;
        }
        if (in_step) break;
        store_shared(end + m, e);
        wrote = true;
        state = e;
    }
    return wrote;
}

// Phase 4's sink: writes the blocks of the frame's part of the interval,
// checks them for damage and ignores what follows them (the padding bits).
struct WriteSink {
    const Layout* layout;
    std::int16_t* out;           // JpegCoefficients' blocks
    std::uint32_t block;         // the block being decoded, counted from the interval's first
    std::uint32_t blocks;        // the interval's blocks
    std::uint64_t first_stream;  // the interval's first block in the scan's order
    std::uint32_t end_bit;       // the interval's end
    std::uint32_t dc_value[3];   // DC predictors
    std::int16_t* target;        // the block's coefficients; null for an MCU's padding block
    std::uint32_t damage;

    IMGPAR_HD void locate() {
        target = nullptr;
        if (block >= blocks) return;
        const Layout& l = *layout;
        const std::uint64_t g = first_stream + block;
        const std::uint64_t mcu = g / static_cast<std::uint32_t>(l.slots);
        const Slot& s = l.slot[g % static_cast<std::uint32_t>(l.slots)];
        const std::uint64_t x = (mcu % l.mcus_x) * s.h + s.bx, y = (mcu / l.mcus_x) * s.v + s.by;
        const int c = s.component;
        if (x < static_cast<std::uint64_t>(l.blocks_wide[c]) && y < static_cast<std::uint64_t>(l.blocks_high[c]))
            target = out + (l.first_block[c] + y * static_cast<std::uint64_t>(l.blocks_wide[c]) + x) * 64;
    }
    IMGPAR_HD void dc(std::uint32_t slot, int diff) {
        if (block >= blocks) return;
        const int c = layout->slot[slot].component;
        dc_value[c] += static_cast<std::uint32_t>(diff);
        if (target) target[0] = static_cast<std::int16_t>(static_cast<std::uint16_t>(dc_value[c]));
    }
    IMGPAR_HD void coefficient(std::uint32_t k, int value) {
        if (target) target[layout->natural[k]] = static_cast<std::int16_t>(value);
    }
    IMGPAR_HD void bad() {
        if (block < blocks) damage |= kBadCode;
    }
    IMGPAR_HD void block_end(std::uint32_t pos) {
        if (block + 1 == blocks && (pos > end_bit || end_bit - pos >= 8)) damage |= kBadEnd;
        ++block;
        locate();
    }
};

// Phase 4 for decoder j: `before` is the exclusive scan of all subsequences'
// Sums (subsequences + 1 entries). Writes into `out` (all blocks zeroed
// first) and returns the damage found (0 for none).
IMGPAR_HD std::uint32_t phase4(const View& v, std::uint32_t j, const std::uint64_t* end, const Sums* before,
                               std::int16_t* out) {
    const Layout& l = v.layout;
    const std::uint32_t iv = v.subsequence_interval[j];
    const Sums& base = before[v.first_subsequence[iv]];
    const std::uint32_t first_mcu = iv * l.mcus_per_interval;
    const std::uint32_t mcus = l.mcus - first_mcu < l.mcus_per_interval ? l.mcus - first_mcu : l.mcus_per_interval;
    WriteSink sink;
    sink.layout = &l;
    sink.out = out;
    sink.block = before[j].blocks - base.blocks;
    sink.blocks = mcus * static_cast<std::uint32_t>(l.slots);
    sink.first_stream = static_cast<std::uint64_t>(first_mcu) * static_cast<std::uint32_t>(l.slots);
    sink.end_bit = v.interval_bit[iv + 1];
    for (int c = 0; c < 3; ++c) sink.dc_value[c] = before[j].dc[c] - base.dc[c];
    sink.damage = 0;
    sink.locate();
    // The interval's first decoder also checks that its decoders complete all of its blocks.
    if (j == v.first_subsequence[iv] && before[v.first_subsequence[iv + 1]].blocks - base.blocks < sink.blocks)
        sink.damage |= kTooFewBlocks;
    decode_range(v, unpack(start_of(v, j, end)), subsequence_end(v, j), sink);
    return sink.damage;
}

}  // namespace imgpar::huffman
