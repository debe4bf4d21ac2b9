// A baseline JPEG's entropy-coded data laid out for Huffman decoding by many
// threads at once (src/io/jpeg_huffman_decode.hpp): lookup tables a thread
// can use, the MCU's block slots, and the scan's bits with byte stuffing and
// restart markers taken out, cut into restart intervals and, within those,
// into subsequences of a fixed number of bits, one a decoder.
//
// Taken: what src/io/jpeg_coefficients.hpp's decoder takes (8-bit SOF0/SOF1,
// Huffman, gray or YCbCr in one of its chroma layouts) coded in one scan over
// all components, as src/io/jpeg_scan.hpp's walk reads it. Everything else
// (progressive, arithmetic, several scans, 12-bit, CMYK, 4:4:0...) is "not
// taken": the caller decodes the file with libjpeg-turbo as before. So is a
// file whose scan is damaged where the plan can see it (a restart marker out
// of order, a marker other than RSTn or EOI in the data, data running to the
// end of the file); damage inside the codes is found while decoding.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_huffman_decode.hpp"

namespace imgpar {

struct JpegHuffmanPlan {
    bool taken = false;
    std::string reason;  // why not, when not taken

    int width = 0, height = 0;
    int components = 0;
    // Each component as jpeg_read_coefficients describes it (its blocks, its
    // downsampled size, its first block in JpegCoefficients' order, its
    // quantization table in natural order).
    std::array<JpegCoefficients::Component, 3> component{};
    ChromaLayout chroma = ChromaLayout::Full;  // for 3 components
    std::size_t blocks = 0;  // output blocks (no MCU padding blocks)

    huffman::Layout layout;                    // the view's fixed part; pointers set by view()
    std::vector<huffman::Lookup> tables;       // huffman::kTables of them
    std::vector<std::uint8_t> bits;            // destuffed data, then huffman::kBitPadding zero bytes
    std::vector<std::uint32_t> interval_bit;   // intervals + 1: where each interval starts; the last: the end
    std::vector<std::uint32_t> first_subsequence;  // intervals + 1
    std::vector<std::uint32_t> subsequence_interval;  // subsequences

    std::size_t subsequences() const { return subsequence_interval.size(); }
    std::size_t intervals() const { return interval_bit.empty() ? 0 : interval_bit.size() - 1; }

    // The view the decoding functions read, pointing into this plan's vectors.
    huffman::View view() const;
};

// Plans `data`'s decoding with subsequences of `subsequence_bits` bits (any
// positive count; the GPU's is huffman::kSubsequenceBits, the tests' go down
// to 32). Never reads past `size`; never throws for bad data (not taken,
// with the reason). Allocates the scan's size, and nothing that grows with
// the header's image size.
JpegHuffmanPlan plan_jpeg_huffman(const std::uint8_t* data, std::size_t size,
                                  std::uint32_t subsequence_bits = huffman::kSubsequenceBits);

// A taken plan's image as the split decode's inverse DCT reads it: what
// jpeg_read_coefficients would say of the file, with no coefficients behind
// it (copy_blocks must not be called): the GPU decodes them in place.
JpegCoefficients coefficient_layout(const JpegHuffmanPlan& plan, const std::string& name);

}  // namespace imgpar
