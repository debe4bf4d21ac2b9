// The last step of a hardware JPEG decode: the decoder's component planes
// to interleaved RGB, with libjpeg-turbo's upsampling and colour conversion
// (src/io/jpeg_color.hpp), so the pixels are libjpeg-turbo's.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/image.hpp"
#include "src/io/jpeg_color.hpp"

namespace imgpar::cuda {

// Writes `out` (width x height x 3) from the full-size luma plane and the two
// chroma planes sampled as `layout` says, on `stream`.
void jpeg_planes_to_rgb(const std::uint8_t* luma, std::size_t luma_pitch, ChromaPlane cb, ChromaPlane cr,
                        ChromaLayout layout, DeviceViewU8 out, cudaStream_t stream);

}  // namespace imgpar::cuda
