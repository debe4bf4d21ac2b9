// What a JPEG's markers say about how it is coded, read without decoding:
// enough to tell whether a decoder other than libjpeg-turbo (the GPU's
// hardware decoder) produces the same pixels for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "src/io/jpeg_color.hpp"

namespace imgpar {

struct JpegLayout {
    bool valid = false;     // an SOI and a frame header were found
    int frame_marker = 0;   // 0xC0 baseline, 0xC1 extended, 0xC2 progressive...
    int precision = 0;      // bits per sample
    int components = 0;
    int width = 0, height = 0;
    int component_ids[4] = {};
    int sampling_h[4] = {}, sampling_v[4] = {};  // each component's sampling factors
    int adobe_transform = -1;  // from an Adobe APP14 segment; -1 when there is none
    bool jfif = false;         // an APP0 JFIF segment

    // Huffman-coded, 8-bit, three components that libjpeg-turbo converts from
    // YCbCr to RGB (as it does unless an Adobe segment says "no transform" or,
    // without JFIF and Adobe segments, the components are named R, G, B).
    bool ycbcr_huffman_8bit() const;
    // For three components: how both chroma planes relate to luma, when they
    // are sampled alike in one of the layouts of src/io/jpeg_color.hpp and
    // luma has the largest factors (the files libjpeg-turbo upsamples with
    // those filters); nullopt otherwise (4:1:1, 4:4:0, mixed chroma...).
    std::optional<ChromaLayout> chroma_layout() const;
};

// Scans the markers up to the frame header. Never reads past `size`.
JpegLayout read_jpeg_layout(const std::uint8_t* data, std::size_t size);

// Calls visit(marker, payload, payload_size) for each marker segment after
// SOI, in order, up to and including the first scan header (SOS: its
// entropy-coded data starts at payload + payload_size), until visit returns
// false, EOI, or malformed or truncated data. Standalone markers (SOI, RSTn,
// TEM) are visited with no payload; fill bytes are skipped. Never reads past
// `size`. What the JPEG readers share.
void walk_jpeg_segments(const std::uint8_t* data, std::size_t size,
                        const std::function<bool(int marker, const std::uint8_t* payload, std::size_t size)>& visit);

}  // namespace imgpar
