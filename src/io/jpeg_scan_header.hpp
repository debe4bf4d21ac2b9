// The markers of a sequential Huffman-coded JPEG with one scan over all of
// its components, read up to the scan's entropy-coded data: what the scan
// walk (src/io/jpeg_scan.hpp) and the GPU Huffman plan
// (src/io/jpeg_huffman_plan.hpp) both need, parsed once, by one set of rules.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar {

// A DHT table as the file defines it: symbols per code length and the
// symbols; `defined` once a DHT has set it (the last one before the scan wins).
struct JpegHuffmanSpec {
    bool defined = false;
    std::uint8_t counts[16] = {};  // codes of length 1..16
    std::uint8_t values[256] = {};
    int total = 0;
};

struct JpegScanComponent {
    int id = 0, h = 0, v = 0, quant = 0;
    int dc = -1, ac = -1;  // the scan's tables
};

struct JpegScanHeader {
    int width = 0, height = 0;
    int frame_marker = 0;  // 0xC0 or 0xC1
    int components = 0;    // 1 or 3
    JpegScanComponent comp[4];
    int scan_order[4] = {};  // frame component indices, as the scan interleaves them
    int restart_interval = 0;
    std::size_t scan_data = 0;  // where the entropy-coded data begins
    JpegHuffmanSpec dc[4], ac[4];
    bool quant_defined[4] = {};
    std::uint8_t quant[4][64] = {};  // each table's values in the file's (zigzag) order
};

// Reads the markers from SOI to the first scan. False for anything else than
// an 8-bit SOF0/SOF1 frame of 1 or 3 components whose first scan covers all
// of them with defined tables, sequentially (Ss 0, Se 63, no approximation);
// false too when a table the scan uses is one libjpeg-turbo refuses (codes
// that overflow their length or use the all-ones code, DC symbols over 15).
// Never reads past `size`.
bool read_jpeg_scan_header(const std::uint8_t* data, std::size_t size, JpegScanHeader& h);

// Whether libjpeg-turbo takes `t` as a table a scan uses (jdhuff.c's
// jpeg_make_d_derived_tbl): the canonical codes of each length fit in that
// many bits with the all-ones code left unused, and, for a DC table (`dc`),
// every symbol (a difference's bit count) is at most 15. libjpeg-turbo checks
// only the tables a scan uses, when it starts.
bool libjpeg_takes_huffman_table(const JpegHuffmanSpec& t, bool dc);

// Calls code_of(length, code, symbol index) for each code of `t` in canonical
// order (lengths 1..16, codes counting up): how both readers build their
// lookup tables, for tables read_jpeg_scan_header checked.
template <typename Visit>
void for_each_huffman_code(const JpegHuffmanSpec& t, Visit code_of) {
    std::int32_t code = 0;
    int index = 0;
    for (int length = 1; length <= 16; ++length) {
        for (int k = 0; k < t.counts[length - 1]; ++k, ++code, ++index) code_of(length, code, index);
        code <<= 1;
    }
}

}  // namespace imgpar
