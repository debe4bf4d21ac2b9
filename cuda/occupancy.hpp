// How many blocks of a kernel the current device runs at once: launchers
// size persistent and grid-stride grids with it.
#pragma once

#include <cstddef>

namespace imgpar::cuda {

// Blocks of `kernel` (threads, dynamic shared bytes) resident on the whole
// current device; cached per (device, kernel, shape), as launchers ask on
// every call. A kernel that needs more than 48 KB of dynamic shared memory
// must have been allowed it first.
int co_resident_blocks(const void* kernel, int threads, std::size_t smem_bytes);

}  // namespace imgpar::cuda
