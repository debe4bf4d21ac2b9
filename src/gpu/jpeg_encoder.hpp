// JPEG encoding on the GPU, from a session's device image to the bytes of a
// file, so a result computed on the GPU need not come back as pixels to be
// encoded on the cores. The bytes are libjpeg-turbo's, as imgpar's CPU path
// writes them (src/io/jpeg_encode_math.hpp has the arithmetic, the markers
// are libjpeg-turbo's own): where a file is encoded changes its time only.
// Declared without CUDA headers; implemented in cuda/jpeg_encode.cu, or by
// cuda/no_cuda.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/gpu/session.hpp"
#include "src/image.hpp"
#include "src/io/jpeg_codec.hpp"

namespace imgpar::gpu {

// Whether this build encodes JPEG on the GPU (CUDA, and libjpeg-turbo, whose
// bytes it writes).
bool jpeg_gpu_encoder_built();

// "imgpar's CUDA encoder (libjpeg-turbo's bytes)", for -v.
std::string jpeg_gpu_encoder_name();

// Encodes `image` (1-4 interleaved channels in the session's device memory;
// gray+alpha is written as gray and RGBA as RGB, alpha dropped as the CPU
// path drops it) on the session's stream: work enqueued on the session
// before the call (an upload, an operation) is done first. Returns the whole
// file, byte for byte what jpeg_encode writes for the same pixels, quality
// and chroma (without metadata: insert_jpeg_metadata adds it as that path
// does). Blocks until the bytes are on the host. Throws imgpar::Error: usage
// for a size or quality JPEG cannot hold, device when a CUDA call fails.
std::vector<std::uint8_t> encode_jpeg_on_gpu(Session& session, ConstDeviceViewU8 image, int quality,
                                             ChromaSubsampling chroma);

}  // namespace imgpar::gpu
