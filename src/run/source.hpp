// Where a file's pipeline starts: the file read once (its bytes, bounded by
// --max-memory) and its header parsed once, then the pixels decoded where
// the run chose: on the cores (libjpeg-turbo, libpng, stb), or, for a JPEG
// whose file computes on the GPU, split between a core and the GPU (the
// Huffman decoding on the core, the rest on the GPU: src/gpu/jpeg_idct.hpp)
// or on the GPU's hardware decoder (src/gpu/jpeg_hardware.hpp). The pixels
// are libjpeg-turbo's every way; the GPU ways leave them in the session's
// Input slot.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/backend_pool.hpp"
#include "src/image.hpp"
#include "src/io/load.hpp"
#include "src/run/batch.hpp"
#include "src/run/gpu_jpeg_decoders.hpp"

namespace imgpar {

struct SourceFile {
    std::vector<std::uint8_t> bytes;
    ImageHeader header;
    double read_ms = 0;
};

// Reads `item`'s file and its header (with the checks decoding needs).
// Throws imgpar::Error (input) naming the file.
SourceFile read_source(const BatchItem& item, const LoadOptions& load);

// A file decoded on the host: the pixels, at 1/shrink of the size for a
// JPEG's shrink-on-load, turned upright when `orientation` is 2..8
// (--auto-orient), and the decoder's warnings.
struct HostDecoded {
    ImageU8 image;     // the pixels, unless they are in image16
    ImageU16 image16;  // a 16-bit file's, where the load options keep 16 bits
    bool sixteen() const { return !image16.empty(); }
    std::vector<std::string> warnings;
    double ms = 0;
};
HostDecoded decode_on_host(const SourceFile& source, const std::string& name, const LoadOptions& load,
                           int orientation, int shrink = 1);

// A file decoded on the GPU into the Input slot of the session `lease`
// holds (ready in stream order).
struct DeviceDecoded {
    BackendPool::Lease lease;
    DeviceViewU8 image;
    GpuJpegDecoders::Decoder decoder;
    std::vector<std::string> warnings;
    double ms = 0;
};

// Tries the GPU's decoders, in the order `decoders` allows: the hardware
// (colour files it takes, once it has started), then Huffman decoding on the
// GPU where a slot is free, then split (Huffman decoding on this core). The
// work a core does first (the walk through the scan, the plan of the GPU's
// Huffman decoding, libjpeg-turbo's Huffman decoding) happens before a
// session is leased, so other files go on meanwhile. A scan the GPU finds
// damaged goes to libjpeg-turbo's decoder, which says what it says of it.
// nullopt, with nothing done but that, when the file does not suit them
// (progressive, CMYK, an unsafe block of a forged file): it then decodes on
// the host. A file that cannot be decoded at all throws as libjpeg-turbo's
// decode would.
std::optional<DeviceDecoded> decode_on_gpu(const SourceFile& source, const std::string& name, const LoadOptions& load,
                                           GpuJpegDecoders& decoders, BackendPool& backend);

}  // namespace imgpar
