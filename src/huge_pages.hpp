// Large buffers backed by transparent huge pages (Linux).
//
// Why: a 16 MP image is tens of MB, and every buffer of that size is touched
// fresh (the file's bytes, the decoded image, the encoded output). With 4 KiB
// pages that is one page fault per 4 KiB; in a virtual machine each fault
// also costs the hypervisor a trip, and first touches dominated whole runs:
// `convert` of a 48 MB uncompressed TIFF spent over three quarters of its
// CPU time in faults and first-touch memset/memcpy (bench/TUNING.md, "TIFF
// against vips copy"). Most kernels ship THP in "madvise" mode, where only
// ranges that ask get huge pages; this asks.
#pragma once

#include <cstddef>

namespace imgpar {

// Asks the kernel to back the whole 2 MiB pages inside [data, data + bytes)
// with huge pages when they are first touched. Call it on memory not yet
// touched (after reserve, before writing). Buffers under 4 MiB are left
// alone; refusals (no THP, THP off, another OS) are ignored: this only ever
// changes speed.
void advise_huge_pages(void* data, std::size_t bytes);

}  // namespace imgpar
