// JPEG decoding on the GPU's hardware decoders (nvJPEG's hardware backend:
// the NVJPG engines of A100, H100 and their kin), straight into a session's
// device memory. Its pixels equal libjpeg-turbo's for the files it takes
// (it decodes the planes; libjpeg-turbo's upsampling and colour conversion
// follow on the GPU; the GPU suite checks the equality on every run), so a batch can decode there and
// leave the cores to encoding. Declared without CUDA headers; implemented in
// cuda/jpeg_hardware.cpp, or by cuda/no_cuda.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "src/gpu/session.hpp"
#include "src/image.hpp"

namespace imgpar::gpu {

// Whether this build has nvJPEG.
bool jpeg_hardware_built();

// Starts the process's hardware decoder on `device`; later calls return at
// once. Slow the first time (nvJPEG's start-up, a few tenths of a second), so
// callers start it on a thread while other work goes on. Throws
// imgpar::Error (device) when the GPU has no hardware decoder or nvJPEG
// cannot start; the reason is kept for jpeg_hardware_problem().
void start_jpeg_hardware(int device);

// Whether start_jpeg_hardware() succeeded.
bool jpeg_hardware_ready();

// "nvJPEG 13.0.x hardware decoder" once ready.
std::string jpeg_hardware_name();

// Decodes the JPEG `data` into the session's Input slot as interleaved RGB
// and returns that view (ready in stream order: work enqueued on the session
// afterwards sees the pixels). nullopt, with nothing done, when the hardware
// does not take this file: Huffman-coded 8-bit YCbCr sequential JPEGs with
// 4:4:4, 4:2:2 or 4:2:0 chroma whose scan is clean (src/io/jpeg_layout.hpp,
// src/io/jpeg_scan.hpp) go there; gray, progressive, arithmetic-coded,
// cut-short and corrupt files, and other layouts, stay with libjpeg-turbo. Throws imgpar::Error: input for a corrupt file, device
// for a GPU failure.
std::optional<DeviceViewU8> decode_jpeg_on_gpu(Session& session, const std::string& name, const std::uint8_t* data,
                                               std::size_t size);

}  // namespace imgpar::gpu
