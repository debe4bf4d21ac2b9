// What a photo carries besides its pixels and imgpar keeps: the EXIF block
// (camera, date, orientation...) and the ICC colour profile, read from the
// input and written to the output when its format can hold them (JPEG: APP1
// and APP2 segments; PNG: eXIf and iCCP chunks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"

namespace imgpar {

struct ImageMetadata {
    std::vector<std::uint8_t> exif;  // the TIFF structure (starts "II*\0" or "MM\0*"), without JPEG's "Exif\0\0"
    std::vector<std::uint8_t> icc;   // the ICC profile, whole
    bool empty() const { return exif.empty() && icc.empty(); }
};

// EXIF orientation: 1 as stored; 2 mirrored; 3 rotated 180; 4 flipped; 5
// transposed; 6 to be rotated 90 clockwise; 7 transversed; 8 to be rotated
// 90 counter-clockwise. 0 when the EXIF block has none (or is unreadable).
int exif_orientation(const std::vector<std::uint8_t>& exif);

// Sets the orientation tag in place when the block has one (after the
// pixels were turned upright, to 1). Returns whether it had one.
bool set_exif_orientation(std::vector<std::uint8_t>& exif, int orientation);

// The image as it is meant to be seen: `orientation` (2..8) applied to the
// pixels; 0 and 1 return a copy.
ImageU8 apply_orientation(ConstViewU8 image, int orientation);

// "upright", "mirrored", "rotated 180", "flipped", "transposed",
// "rotated 90 clockwise", "transversed", "rotated 90 counter-clockwise"
// (how it must be turned to be upright), or "" for 0.
const char* orientation_name(int orientation);

// "EXIF 1234 bytes (orientation 6, rotated 90 clockwise), ICC profile 3144
// bytes", or "none".
std::string describe_metadata(const ImageMetadata& m);

// The metadata in a JPEG's APP1 (Exif) and APP2 (ICC_PROFILE, its chunks
// joined in order) segments, read from the markers before the first scan. A
// malformed segment is skipped, never read past.
ImageMetadata read_jpeg_metadata(const std::uint8_t* data, std::size_t size);

// `jpeg` (a JPEG another encoder wrote: the GPU's) with `m` added as
// imgpar's libjpeg-turbo path writes it: after SOI and the JFIF segment (if
// one follows SOI), the EXIF block in an APP1 segment when it fits in one,
// then the ICC profile in APP2 "ICC_PROFILE" chunks of at most 65,519 bytes.
// `jpeg` is returned unchanged when `m` is empty.
std::vector<std::uint8_t> insert_jpeg_metadata(const std::vector<std::uint8_t>& jpeg, const ImageMetadata& m);

// The metadata chunks of a PNG before its image data, as stored: eXIf's
// EXIF block, and iCCP's profile still deflated (zlib format). Chunks are
// walked by their lengths, never past `size`; CRCs are the decoder's to check.
struct PngMetadataChunks {
    std::vector<std::uint8_t> exif;
    std::vector<std::uint8_t> icc_deflated;
};
PngMetadataChunks find_png_metadata_chunks(const std::uint8_t* data, std::size_t size);

}  // namespace imgpar
