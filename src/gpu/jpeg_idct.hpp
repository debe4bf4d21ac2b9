// JPEG decoding split between the cores and the GPU: libjpeg-turbo's
// entropy decoder reads the coefficients on a core
// (src/io/jpeg_coefficients.hpp); the GPU does the inverse DCT
// (src/io/jpeg_idct.hpp), the chroma upsampling and the colour conversion
// (src/io/jpeg_color.hpp), each libjpeg-turbo's arithmetic, into a session's
// Input slot. The serial Huffman decoding stays where it runs fastest, the
// rest (over half of a decode's work on a core) moves to the GPU, and the
// pixels are libjpeg-turbo's. Declared without CUDA headers; implemented in
// cuda/jpeg_idct.cu, or by cuda/no_cuda.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/gpu/session.hpp"
#include "src/image.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_huffman_plan.hpp"

namespace imgpar::gpu {

// Uploads `file`'s coefficients and decodes them into the session's Input
// slot (gray, or RGB from YCbCr) and returns that view, complete when this
// returns. nullopt when a block is unsafe (src/io/jpeg_idct.hpp: only a
// forged file has one): the caller decodes the file with libjpeg-turbo
// instead. Throws imgpar::Error (device) when the GPU fails.
std::optional<DeviceViewU8> decode_jpeg_coefficients(Session& session, const JpegCoefficients& file);

// The whole decode on the GPU: a taken plan's scan Huffman-decoded there
// (src/gpu/jpeg_huffman.hpp), then as above. nullopt with `damage` set (the
// huffman::Damage flags) when the scan is damaged or its decoders fell out of
// step for `max_passes` walks, and with `damage` 0 for an unsafe block: either
// way the caller decodes the file with libjpeg-turbo, which then says what
// it says of it. `name` is the file's, for messages.
std::optional<DeviceViewU8> decode_jpeg_scan(Session& session, const JpegHuffmanPlan& plan, const std::string& name,
                                             std::uint32_t& damage, int max_passes);

}  // namespace imgpar::gpu
