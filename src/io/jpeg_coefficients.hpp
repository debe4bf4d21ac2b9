// A JPEG's quantized DCT coefficients, entropy-decoded by libjpeg-turbo
// (jpeg_read_coefficients) on the CPU, for a decoder that does the rest (the
// inverse DCT, upsampling and colour conversion) on the GPU to libjpeg-turbo's
// pixels: cuda/jpeg_idct.cu. Huffman decoding is the serial part of a decode;
// the rest is most of its arithmetic, and needs the coefficients only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_color.hpp"
#include "src/io/jpeg_layout.hpp"

namespace imgpar {

struct JpegCoefficients {
    int width = 0, height = 0;
    int components = 0;                       // 1 (gray) or 3 (YCbCr)
    ChromaLayout layout = ChromaLayout::Full;  // for 3 components
    struct Component {
        int blocks_wide = 0, blocks_high = 0;  // libjpeg-turbo's width_in_blocks, height_in_blocks
        int width = 0, height = 0;             // the plane's samples: its downsampled size
        std::size_t first_block = 0;           // its first block among all components' blocks
        std::array<std::uint16_t, 64> quant{};  // natural (row-major) order
    };
    std::array<Component, 3> component{};
    // The blocks, counted each component's row by row, the components in
    // order; 64 coefficients each in natural order.
    std::size_t blocks = 0;

    // Copies `count` blocks from block `first` to `out`, straight from
    // libjpeg-turbo's own arrays, which this object keeps: a decoder that
    // uploads them copies them once. Throws imgpar::Error (input) if
    // libjpeg-turbo fails.
    void copy_blocks(std::size_t first, std::size_t count, std::int16_t* out) const;

    std::shared_ptr<void> source;  // libjpeg-turbo's decoder and its coefficient arrays
    std::string name;              // the file's, for messages
};

// Whether `data` is a JPEG whose pixels jpeg_read_coefficients' output gives
// exactly through src/io/jpeg_idct.hpp and src/io/jpeg_color.hpp: sequential
// (one pass over each coefficient, so no progressive smoothing), Huffman-coded,
// 8-bit, gray or YCbCr in one of the chroma layouts. Reads the markers only.
bool jpeg_coefficients_suit(const std::uint8_t* data, std::size_t size);
// The same of markers read already (read_jpeg_layout).
bool jpeg_coefficients_suit(const JpegLayout& layout);

// The coefficients of a file jpeg_coefficients_suit took, whose header the
// caller has read as width x height. Corrupt data is handled as jpeg_decode
// handles it (the same warnings, the same errors, `options` alike), since
// both run libjpeg-turbo's entropy decoder. Throws imgpar::Error (input)
// naming `name`; output when this build has no libjpeg-turbo.
JpegCoefficients jpeg_read_coefficients(const std::string& name, const std::vector<std::uint8_t>& bytes, int width,
                                        int height, std::vector<std::string>& warnings,
                                        const JpegDecodeOptions& options = {});

}  // namespace imgpar
