#include "src/io/jpeg_huffman_cpu.hpp"

namespace imgpar {

std::string jpeg_huffman_damage_reason(std::uint32_t damage) {
    if (damage & huffman::kBadCode) return "a damaged Huffman code in the scan";
    if (damage & huffman::kTooFewBlocks) return "a restart interval or the scan ends before its blocks";
    return "a restart interval or the scan holds bits past its blocks";
}

JpegHuffmanResult decode_jpeg_huffman_cpu(const JpegHuffmanPlan& plan) {
    JpegHuffmanResult r;
    if (!plan.taken) {
        r.reason = plan.reason;
        return r;
    }
    const huffman::View v = plan.view();
    const std::uint32_t n = v.layout.subsequences;
    std::vector<std::uint64_t> start(n), used(n), end(n);
    std::vector<huffman::Sums> sums(n);
    // Each loop stands for one kernel: a thread a subsequence, in any order.
    for (std::uint32_t j = 0; j < n; ++j) huffman::phase1(v, j, start.data(), used.data(), end.data(), sums.data());
    for (;;) {
        ++r.sync_passes;
        bool wrote = false;
        for (std::uint32_t j = 0; j < n; ++j) wrote |= huffman::phase2_walk(v, j, used.data(), end.data(), start.data());
        if (!wrote) break;
        for (std::uint32_t j = 0; j < n; ++j) huffman::phase2_refresh(v, j, start.data(), used.data(), end.data(), sums.data());
    }
    std::vector<huffman::Sums> before(n + 1);
    before[0] = huffman::Sums{0, {0, 0, 0}};
    for (std::uint32_t j = 0; j < n; ++j) before[j + 1] = huffman::add(before[j], sums[j]);
    r.blocks.assign(plan.blocks * 64, 0);
    std::uint32_t damage = 0;
    for (std::uint32_t j = 0; j < n; ++j) damage |= huffman::phase4(v, j, start.data(), before.data(), r.blocks.data());
    if (damage) {
        r.blocks.clear();
        r.reason = jpeg_huffman_damage_reason(damage);
        return r;
    }
    r.taken = true;
    return r;
}

JpegHuffmanResult decode_jpeg_huffman_cpu(const std::uint8_t* data, std::size_t size, std::uint32_t subsequence_bits) {
    return decode_jpeg_huffman_cpu(plan_jpeg_huffman(data, size, subsequence_bits));
}

}  // namespace imgpar
