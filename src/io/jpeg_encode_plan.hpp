// The layout of a JPEG as imgpar's libjpeg-turbo path writes it, for an
// encoder that codes its blocks in parallel (the GPU's, cuda/jpeg_encode.cu)
// and must produce the same bytes: the markers (libjpeg-turbo's own, from
// jpeg_stream_header), and what they imply, read back from them: the
// components and their sampling, the MCU grid and its blocks in scan order,
// the restart segments a large image is split into, the quantization and
// Huffman tables. Then the file from the segments' entropy-coded bits.
#pragma once

#include <cstdint>
#include <vector>

#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_encode_math.hpp"

namespace imgpar {

struct JpegEncodePlan {
    int width = 0, height = 0;
    jpegenc::ScanGeometry scan;
    int mcus_down = 0;
    std::uint64_t mcus = 0, blocks = 0;
    std::uint64_t segments = 0;
    jpegenc::Tables tables{};
    std::vector<std::uint8_t> header;    // SOI up to the end of SOS (without metadata)
};

// The plan of the JPEG jpeg_encode would write for a `width` x `height`
// image of `channels` (1-4; alpha is not stored) at `quality` and `chroma`.
// Throws imgpar::Error (output) when this build has no libjpeg-turbo, whose
// bytes are the ones to match.
JpegEncodePlan plan_jpeg_encode(int width, int height, int channels, int quality, ChromaSubsampling chroma);

// The file: the plan's header, then each segment's bytes (`data` from
// `segment_offsets[s]` to `segment_offsets[s + 1]`, its bits padded with ones
// to a whole byte) with a zero byte stuffed after every 0xFF, a restart
// marker between segments, EOI at the end.
std::vector<std::uint8_t> assemble_jpeg(const JpegEncodePlan& plan, const std::uint8_t* data,
                                        const std::uint64_t* segment_offsets);

}  // namespace imgpar
