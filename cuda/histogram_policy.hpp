// Launch shapes and counting strategies of the histogram-family kernels. The
// product runs the defaults below (cuda/histogram.cu); the others exist for
// the benchmark's sweep (cuda/lab/histogram_variants.hpp).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"

namespace imgpar::cuda {

// How a thread's samples reach its shared sub-histogram (every strategy gives
// the same counts; they trade ALU work against shared atomics):
enum class HistogramMerge {
    // Run-length merge of equal neighbours per plane in registers: a compare
    // and select per sample, an atomic per finished run; runs carry across
    // chunks and are flushed once (a constant image does no atomics until
    // the end). Photos have runs of about one sample, so there it costs the
    // plain atomics plus the compares.
    Runs,
    // One shared atomic per sample, nothing else (what CUB does).
    Plain,
    // A chunk whose 16 pixels are equal adds 16 with one atomic per plane, and
    // a warp whose 32 chunks are all that same pixel adds 512 with one lane;
    // any other chunk goes the Plain way. About 6 instructions per chunk over
    // Plain on photos; constant areas cost ~nothing.
    Uniform,
    // __match_any_sync per sample: lanes holding the same value add once
    // (their count), so no atomic ever waits on a same-address conflict;
    // costs a match per sample.
    Match,
};

// Which sub-histogram copy of its block a thread adds to.
enum class HistogramCopyBy {
    Warp,  // copy (warp % copies): a warp's lanes share one copy
    Lane,  // copy (thread % copies): a warp's lanes spread over the copies, so
           // lanes with equal values mostly hit different addresses (copies
           // are skewed by one bank so those addresses are in different banks)
};

// Privatized histogram sweep (cuda/histogram.cu, cuda/histogram_count.cuh).
//
// Every thread loads `chunks_per_step` chunks of 16 pixels (C 16-byte loads
// each, read-only cache path) before it counts any of them, so that many
// loads are in flight per thread; the count is capped at 4 / C chunks (at
// least 1): a thread then never holds more than 64 bytes, and colour chunks
// already bring 3-4 loads each. Block counts go to `copies` 32-bit
// sub-histograms in shared memory (P x 256 each), merged once per block into
// the 64-bit global counts, skipping empty bins. The grid is as many blocks
// as are co-resident (occupancy API), or blocks_per_sm per SM when that is
// smaller (a persistent grid: fewer blocks, each merging once over more
// pixels).
struct HistogramPolicy {
    int block_threads = 256;  // multiple of 32, 32..1024
    int copies = 8;           // 1..warps per block (Warp), 1..32 (Lane)
    HistogramCopyBy copy_by = HistogramCopyBy::Warp;
    HistogramMerge merge = HistogramMerge::Runs;
    int chunks_per_step = 1;  // 1, 2 or 4 (capped at 4 / channels)
    int blocks_per_sm = 0;    // 0: as many as are co-resident
};

// The defaults, one constant per kind of image, keyed by the image's channel
// count (not the planes counted: a luma-only count of a colour image still
// reads 3-4 bytes per pixel, as a colour sweep does). The sweep
// `imgpar_bench --only histo-policy` is the measurement to consult before
// changing either; its rows are named by describe().
//
// Both chosen from one sweep on an H100 80GB HBM3 (medians, microseconds;
// CUB = cub::DeviceHistogram in the same run):
//   gray 8192x8192  photo 32.0, constant 29.3   (CUB 37.0, 34.7)
//   RGB 7680x4320   photo 45.4, constant 43.9   (CUB MultiHistogramEven 100.4, 124.8)
//   RGB + luma      photo 53.7, constant 47.6   (the old Runs default: 120.3, 68.4)
// Photos have ~1-sample runs, so the Runs merge pays its compares for
// nothing; Uniform costs ~6 instructions per 16-pixel chunk and makes
// constant areas nearly free. Wide blocks with 16 warp copies keep enough
// loads in flight; gray loads two chunks before counting (one left the
// atomics starved). Runner-up shapes (512 threads, 1 copy, 2 blocks/SM) were
// within 3% on photos but up to 1.8x slower on constant RGB.
inline constexpr HistogramPolicy kHistogramPolicyColour{1024, 16, HistogramCopyBy::Warp, HistogramMerge::Uniform, 1, 0};
inline constexpr HistogramPolicy kHistogramPolicyGray{1024, 16, HistogramCopyBy::Warp, HistogramMerge::Uniform, 2, 0};

// The default for an image of `channels` channels.
constexpr HistogramPolicy default_histogram_policy(int channels) {
    return channels <= 2 ? kHistogramPolicyGray : kHistogramPolicyColour;
}

// "merge=uniform steps=2 threads=256 copies=8/warp grid=auto": stable names
// for benchmark rows and test messages.
std::string describe(const HistogramPolicy& p);
const char* merge_name(HistogramMerge m);

// Equalize/threshold apply kernels: a streaming pass (16 pixels per thread and
// step, 16-byte loads and stores), grid-stride over co-resident blocks.
struct ApplyPolicy {
    int block_threads = 256;
};


}  // namespace imgpar::cuda
