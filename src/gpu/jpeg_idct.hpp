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

#include <optional>

#include "src/gpu/session.hpp"
#include "src/image.hpp"
#include "src/io/jpeg_coefficients.hpp"

namespace imgpar::gpu {

// Uploads `file`'s coefficients and decodes them into the session's Input
// slot (gray, or RGB from YCbCr) and returns that view, complete when this
// returns. nullopt when a block is unsafe (src/io/jpeg_idct.hpp: only a
// forged file has one): the caller decodes the file with libjpeg-turbo
// instead. Throws imgpar::Error (device) when the GPU fails.
std::optional<DeviceViewU8> decode_jpeg_coefficients(Session& session, const JpegCoefficients& file);

}  // namespace imgpar::gpu
