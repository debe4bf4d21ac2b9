// The CPU twin of the GPU's parallel Huffman decoding: the phases of
// src/io/jpeg_huffman_decode.hpp run by a loop standing in for the GPU's
// threads, on the same plan (the same subsequences, the same functions). It
// proves the algorithm against libjpeg-turbo in the unit tests; it is not a
// fast decoder (libjpeg-turbo is, on a core).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/io/jpeg_huffman_plan.hpp"

namespace imgpar {

struct JpegHuffmanResult {
    bool taken = false;
    std::string reason;                // why not, when not taken
    std::vector<std::int16_t> blocks;  // JpegCoefficients' blocks, 64 coefficients each (natural order)
    int sync_passes = 0;               // phase 2's walks, the last of them finding every start in step
};

// The order phase 2's walks run in, standing for the GPU's threads. The
// records they settle on are the same (the serial decode's); the passes it
// takes differ. FirstToLast hands each walk the previous one's result, so it
// settles everything in one pass (and a second that changes nothing), like
// a serial decode. LastToFirst has each walk read its start before any
// other walk of the pass writes it, as when every GPU thread starts at once:
// the GPU's slowest order, where a scan whose decoders never fall into step
// runs out of passes (huffman::kMaxPasses) and is not taken.
enum class JpegHuffmanWalkOrder { FirstToLast, LastToFirst };

// Decodes a planned file; not taken (with the reason) when the plan was not,
// or when the scan turns out damaged.
JpegHuffmanResult decode_jpeg_huffman_cpu(const JpegHuffmanPlan& plan,
                                          JpegHuffmanWalkOrder order = JpegHuffmanWalkOrder::FirstToLast);

// Plans and decodes `data` with subsequences of `subsequence_bits` bits.
JpegHuffmanResult decode_jpeg_huffman_cpu(const std::uint8_t* data, std::size_t size,
                                          std::uint32_t subsequence_bits = huffman::kSubsequenceBits,
                                          JpegHuffmanWalkOrder order = JpegHuffmanWalkOrder::FirstToLast);

// The reason for damage flags (src/io/jpeg_huffman_decode.hpp's Damage).
std::string jpeg_huffman_damage_reason(std::uint32_t damage);

}  // namespace imgpar
