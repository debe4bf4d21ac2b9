// A walk over a whole JPEG file's markers, read but not decoded: every table
// and header checked against what the standard allows and against what each
// scan refers to; the entropy-coded data skipped and measured.
//
// It stands in front of stb_image, the decoder of builds without
// libjpeg-turbo, whose version 2.27 (Debian 12's) trusts what it reads: a
// Huffman table declaring more than 256 codes writes past its arrays, and a
// scan that names a table the file never defined, or a component no scan
// fills, decodes whatever memory the decoder last held (another file's
// pixels). With libjpeg-turbo, which checks its tables itself, the walk's
// measures serve the checks made before decoding: whether the file ends, and
// whether its scan data can hold the blocks its frame claims at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/io/jpeg_work_budget.hpp"

namespace imgpar {

// Scans a decoder passes over the whole image for, each: more than this is
// refused (a hostile progressive file can make every decoder spend minutes).
constexpr int kMaxJpegScans = 1000;

struct JpegCheck {
    // The first thing found that a careful decoder must refuse, naming the
    // segment and its offset, e.g. "DHT segment at byte 20: Huffman table
    // AC1 declares 2040 codes (at most 256)"; empty when none was found.
    std::string problem;
    // Whether `problem` lies before the first scan's data: in the segments
    // that reading the header (stbi_info) parses.
    bool problem_in_header = false;

    bool frame = false;        // a frame header (SOF) was read
    bool arithmetic = false;   // arithmetic-coded (SOF9-SOF15)
    bool progressive = false;
    int scans = 0;

    // Whether an end-of-image marker follows the last scan.
    bool ends = false;
    // Empty when every component of the frame is filled by some scan (a
    // progressive one by its first DC scan); else which one is not, e.g.
    // "component 3 of 3 is in no scan".
    std::string uncovered;
    // Entropy-coded bytes of all scans (stuffed zeros counted, restart
    // markers not), and the fewest bytes a Huffman coder can fit the blocks
    // of the scans present into: 2 bits a block in a sequential scan (the
    // shortest DC code and end-of-block code), 1 bit in a progressive DC scan.
    // 0 for arithmetic coding, which has no such floor.
    std::uint64_t scan_bytes = 0;
    std::uint64_t min_scan_bytes = 0;

    // The blocks the scans pass over, against the frame's: more than the
    // file's size can hold (src/io/jpeg_work_budget.hpp) is a `problem`,
    // found after the last scan.
    JpegScanWork work;

    // Whether the scan data is far too short for the frame: fewer bytes than
    // any coding of its blocks needs. Such a file was cut or is a forgery
    // (a 300-byte file claiming 16384x16384).
    bool data_too_short() const { return scan_bytes < min_scan_bytes; }
};

// Walks `data` from SOI to EOI (or its end). Never reads past `size`.
JpegCheck check_jpeg(const std::uint8_t* data, std::size_t size);

}  // namespace imgpar
