// What writing an image costs in memory beside the image itself, as
// save_image encodes it: the encoder's buffers and the encoded file, for the
// pixels that make the largest files (noise; a photo or a drawing takes
// less). The memory estimate of every command that writes an image counts
// it before the file is decoded (src/run/image_sink.hpp).
#pragma once

#include <cstdint>

#include "src/image.hpp"
#include "src/io/image_format.hpp"
#include "src/io/save.hpp"

namespace imgpar {

// Bytes encoding an image of `shape` as `format` with `options` (quality,
// chroma subsampling, threads) holds at its peak beside the image, with
// `metadata_bytes` of EXIF and ICC profile written along.
std::uint64_t encode_memory(ImageFormat format, const ImageShape& shape, const SaveOptions& options,
                            std::uint64_t metadata_bytes);

// An upper bound on a JPEG's bytes per coded sample (chroma counted after
// subsampling) at `quality`, from noise, the costliest content: measured
// with libjpeg-turbo 0.43 at quality 50, 0.79 at 90, 1.01 at 95 and 1.58
// at 100 (gray; colour takes less); these with a margin.
double jpeg_bytes_per_sample_bound(int quality);

}  // namespace imgpar
