// Row loops of thresholding and equalization on the CPU, vectorised for the
// host's SIMD width with runtime dispatch (Google Highway), or plain loops
// where imgpar was built without Highway. Each gives, byte for byte, what the
// per-pixel functions of src/ops/histogram_math.hpp give: luma601 is exact in
// 16-bit lanes (77 r + 150 g + 29 b + 128 <= 65408), and every other step is
// an integer comparison, a table lookup or a clamp.
//
// `channels` is the source's 1 to 4; rows hold n pixels, packed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar::simd {

// out[x] = intensity_of(pixel x): the gray sample (1-2 channels) or luma601
// (3-4 channels).
void intensity_row(const std::uint8_t* src, int channels, std::size_t n, std::uint8_t* out);

// Adds each pixel's intensity to counts[k * 256 + intensity] for some k in
// 0..kIntensitySubHistograms-1: sub-histograms, so that runs of one value do
// not wait on their own increments; the caller sums them. Each count must
// stay below 2^32.
constexpr int kIntensitySubHistograms = 8;
void count_intensity_row(const std::uint8_t* src, int channels, std::size_t n, std::uint32_t* counts);

// threshold_value(intensity, t) per pixel: gray out for 1 and 3 channels,
// gray and the pixel's alpha for 2 and 4 (threshold_output_channels).
// With 1 channel, dst may be src.
void threshold_row(const std::uint8_t* src, int channels, std::size_t n, int t, std::uint8_t* dst);

// equalize_luma_pixel with `lut` (256 entries) on a colour row (3 or 4
// channels), alpha copied. dst may be src.
void equalize_luma_row(const std::uint8_t* src, int channels, std::size_t n, const std::uint8_t* lut,
                       std::uint8_t* dst);

// dst[x * channels + c] = tables[c][src[x * channels + c]]: each channel
// through its own 256-entry table (channels mode; alpha through an identity
// table). In vectors as sixteen 16-entry byte shuffles, each lane keeping
// the one its high nibble selects. dst may be src.
void apply_tables_row(const std::uint8_t* src, int channels, std::size_t n, const std::uint8_t* const* tables,
                      std::uint8_t* dst);

}  // namespace imgpar::simd
