// The benchmarks' test images, plain host code shared by the GPU benchmark
// (bench/) and the CPU one (bench/cpu/), so both time the same pixels.
#pragma once

#include "src/image.hpp"

namespace imgpar::bench {

// Photo-like content (smooth gradients, texture and edges, from a fixed seed)
// so timings are not taken on zeros or constants.
ImageU8 make_photo_like(int width, int height, int channels, unsigned seed = 1);

}  // namespace imgpar::bench
