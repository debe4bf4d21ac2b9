// JPEG encoding on the GPU with nvJPEG's CUDA encoder, from a session's
// device image to the bytes of a file, so a result computed on the GPU need
// not come back as pixels to be encoded on the cores. Opt-in: its bytes are
// not libjpeg-turbo's (nvJPEG has its own DCT and colour conversion), so the
// byte-identical CPU path stays the default. Declared without CUDA headers;
// implemented in cuda/jpeg_encoder.cpp, or by cuda/no_cuda.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/gpu/session.hpp"
#include "src/image.hpp"
#include "src/io/jpeg_codec.hpp"

namespace imgpar::gpu {

// Whether this build has nvJPEG (it is loaded when first used: a build that
// has it may still find no library at run time).
bool jpeg_gpu_encoder_built();

// "nvJPEG 13.0.x encoder (CUDA)" once an encode has started nvJPEG; empty
// before, and when it could not start.
std::string jpeg_gpu_encoder_name();

// Starts nvJPEG's encoder for GPU `device` now (what the first encode would
// do), so a batch can start it on a thread while its first files decode.
// Throws imgpar::Error (device) when nvJPEG is missing or cannot start.
void start_jpeg_gpu_encoder(int device);

// Encodes `image`, gray (1 channel, written as one component) or interleaved
// RGB (3), in the session's device memory, on the session's stream: work
// enqueued on the session before the call (an upload, an operation) is done
// first. Returns the whole JFIF file: baseline sequential DCT, standard
// Huffman tables (not optimized per image), `quality` 1-100, chroma as
// `chroma` says (Auto: 4:4:4 above quality 90, 4:2:0 at 90 and below, the
// CPU encoder's rule; ignored for gray). Blocks until the bytes are on the
// host. The first call in the process starts nvJPEG (a few tenths of a
// second); each session keeps its own encoder state, so sessions on other
// threads encode at the same time. Throws imgpar::Error: usage for a channel
// count or quality JPEG cannot hold, device when nvJPEG is missing or one of
// its calls (named in the message) fails.
std::vector<std::uint8_t> encode_jpeg_on_gpu(Session& session, ConstDeviceViewU8 image, int quality,
                                             ChromaSubsampling chroma);

}  // namespace imgpar::gpu
