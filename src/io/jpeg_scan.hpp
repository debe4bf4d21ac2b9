// A walk through a JPEG's entropy-coded data: every Huffman code of every
// block decoded (no coefficients kept, no IDCT), to learn whether the scan
// holds exactly the blocks its frame needs.
//
// Why: a file cut mid-scan and closed by an EOI marker looks whole from its
// markers. libjpeg-turbo notices when its Huffman decoder runs out of bits
// (imgpar then refuses the file unless --allow-partial); the GPU's hardware
// decoder does not, and fills the rest silently. So a file goes to the
// hardware only when this walk finds its scan clean: then libjpeg-turbo
// decodes it without a warning, and both decoders give the same pixels.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar {

// True when `data` is a sequential Huffman-coded JPEG with one scan over all
// of its components (as cameras and encoders write them) whose entropy-coded
// data decodes to exactly the frame's blocks: every code valid, no bits
// taken past the data, every restart marker where it belongs and nothing
// between the scan and the EOI marker that follows it. False otherwise,
// including for files that are fine but laid out differently (several
// scans, progressive, arithmetic coding): those are left to libjpeg-turbo.
// Never reads past `size`.
bool jpeg_scan_is_clean(const std::uint8_t* data, std::size_t size);

}  // namespace imgpar
