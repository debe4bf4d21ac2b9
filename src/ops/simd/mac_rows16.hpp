// The inner loop of the 16-bit Gaussian on the CPU (src/ops/filter_cpu_u16_passes.cpp),
// vectorised with runtime dispatch (Google Highway) where imgpar has it,
// plain loops elsewhere:
//   acc[k] += t * q[k]   for k in [0, n)
// in uint32 (16-bit samples, taps summing to 2^16: exact, the 16-bit
// contract in src/ops/filter.hpp), so every width gives the same sums.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar::simd {

void mac_row(std::uint32_t* acc, const std::uint16_t* q, std::uint32_t t, std::size_t n);

}  // namespace imgpar::simd
