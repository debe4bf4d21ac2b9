// The benchmarks' test images, plain host code shared by the GPU benchmark
// (bench/) and the CPU one (bench/cpu/), so both time the same pixels.
#pragma once

#include "src/image.hpp"

namespace imgpar::bench {

// Photo-like content (smooth gradients, texture and edges, from a fixed seed)
// so timings are not taken on zeros or constants.
ImageU8 make_photo_like(int width, int height, int channels, unsigned seed = 1);

// The 16-bit rows' images: an 8-bit image widened to 16 bits (v * 257) with
// noise in the low byte (seeded), so they are not 8-bit images in disguise;
// a sample of 0 stays 0.
ImageU16 widen_with_noise(const ImageU8& image, unsigned seed);

// The JPEG rows' photos: a camera-sized one (the batch benchmark's are 2-12
// MP) and the 8K frame.
struct JpegPhoto {
    int w, h;
    const char* label;
};
constexpr JpegPhoto kJpegPhotos[] = {{2592, 1728, "2592x1728 RGB (4.5 MP)"}, {7680, 4320, "7680x4320 RGB"}};

}  // namespace imgpar::bench
