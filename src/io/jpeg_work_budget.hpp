// How much decoding a JPEG's scans ask for, and the most its file may ask.
//
// A decoder passes over every block a scan covers, whatever the scan holds:
// libjpeg-turbo, for a block in a run of empty blocks, still visits it and
// (in a refinement scan) checks each of its coefficients. So a scan costs
// time in proportion to its blocks, not to its bytes, and a progressive file
// of hundreds of scans, each a few bytes of end-of-block runs over the whole
// image, costs minutes while staying under the cap on scans
// (kMaxJpegScans): the scan bomb. 883 scans are even a valid progression
// (every coefficient of a gray image: a first pass and 13 refinements).
//
// What real files do: libjpeg's progression (cjpeg -progressive, jpegtran,
// Pillow, browsers' encoders) passes over each block at most 6 times (a
// colour image about 5 times in all), and a photo carries several bytes of
// scan data a block. The budget allows kJpegPassesPerBlock passes over
// every block of the frame, which covers any progression an encoder writes
// for a flat image (the fewest bytes), plus kJpegBlocksPerByte blocks for
// each byte of the file, which grows with what the scans really carry: a
// photo's bytes alone allow dozens of passes. A bomb has hundreds of passes
// and a fraction of a byte a block. At the limit, decoding costs about what
// a real file of that frame costs (some 16 passes of at most ~30 ns a block).
//
// Enforced twice, with one formula: before decoding, from the walk over the
// markers (src/io/jpeg_check.hpp), so a bomb is refused at once; and while
// libjpeg-turbo decodes, from the scans it actually reads (its progress
// monitor, src/io/jpeg_errors.hpp), for a file the walk could not follow to
// its end.
#pragma once

#include <cstdint>
#include <string>

namespace imgpar {

constexpr std::uint64_t kJpegPassesPerBlock = 16;
constexpr std::uint64_t kJpegBlocksPerByte = 8;

// The blocks a file's scans pass over, counted as a decoder walks them: a
// scan of one component covers that component's blocks; an interleaved scan
// its MCUs' blocks (the padding of partial MCUs included).
struct JpegScanWork {
    bool progressive = false;
    std::uint64_t image_blocks = 0;  // the frame's blocks, each component's once
    int scans = 0;
    std::uint64_t scan_blocks = 0;   // over all scans: the decoding work
    std::uint64_t fewest = 0, most = 0;  // blocks of the smallest and largest scan

    void add_scan(std::uint64_t blocks);
};

// The most scan blocks a file of `file_bytes` over a frame of `image_blocks`
// may ask for.
std::uint64_t jpeg_work_limit(std::uint64_t image_blocks, std::uint64_t file_bytes);

// Empty when `work` is within the limit of a file of `file_bytes`; else why
// the file is refused, e.g. "progressive JPEG with 883 scans over 1,048,576
// blocks each, more decoding work than a 846.0 KiB file can hold (...)".
// `complete`: whether `work` counts all of the file's scans, or only those
// read so far.
std::string jpeg_work_refusal(const JpegScanWork& work, std::uint64_t file_bytes, bool complete = true);

}  // namespace imgpar
