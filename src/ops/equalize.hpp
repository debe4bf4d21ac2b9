// Histogram equalization. The CPU reference (cpu::equalize) and the GPU
// (cuda::equalize, cuda/histogram.hpp) produce byte-identical images.
//
// CONTRACT
// --------
// Lookup table of a plane with counts h (src/ops/histogram.hpp), N = sum h,
// cdf(v) = h[0] + ... + h[v], cdf_min = h[smallest value present]:
//   lut[v] = round((cdf(v) - cdf_min) * 255 / (N - cdf_min))   ties upward,
// in exact 64-bit integer arithmetic (equalize_lut_value in
// src/ops/histogram_math.hpp); values below the smallest present map to 0.
// If only one value is present (N == cdf_min) lut[v] = v: a constant plane
// is left unchanged. The table is non-decreasing, maps the smallest present
// value to 0 and the largest to 255.
//
// Modes:
//   luma      (default) colour images (RGB, RGBA): one table from the
//             histogram of Y = luma601(r, g, b); each pixel becomes
//             c' = clamp_u8(c + lut[Y] - Y) for c in r, g, b. That is
//             BT.601 full-range YCbCr with Y replaced by lut[Y] and chroma
//             kept exactly (src/ops/histogram_math.hpp explains why), so hue
//             is kept except where a channel clamps.
//   channels  every colour channel gets its own table from its own histogram.
// Gray and gray+alpha images: the gray channel is equalized with its own
// table in either mode.
// Alpha (gray+alpha, RGBA) is copied unchanged and is not weighted: every
// pixel counts in the histograms, whatever its alpha.
// Output has the input's size and channel count. src and dst may be the
// same image (in place).
//
// 16-BIT CONTRACT (cpu::equalize and gpu::equalize on u16)
// ---------------------------------------------------------
// 65,536 levels: the tables come from the exact 65,536-value histograms
// (src/ops/histogram.hpp, 16-BIT CONTRACT),
//   lut[v] = round((cdf(v) - cdf_min) * 65535 / (N - cdf_min))   ties upward,
// in 64-bit integers (equalize_lut_value16: exact below 2^47 samples a
// plane); below the smallest value present 0; a constant plane unchanged.
// Luma mode: Y = luma601 of the 16-bit samples, c' = clamp(c + lut[Y] - Y)
// to 0..65535. Alpha copied. Output u16, the input's shape.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/ops/histogram.hpp"

namespace imgpar {

enum class EqualizeMode { Luma, Channels };

const char* equalize_mode_name(EqualizeMode mode);  // "luma" / "channels"
// Parses "luma" or "channels". Throws imgpar::Error (usage) naming both.
EqualizeMode parse_equalize_mode(const std::string& text);

using EqualizeLut = std::array<std::uint8_t, kHistogramValues>;

// The table of one plane (see CONTRACT).
EqualizeLut equalize_lut(const HistogramCounts& counts);

// The 65,536-entry table of one 16-bit plane's counts (see 16-BIT CONTRACT).
std::vector<std::uint16_t> equalize_lut16(const std::uint64_t* counts);

namespace cpu {
// The 16-bit forms (see 16-BIT CONTRACT); dst may alias src.
void equalize(ConstViewU16 src, ViewU16 dst, EqualizeMode mode = EqualizeMode::Luma);
ImageU16 equalize(ConstViewU16 src, EqualizeMode mode = EqualizeMode::Luma);
// Equalizes src into dst (same shape; may alias src). Multithreaded.
// Throws imgpar::Error (usage) on a shape mismatch.
void equalize(ConstViewU8 src, ViewU8 dst, EqualizeMode mode = EqualizeMode::Luma);
ImageU8 equalize(ConstViewU8 src, EqualizeMode mode = EqualizeMode::Luma);
}  // namespace cpu

namespace gpu {
class Session;
// cpu::equalize's bytes, on the session's GPU: histogram, cumulative counts,
// tables and the apply pass all on the device, asynchronous on the session's
// stream. dst has src's shape and may be src.
void equalize(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, EqualizeMode mode,
              std::string* kernel = nullptr);
void equalize(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, EqualizeMode mode,
              std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
