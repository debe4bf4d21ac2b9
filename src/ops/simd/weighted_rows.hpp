// The inner loop of the separable Gaussian on the CPU, vectorised for the
// host's SIMD width with runtime dispatch (Google Highway: SSE4, AVX2,
// AVX-512, NEON, ... whichever the machine has), or plain loops where imgpar
// was built without Highway.
//
//   out[t] = (sum_i taps[i] * rows[i][t] + add) >> shift     for t in [0, n)
//
// with 2r + 1 taps and rows. Every sum is exact in 32-bit integers (the
// Gaussian's contract, filter.hpp: taps sum to 4096, samples at most 65025),
// so the vector code gives the scalar code's values bit for bit, whatever
// the width or grouping. The horizontal pass passes rows[i] = padded row + i
// * channels; the vertical pass the intermediate rows the border rule names.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar::simd {

struct WeightedRows {
    const std::int32_t* taps = nullptr;  // 2r + 1 entries
    int radius = 0;                      // r
    bool symmetric = false;              // taps[i] == taps[2r - i]: rows i and 2r - i are added first
    std::int32_t add = 0;                // rounding term
    int shift = 0;
};

// One lane of the sum: the vector code's tail and the whole of a build
// without Highway.
template <typename T>
inline std::int32_t weighted_lane(const WeightedRows& w, const T* const* rows, std::size_t t) {
    const int r = w.radius;
    std::int32_t acc = w.taps[r] * static_cast<std::int32_t>(rows[r][t]);
    for (int i = 0; i <= 2 * r; ++i)
        if (i != r) acc += w.taps[i] * static_cast<std::int32_t>(rows[i][t]);
    return (acc + w.add) >> w.shift;
}

// One overload per (sample, result) pair the Gaussian uses: 8-bit samples
// into the 16-bit intermediate, 16-bit (wide) samples into it, and the
// intermediate into final values.
void weighted_rows(const WeightedRows& w, const std::uint8_t* const* rows, std::size_t n, std::uint16_t* out);
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint16_t* out);
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out);

// The narrow domain's final rows as bytes: the vertical sums of an 8-bit
// image's intermediate are 0..255, so the vertical pass writes the output
// row itself instead of 32-bit values that a copy then narrows.
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint8_t* out);

// Unsharp's final rows: out[t] = unsharp_output(x[t], b[t], amount_q8,
// threshold_level) (src/ops/filter_math.hpp), b[t] the vertical sum above.
struct UnsharpRows {
    const std::uint8_t* x = nullptr;  // the source row
    int amount_q8 = 0, threshold_level = 0;
};
void unsharp_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, const UnsharpRows& u,
                  std::uint8_t* out);

}  // namespace imgpar::simd
