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
#include "src/io/jpeg_color.hpp"

namespace imgpar::gpu {

// Whether this build has nvJPEG.
bool jpeg_hardware_built();

// Starts the hardware decoder of GPU `device` (one per GPU, each with its own
// engines, for runs over several GPUs); later calls for it return at once.
// Slow the first time (nvJPEG's start-up, a few tenths of a second), so
// callers start it on a thread while other work goes on; several GPUs' start
// on threads at once. Throws imgpar::Error (device) when the GPU has no
// hardware decoder or nvJPEG cannot start; a later call for that GPU throws
// the same reason.
void start_jpeg_hardware(int device);

// Whether start_jpeg_hardware() succeeded for any GPU. A session decodes
// on its own GPU's decoder only (decode_jpeg_on_gpu).
bool jpeg_hardware_ready();

// "nvJPEG 13.0.x hardware decoder" once ready.
std::string jpeg_hardware_name();

// A file the hardware decodes to libjpeg-turbo's pixels, as
// jpeg_for_hardware found it.
struct HardwareJpeg {
    ChromaLayout layout = ChromaLayout::Full;
};

// Whether the hardware takes the JPEG `data`: Huffman-coded 8-bit YCbCr
// sequential JPEGs with 4:4:4, 4:2:2 or 4:2:0 chroma whose scan is clean
// (src/io/jpeg_layout.hpp, src/io/jpeg_scan.hpp) go there; gray, progressive,
// arithmetic-coded, cut-short and corrupt files, and other layouts, stay with
// libjpeg-turbo. The walk through the scan takes a core several milliseconds
// for a photo, so a batch's workers run this before they hold a GPU session.
// Needs no GPU; nullopt in a build without nvJPEG.
std::optional<HardwareJpeg> jpeg_for_hardware(const std::uint8_t* data, std::size_t size);

// Decodes the JPEG `data`, which jpeg_for_hardware took as `file`, into the
// session's Input slot as interleaved RGB and returns that view (ready in
// stream order: work enqueued on the session afterwards sees the pixels).
// nullopt, with nothing done, when the session's GPU has no started decoder
// or the hardware turns the file down after all (nvJPEG's own parser, or a
// batch it failed). Throws imgpar::Error:
// device for a GPU failure.
std::optional<DeviceViewU8> decode_jpeg_on_gpu(Session& session, const std::string& name, const HardwareJpeg& file,
                                               const std::uint8_t* data, std::size_t size);

// The same for any JPEG: jpeg_for_hardware first.
std::optional<DeviceViewU8> decode_jpeg_on_gpu(Session& session, const std::string& name, const std::uint8_t* data,
                                               std::size_t size);

}  // namespace imgpar::gpu
