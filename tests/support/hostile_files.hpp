// Image files built byte by byte, so a test shows what is wrong with each:
// JPEG segment by segment, PNG chunk by chunk (its image data in stored
// deflate blocks: no zlib needed), BMP field by field. Header-only, for the
// unit and the command-line suites.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/png_crc.hpp"

namespace imgpar::test {

using Bytes = std::vector<std::uint8_t>;

// A JPEG as a list of segments.
class JpegBytes {
public:
    struct Component {
        int id = 1, h = 1, v = 1, table = 0;
    };

    JpegBytes& soi() { return raw({0xFF, 0xD8}); }
    JpegBytes& eoi() { return raw({0xFF, 0xD9}); }
    JpegBytes& raw(const Bytes& b) {
        bytes.insert(bytes.end(), b.begin(), b.end());
        return *this;
    }
    JpegBytes& zeros(std::size_t n) { return raw(Bytes(n, 0)); }
    // FF marker, the length (payload + 2), the payload.
    JpegBytes& segment(int marker, const Bytes& payload) {
        const std::size_t length = payload.size() + 2;
        raw({0xFF, static_cast<std::uint8_t>(marker), static_cast<std::uint8_t>(length >> 8),
             static_cast<std::uint8_t>(length & 0xFF)});
        return raw(payload);
    }
    // A quantization table of 64 ones.
    JpegBytes& dqt(int id) {
        Bytes p{static_cast<std::uint8_t>(id)};
        p.insert(p.end(), 64, 1);
        return segment(0xDB, p);
    }
    // A Huffman table: class 0 (DC) or 1 (AC), id, how many codes of each
    // length 1..16, the symbols (as many as the counts add up to, unless a
    // test wants otherwise).
    JpegBytes& dht(int cls, int id, const std::array<int, 16>& counts, const Bytes& symbols) {
        Bytes p{static_cast<std::uint8_t>(cls << 4 | id)};
        for (int c : counts) p.push_back(static_cast<std::uint8_t>(c));
        p.insert(p.end(), symbols.begin(), symbols.end());
        return segment(0xC4, p);
    }
    // The standard luminance tables of the JPEG specification (Annex K.3):
    // DC category 0 is the code 00, AC end-of-block is 1010.
    JpegBytes& standard_dc(int id) {
        return dht(0, id, {0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    }
    JpegBytes& standard_ac(int id) {
        static const Bytes symbols = {
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71,
            0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72,
            0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37,
            0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
            0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83,
            0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3,
            0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
            0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
            0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa};
        return dht(1, id, {0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d}, symbols);
    }
    // A frame header (0xC0 baseline, 0xC2 progressive, ...), 8-bit samples.
    JpegBytes& sof(int marker, int width, int height, const std::vector<Component>& comps, int precision = 8) {
        Bytes p{static_cast<std::uint8_t>(precision), static_cast<std::uint8_t>(height >> 8), static_cast<std::uint8_t>(height),
                static_cast<std::uint8_t>(width >> 8), static_cast<std::uint8_t>(width),
                static_cast<std::uint8_t>(comps.size())};
        for (const Component& c : comps)
            p.insert(p.end(), {static_cast<std::uint8_t>(c.id), static_cast<std::uint8_t>(c.h << 4 | c.v),
                               static_cast<std::uint8_t>(c.table)});
        return segment(marker, p);
    }
    // A scan header: each component's id with its DC and AC table ids.
    struct ScanComponent {
        int id = 1, dc = 0, ac = 0;
    };
    JpegBytes& sos(const std::vector<ScanComponent>& comps, int ss = 0, int se = 63, int ah = 0, int al = 0) {
        Bytes p{static_cast<std::uint8_t>(comps.size())};
        for (const ScanComponent& c : comps)
            p.insert(p.end(), {static_cast<std::uint8_t>(c.id), static_cast<std::uint8_t>(c.dc << 4 | c.ac)});
        p.insert(p.end(), {static_cast<std::uint8_t>(ss), static_cast<std::uint8_t>(se), static_cast<std::uint8_t>(ah << 4 | al)});
        return segment(0xDA, p);
    }

    Bytes bytes;
};

// Scan data for `blocks` gray blocks of one level (each: DC difference 0,
// code 00, then end-of-block, 1010), padded with 1 bits.
inline Bytes flat_blocks(int blocks) {
    Bytes out;
    unsigned acc = 0;
    int bits = 0;
    for (int b = 0; b < blocks; ++b) {
        acc = acc << 6 | 0x0A;  // 00 1010
        bits += 6;
        while (bits >= 8) {
            out.push_back(static_cast<std::uint8_t>(acc >> (bits - 8)));
            bits -= 8;
            if (out.back() == 0xFF) out.push_back(0x00);
        }
    }
    if (bits > 0) out.push_back(static_cast<std::uint8_t>((acc << (8 - bits)) | ((1u << (8 - bits)) - 1)));
    return out;
}

// The headers of a baseline gray JPEG with the standard tables.
inline JpegBytes gray_jpeg_headers(int width, int height) {
    JpegBytes j;
    j.soi().dqt(0).sof(0xC0, width, height, {{1, 1, 1, 0}}).standard_dc(0).standard_ac(0);
    return j;
}

// A whole, valid gray JPEG: every block the same mid-gray.
inline Bytes flat_gray_jpeg(int width, int height) {
    JpegBytes j = gray_jpeg_headers(width, height);
    j.sos({{1, 0, 0}}).raw(flat_blocks(((width + 7) / 8) * ((height + 7) / 8))).eoi();
    return j.bytes;
}

// What crashed stb_image 2.27: a Huffman table of 2040 codes (255 of each
// length 9 to 16: a prefix code, but 8 times what the decoder's arrays
// hold), before an otherwise valid gray image.
inline Bytes oversized_huffman_jpeg() {
    JpegBytes j;
    std::array<int, 16> counts{};
    for (int len = 9; len <= 16; ++len) counts[static_cast<std::size_t>(len - 1)] = 255;
    j.soi().dqt(0).dht(1, 1, counts, Bytes(2040, 0x01)).sof(0xC0, 16, 8, {{1, 1, 1, 0}}).standard_dc(0).standard_ac(0);
    j.sos({{1, 0, 0}}).raw(flat_blocks(2)).eoi();
    return j.bytes;
}

// A harmless-looking gray JPEG whose scan uses DC table 3, which no DHT
// segment defines: a decoder that does not check reads whatever its table
// memory held (the previous file's).
inline Bytes undefined_table_jpeg() {
    JpegBytes j = gray_jpeg_headers(16, 8);
    j.sos({{1, 3, 0}}).raw(flat_blocks(2)).eoi();
    return j.bytes;
}

// A 300-byte file claiming a gray image of `side` x `side` with 16 bytes of
// scan data (a megabyte at the least for 16384 x 16384).
inline Bytes jpeg_bomb(int side) {
    JpegBytes j = gray_jpeg_headers(side, side);
    j.sos({{1, 0, 0}}).zeros(16).eoi();
    return j.bytes;
}

// ---- PNG ------------------------------------------------------------------

inline void put_be32(Bytes& b, std::uint32_t v) {
    for (int i = 3; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

inline Bytes png_chunk(const std::string& type, const Bytes& data) {
    Bytes c;
    put_be32(c, static_cast<std::uint32_t>(data.size()));
    c.insert(c.end(), type.begin(), type.end());
    c.insert(c.end(), data.begin(), data.end());
    put_be32(c, png_crc(c.data() + 4, c.size() - 4));
    return c;
}

// A zlib stream holding `raw` in stored (uncompressed) deflate blocks.
inline Bytes stored_zlib(const Bytes& raw) {
    Bytes z{0x78, 0x01};
    std::size_t at = 0;
    do {
        const std::size_t n = std::min<std::size_t>(65535, raw.size() - at);
        const bool last = at + n == raw.size();
        z.insert(z.end(), {static_cast<std::uint8_t>(last ? 1 : 0), static_cast<std::uint8_t>(n & 0xFF),
                           static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(~n & 0xFF),
                           static_cast<std::uint8_t>((~n >> 8) & 0xFF)});
        z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(at), raw.begin() + static_cast<std::ptrdiff_t>(at + n));
        at += n;
    } while (at < raw.size());
    std::uint32_t a = 1, b = 0;  // Adler-32
    for (std::uint8_t v : raw) {
        a = (a + v) % 65521;
        b = (b + a) % 65521;
    }
    put_be32(z, b << 16 | a);
    return z;
}

// A PNG of `rows` (each row's bytes as stored, without its filter byte:
// filter 0 is added), with `before_data` chunks (tRNS, ...) after IHDR.
inline Bytes png_file(int width, int height, int depth, int color_type, const std::vector<Bytes>& rows,
                      const std::vector<Bytes>& before_data = {}) {
    Bytes png{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    Bytes ihdr;
    put_be32(ihdr, static_cast<std::uint32_t>(width));
    put_be32(ihdr, static_cast<std::uint32_t>(height));
    ihdr.insert(ihdr.end(), {static_cast<std::uint8_t>(depth), static_cast<std::uint8_t>(color_type), 0, 0, 0});
    const Bytes header = png_chunk("IHDR", ihdr);
    png.insert(png.end(), header.begin(), header.end());
    for (const Bytes& c : before_data) png.insert(png.end(), c.begin(), c.end());
    Bytes raw;
    for (const Bytes& r : rows) {
        raw.push_back(0);
        raw.insert(raw.end(), r.begin(), r.end());
    }
    const Bytes idat = png_chunk("IDAT", stored_zlib(raw));
    png.insert(png.end(), idat.begin(), idat.end());
    const Bytes iend = png_chunk("IEND", {});
    png.insert(png.end(), iend.begin(), iend.end());
    return png;
}

// ---- BMP ------------------------------------------------------------------

inline void put_le(Bytes& b, std::uint32_t v, int n) {
    for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// An 8-bit palette BMP (40-byte info header, bottom-up rows) with
// `palette` entries (gray levels 0, 1, 2, ...) and the given pixel indices,
// row by row; `offset` overrides where the header says the pixels start.
inline Bytes bmp_8bit(int width, int height, int palette, const std::vector<Bytes>& rows, long offset = -1) {
    // A negative height stores the rows top-down.
    const std::uint32_t stride = (static_cast<std::uint32_t>(width) + 3) / 4 * 4;
    const std::uint32_t rows_stored = static_cast<std::uint32_t>(height < 0 ? -height : height);
    const std::uint32_t data_at = offset >= 0 ? static_cast<std::uint32_t>(offset) : 14 + 40 + 4 * static_cast<std::uint32_t>(palette);
    Bytes b{'B', 'M'};
    put_le(b, data_at + stride * rows_stored, 4);
    put_le(b, 0, 4);
    put_le(b, data_at, 4);
    put_le(b, 40, 4);
    put_le(b, static_cast<std::uint32_t>(width), 4);
    put_le(b, static_cast<std::uint32_t>(height), 4);
    put_le(b, 1, 2);
    put_le(b, 8, 2);
    put_le(b, 0, 4);  // no compression
    put_le(b, stride * rows_stored, 4);
    put_le(b, 2835, 4);
    put_le(b, 2835, 4);
    put_le(b, static_cast<std::uint32_t>(palette), 4);
    put_le(b, 0, 4);
    for (int i = 0; i < palette; ++i) put_le(b, static_cast<std::uint32_t>(i * 0x010101), 4);
    while (b.size() < data_at) b.push_back(0);
    for (const Bytes& r : rows) {
        Bytes row = r;
        row.resize(stride, 0);
        b.insert(b.end(), row.begin(), row.end());
    }
    return b;
}

}  // namespace imgpar::test
