// The rows of a summed-area table (src/ops/integral.hpp) on the CPU,
// vectorised for the host's SIMD width with runtime dispatch (Google
// Highway), or plain loops where imgpar was built without Highway.
//
// A row of the table is the row above plus the running sums along the
// image's row, channel by channel (samples C apart, C the channel count):
//   out[0, C) = 0
//   out[C + s] = above[C + s] + sum of v(in[t]) over t <= s, t = s mod C
// for s in [0, width * C), v the sample or its square. In vectors, each
// vector's samples are scanned in registers (log2 of its lanes / C shifted
// adds), then the running totals of the vector before are added, taken from
// its last C lanes by a fixed permutation: lane j continues the total of
// lane L - C + j mod C of the vector before, whatever the vector's place in
// the row. The type holds every total (the table's contract), so every sum
// is exact and the result is the plain loop's, bit for bit, in any order;
// doubles hold the same integers (below 2^53) exactly.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar::simd {

// One row of a table of `channels` (1-4) channels: `in` holds width *
// channels samples; `above` and `out` (width + 1) * channels entries.
void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const std::uint32_t* above,
                  std::uint32_t* out);
void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const std::uint64_t* above,
                  std::uint64_t* out);
void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const double* above, double* out);

// Column totals: sums[i] += in[i] and, when `squares` is not null,
// squares[i] += in[i]^2, for i in [0, n).
void add_columns(const std::uint8_t* in, std::size_t n, std::uint64_t* sums, std::uint64_t* squares);

// The plain loop of integral_row from sample `from` on, run[c] holding
// channel c's total of the samples before it: the tail of the vector code,
// and the whole of a build without Highway.
template <typename T>
inline void integral_row_plain(const std::uint8_t* in, int width, int channels, bool squares, const T* above, T* out,
                               std::size_t from, T* run) {
    const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
    const std::size_t skip = static_cast<std::size_t>(channels);
    int c = static_cast<int>(from % skip);
    for (std::size_t s = from; s < n; ++s) {
        const unsigned v = in[s];
        run[c] += static_cast<T>(squares ? v * v : v);
        out[skip + s] = above[skip + s] + run[c];
        if (++c == channels) c = 0;
    }
}

}  // namespace imgpar::simd
