#include "src/io/jpeg_scan.hpp"

#include <array>
#include <cstring>
#include <memory>

#include "src/io/jpeg_scan_header.hpp"

namespace imgpar {

namespace {

// A Huffman table as libjpeg-turbo derives it: canonical codes by length;
// codes of up to kFastBits bits found with one lookup.
constexpr int kFastBits = 10;

// What one lookup in an AC table settles: a code and its coefficient's extra
// bits together (a coefficient's code and extra bits are at most 26 bits, and
// the buffer holds 32 or more when it is looked up).
struct AcStep {
    enum Kind : std::uint8_t { None, Coefficient, EndOfBlock, ZeroRun, Bad };
    std::uint8_t bits = 0;     // bits taken: the code's and its extra bits'
    std::uint8_t advance = 0;  // coefficients passed: run + 1, or 16 for a zero run
    Kind kind = None;          // None: a code longer than kFastBits bits
};

struct HuffmanTable {
    bool defined = false;
    std::array<std::uint16_t, 1 << kFastBits> fast{};  // (length << 8) | symbol; length 0: a longer code
    std::array<AcStep, 1 << kFastBits> ac{};           // the same codes, read as AC symbols
    std::array<std::int32_t, 17> max_code{};           // the largest code of each length, -1 when none
    std::array<int, 17> value_offset{};                // symbol index = value_offset[length] + code
    std::array<std::uint8_t, 256> values{};
};

// The AC symbol `rs` read with a code of `length` bits, as libjpeg-turbo's
// decoder takes it; what no encoder writes (more than 10 extra bits) is Bad.
AcStep ac_step(int rs, int length) {
    AcStep step;
    const int run = rs >> 4, size = rs & 15;
    step.bits = static_cast<std::uint8_t>(length);
    if (size == 0) {
        step.kind = run == 15 ? AcStep::ZeroRun : AcStep::EndOfBlock;
        step.advance = 16;
        return step;
    }
    if (size > 10) {
        step.kind = AcStep::Bad;
        return step;
    }
    step.kind = AcStep::Coefficient;
    step.advance = static_cast<std::uint8_t>(run + 1);
    step.bits = static_cast<std::uint8_t>(length + size);
    return step;
}

// The lookup tables of a DHT table the header reader took.
void build_table(HuffmanTable& t, const JpegHuffmanSpec& spec) {
    t = HuffmanTable{};
    for (int i = 0; i < spec.total; ++i) t.values[static_cast<std::size_t>(i)] = spec.values[i];
    for (auto& m : t.max_code) m = -1;
    for_each_huffman_code(spec, [&](int length, std::int32_t code, int index) {
        t.value_offset[static_cast<std::size_t>(length)] = index - code;  // alike for every code of a length
        t.max_code[static_cast<std::size_t>(length)] = code;              // the last one stays
        if (length <= kFastBits) {
            const int spread = 1 << (kFastBits - length);
            for (int j = 0; j < spread; ++j)
                t.fast[static_cast<std::size_t>((code << (kFastBits - length)) + j)] =
                    static_cast<std::uint16_t>(length << 8 | spec.values[index]);
        }
    });
    for (std::size_t i = 0; i < t.fast.size(); ++i) {
        const int length = t.fast[i] >> 8;
        if (length) t.ac[i] = ac_step(t.fast[i] & 0xFF, length);
    }
    t.defined = true;
}

// 8 bytes as read from memory, first byte highest.
inline std::uint64_t to_big_endian(std::uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return __builtin_bswap64(w);
#else
    return w;
#endif
}

// Reads entropy-coded bits as libjpeg-turbo does: 0xFF 0x00 is a data byte
// 0xFF (fill bytes 0xFF before it are skipped); any other 0xFF starts a
// marker, which ends the data. Past the data it supplies zero bits and
// remembers that they were taken: libjpeg-turbo's "premature end" case.
class BitReader {
public:
    BitReader(const std::uint8_t* data, std::size_t size, std::size_t start) : d_(data), size_(size), pos_(start) {}

