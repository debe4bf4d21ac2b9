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

// Decodes a planned file; not taken (with the reason) when the plan was not,
// or when the scan turns out damaged.
JpegHuffmanResult decode_jpeg_huffman_cpu(const JpegHuffmanPlan& plan);

// Plans and decodes `data` with subsequences of `subsequence_bits` bits.
JpegHuffmanResult decode_jpeg_huffman_cpu(const std::uint8_t* data, std::size_t size,
                                          std::uint32_t subsequence_bits = huffman::kSubsequenceBits);

// The reason for damage flags (src/io/jpeg_huffman_decode.hpp's Damage).
std::string jpeg_huffman_damage_reason(std::uint32_t damage);

}  // namespace imgpar
