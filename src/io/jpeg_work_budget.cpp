#include "src/io/jpeg_work_budget.hpp"

#include "src/io/byte_size.hpp"

namespace imgpar {

namespace {

// 925892608 as "925,892,608": counts of blocks are read, not parsed.
std::string grouped(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// Products that cannot overflow for a real frame (65535 x 65535 x 4
// components is under 2^40 blocks) still saturate rather than wrap.
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
    if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
    return a * b;
}

}  // namespace

void JpegScanWork::add_scan(std::uint64_t blocks) {
    fewest = scans == 0 || blocks < fewest ? blocks : fewest;
    most = blocks > most ? blocks : most;
    ++scans;
    scan_blocks = scan_blocks + blocks < scan_blocks ? UINT64_MAX : scan_blocks + blocks;
}

std::uint64_t jpeg_work_limit(std::uint64_t image_blocks, std::uint64_t file_bytes) {
    const std::uint64_t passes = saturating_mul(image_blocks, kJpegPassesPerBlock);
    const std::uint64_t carried = saturating_mul(file_bytes, kJpegBlocksPerByte);
    return passes + carried < passes ? UINT64_MAX : passes + carried;
}

std::string jpeg_work_refusal(const JpegScanWork& work, std::uint64_t file_bytes, bool complete) {
    const std::uint64_t limit = jpeg_work_limit(work.image_blocks, file_bytes);
    if (work.scan_blocks <= limit) return {};
    const std::string scans = grouped(static_cast<std::uint64_t>(work.scans)) + " scans";
    std::string what = std::string(work.progressive ? "progressive " : "") + "JPEG " +
                       (complete ? "with " + scans + " over " : "whose first " + scans + " pass over ");
    if (work.fewest == work.most)
        what += grouped(work.most) + " blocks each";
    else
        what += grouped(work.fewest) + " to " + grouped(work.most) + " blocks";
    return what + " (" + grouped(work.scan_blocks) + " block decodes), more decoding work than a " +
           byte_size_text(file_bytes) + " file can hold: at most " + grouped(limit) + ", " +
           std::to_string(kJpegPassesPerBlock) + " passes over its " + grouped(work.image_blocks) + " blocks and " +
           std::to_string(kJpegBlocksPerByte) +
           " blocks for each byte of the file (the progressive JPEGs encoders write pass over each block about 6 times)";
}

}  // namespace imgpar