    // The next Huffman symbol, or -1 for a code that is in no table.
    int symbol(const HuffmanTable& t) {
        if (count_ < 16) refill();
        const std::uint16_t e = t.fast[static_cast<std::size_t>(bits_ >> (64 - kFastBits))];
        if (e >> 8) {
            skip(e >> 8);
            return e & 0xFF;
        }
        return long_symbol(t);
    }

    // The AC codes of one block, up to its end-of-block code or its 63rd
    // coefficient; false for a code in no table, a coefficient past the
    // block or a zero run no coefficient follows (no encoder writes them,
    // and decoders differ on them). The bit buffer stays in registers: one
    // lookup settles most codes with their extra bits.
    bool ac_block(const HuffmanTable& t) {
        std::uint64_t bits = bits_;
        int count = count_;
        int k = 1;
        bool ok = true;
        for (;;) {
            if (count < 32) {
                bits_ = bits;
                count_ = count;
                refill();
                bits = bits_;
                count = count_;
            }
            AcStep e = t.ac[static_cast<std::size_t>(bits >> (64 - kFastBits))];
            if (e.kind == AcStep::None) {  // a code longer than kFastBits bits: its extra bits remain
                bits_ = bits;
                count_ = count;
                const int rs = long_symbol(t);
                bits = bits_;
                count = count_;
                if (rs < 0) return false;
                e = ac_step(rs, 0);
            }
            bits <<= e.bits;
            count -= e.bits;
            if (e.kind == AcStep::Coefficient) {
                k += e.advance;
                if (k < 64) continue;
                ok = k == 64;  // the last coefficient, or one past the block
            } else if (e.kind == AcStep::ZeroRun) {
                k += 16;
                if (k < 64) continue;
                ok = false;  // a zero run no coefficient follows
            } else {
                ok = e.kind == AcStep::EndOfBlock;
            }
            break;
        }
        bits_ = bits;
        count_ = count;
        return ok;
    }

    // n <= 32 bits.
    void skip(int n) {
        if (count_ < n) refill();
        bits_ <<= n;
        count_ -= n;
    }

    // Whether bits past the data were taken (they stay taken: nothing real
    // comes after the padding).
    bool overrun() const { return count_ < padding_; }

    // At the end of a restart interval or of the scan: true when only the
    // last byte's padding bits are left and a marker follows, whose code is
    // then returned in `marker` and the reader moves past it.
    bool marker_next(int& marker) {
        refill();
        if (marker_at_ == kNone || count_ - padding_ >= 8 || marker_at_ >= size_) return false;
        std::size_t i = marker_at_;
        while (i < size_ && d_[i] == 0xFF) ++i;
        if (i >= size_) return false;
        marker = d_[i];
        pos_ = i + 1;
        marker_at_ = kNone;
        bits_ = 0;
        count_ = padding_ = 0;
        return true;
    }

private:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    int long_symbol(const HuffmanTable& t) {
        const auto top = static_cast<std::int32_t>(bits_ >> 48);
        for (int length = kFastBits + 1; length <= 16; ++length) {
            const std::int32_t code = top >> (16 - length);
            if (code <= t.max_code[static_cast<std::size_t>(length)]) {
                skip(length);
                return t.values[static_cast<std::size_t>(t.value_offset[static_cast<std::size_t>(length)] + code)];
            }
        }
        return -1;
    }

