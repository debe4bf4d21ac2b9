// Tensor maps (the descriptors of TMA bulk copies) for byte images.
#pragma once

#include <cuda.h>

#include <cstddef>

namespace imgpar::cuda {

// Describes a pitched image of `row_bytes` x `rows` bytes, copied in boxes of
// box_bytes x box_rows (each at most 256; box_bytes a multiple of 16); boxes
// reaching outside the image read zeros. The image must start 16-byte aligned
// with a pitch that is a multiple of 16. Throws a device error when the driver
// refuses the map.
CUtensorMap byte_tile_map(const void* data, std::size_t row_bytes, int rows, std::size_t pitch, int box_bytes,
                          int box_rows);

}  // namespace imgpar::cuda
