#include "src/io/jpeg_huffman_cpu.hpp"

namespace imgpar {

std::string jpeg_huffman_damage_reason(std::uint32_t damage) {
    if (damage & huffman::kOutOfStep) return "the parallel decoders did not fall into step (a scan coded so that they never do)";
    if (damage & huffman::kBadCode) return "a damaged Huffman code in the scan";
    if (damage & huffman::kTooFewBlocks) return "a restart interval or the scan ends before its blocks";
    return "a restart interval or the scan holds bits past its blocks";
}

JpegHuffmanResult decode_jpeg_huffman_cpu(const JpegHuffmanPlan& plan, JpegHuffmanWalkOrder order) {
    JpegHuffmanResult r;
    if (!plan.taken) {
        r.reason = plan.reason;
        return r;
    }
    const huffman::View v = plan.view();
    const std::uint32_t n = v.layout.subsequences;
    std::vector<std::uint64_t> end(n);
    std::vector<huffman::Sums> sums(n);
    // Each loop stands for one kernel: a thread a subsequence.
    for (std::uint32_t j = 0; j < n; ++j) huffman::phase1(v, j, end.data(), sums.data());
    for (;;) {
        if (r.sync_passes == huffman::kMaxPasses) {
            r.reason = jpeg_huffman_damage_reason(huffman::kOutOfStep);
            return r;
        }
        ++r.sync_passes;
        bool wrote = false;
        if (order == JpegHuffmanWalkOrder::FirstToLast)
            for (std::uint32_t j = 0; j < n; ++j) wrote |= huffman::phase2_walk(v, j, end.data(), sums.data());
        else
            for (std::uint32_t j = n; j-- > 0;) wrote |= huffman::phase2_walk(v, j, end.data(), sums.data());
        if (!wrote) break;
    }
    std::vector<huffman::Sums> before(n + 1);
    before[0] = huffman::Sums{0, {0, 0, 0}};
    for (std::uint32_t j = 0; j < n; ++j) before[j + 1] = huffman::add(before[j], sums[j]);
    r.blocks.assign(plan.blocks * 64, 0);
    std::uint32_t damage = 0;
    for (std::uint32_t j = 0; j < n; ++j) damage |= huffman::phase4(v, j, end.data(), before.data(), r.blocks.data());
    if (damage) {
        r.blocks.clear();
        r.reason = jpeg_huffman_damage_reason(damage);
        return r;
    }
    r.taken = true;
    return r;
}

JpegHuffmanResult decode_jpeg_huffman_cpu(const std::uint8_t* data, std::size_t size, std::uint32_t subsequence_bits,
                                          JpegHuffmanWalkOrder order) {
    return decode_jpeg_huffman_cpu(plan_jpeg_huffman(data, size, subsequence_bits), order);
}

}  // namespace imgpar