    // Fills the buffer to more than 56 bits: whole words where the next 8
    // bytes hold no 0xFF (almost everywhere), byte by byte elsewhere.
    void refill() {
        while (count_ <= 56) {
            if (marker_at_ == kNone && pos_ + 8 <= size_) {
                std::uint64_t word = 0;
                std::memcpy(&word, d_ + pos_, 8);
                word = to_big_endian(word);
                const std::uint64_t inverted = ~word;  // a 0xFF byte is a zero byte here
                if (((inverted - 0x0101010101010101u) & ~inverted & 0x8080808080808080u) == 0) {
                    const int bytes = (64 - count_) / 8;
                    const std::uint64_t taken = bytes == 8 ? word : word & ~(~std::uint64_t{0} >> (8 * bytes));
                    bits_ |= taken >> count_;
                    count_ += 8 * bytes;
                    pos_ += static_cast<std::size_t>(bytes);
                    continue;
                }
            }
            if (marker_at_ != kNone) {  // past the data: zero bits
                count_ += 8;
                padding_ += 8;
                continue;
            }
            if (pos_ >= size_) {
                marker_at_ = size_;
                continue;
            }
            const std::uint8_t b = d_[pos_];
            if (b == 0xFF) {
                std::size_t q = pos_ + 1;
                while (q < size_ && d_[q] == 0xFF) ++q;
                if (q >= size_ || d_[q] != 0x00) {
                    marker_at_ = pos_;
                    continue;
                }
                pos_ = q + 1;
            } else {
                ++pos_;
            }
            bits_ |= static_cast<std::uint64_t>(b) << (56 - count_);
            count_ += 8;
        }
    }

    const std::uint8_t* d_;
    std::size_t size_;
    std::size_t pos_;
    std::uint64_t bits_ = 0;  // left-aligned
    int count_ = 0;           // bits held
    int padding_ = 0;         // of those, zero bits supplied past the data
    std::size_t marker_at_ = kNone;
};

struct Tables {
    HuffmanTable dc[4], ac[4];
};

bool block(BitReader& r, const HuffmanTable& dc, const HuffmanTable& ac) {
    const int s = r.symbol(dc);
    if (s < 0 || s > 11) return false;
    r.skip(s);
    return r.ac_block(ac) && !r.overrun();
}

}  // namespace

bool jpeg_scan_is_clean(const std::uint8_t* data, std::size_t size) {
    JpegScanHeader h;
    if (!read_jpeg_scan_header(data, size, h)) return false;
    auto tables = std::make_unique<Tables>();
    for (int c = 0; c < h.components; ++c) {
        build_table(tables->dc[h.comp[c].dc], h.dc[h.comp[c].dc]);
        build_table(tables->ac[h.comp[c].ac], h.ac[h.comp[c].ac]);
    }
    int hmax = 1, vmax = 1, blocks_per_mcu = 0;
    for (int c = 0; c < h.components; ++c) {
        hmax = h.comp[c].h > hmax ? h.comp[c].h : hmax;
        vmax = h.comp[c].v > vmax ? h.comp[c].v : vmax;
        blocks_per_mcu += h.comp[c].h * h.comp[c].v;
    }
    if (blocks_per_mcu > 10) return false;  // the standard's limit; libjpeg-turbo refuses more
    // One component: an MCU is one block, whatever its sampling factors.
    const bool single = h.components == 1;
    const int mcu_w = single ? 8 : 8 * hmax, mcu_h = single ? 8 : 8 * vmax;
    const long long mcus = static_cast<long long>((h.width + mcu_w - 1) / mcu_w) * ((h.height + mcu_h - 1) / mcu_h);
    BitReader r(data, size, h.scan_data);
    int next_restart = 0;
    for (long long m = 0; m < mcus; ++m) {
        if (h.restart_interval && m > 0 && m % h.restart_interval == 0) {
            int marker = 0;
            if (!r.marker_next(marker) || marker != 0xD0 + next_restart) return false;
            next_restart = (next_restart + 1) & 7;
        }
        for (int s = 0; s < h.components; ++s) {
            const JpegScanComponent& k = h.comp[h.scan_order[s]];
            const int n = single ? 1 : k.h * k.v;
            for (int b = 0; b < n; ++b)
                if (!block(r, tables->dc[k.dc], tables->ac[k.ac])) return false;
        }
    }
    int marker = 0;
    return r.marker_next(marker) && marker == 0xD9;
}

}  // namespace imgpar
