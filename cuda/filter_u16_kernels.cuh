// The device pieces the 16-bit filter kernels share (cuda/filter_u16.cu,
// cuda/filter_u16_fused.cu): the argument structs, the launch policy, the
// lanes of a pixel under the border rule (fetch) and the epilogues that turn
// lane values into 16-bit samples (store). Every sample goes through the
// IMGPAR_HD functions of src/ops/filter_u16_math.hpp the CPU reference calls.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuda/filter_launch.hpp"
#include "src/ops/border.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_u16_math.hpp"
#include "src/ops/wide_math.hpp"

namespace imgpar::cuda::filter_detail::u16k {

constexpr int kMaxTaps16 = 2 * kMaxGaussianRadius + 1;
constexpr int kMaxCoeffs16 = kMaxKernelSide * kMaxKernelSide;

// Launch policy (reasoning; to be measured with the 16-bit benchmark rows):
// Gaussian rows (two passes): 128 threads over a 512-pixel segment, kRun
// pixels each (the 2r halo is read once per segment); columns: 32 x 8 threads
// over 32 pixels x tile_h rows, kRun rows a run, tile_h the largest of 128,
// 64, 32 whose halo'd tile fits the shared memory (a taller tile re-reads the
// 2r halo rows less); box: as the 8-bit box; 2-D: 32 x 8 threads, each 4 rows
// of a 32 x 32 output tile.
constexpr int kRowThreads = 128;
constexpr int kTileX = 32;
constexpr int kTileThreadsY = 8;
constexpr int kBoxVertThreads = 128;
constexpr int kBoxHorzThreads = 256;
constexpr int kBoxHorzWarps = kBoxHorzThreads / 32;
constexpr int kMinChunkRows = 64;
constexpr int k2dTileY = 32;

struct Args16 {
    const std::uint16_t* src;
    std::size_t src_pitch;  // bytes
    std::uint16_t* dst;
    std::size_t dst_pitch;  // bytes
    int width, height;
    BorderMode mode;
    std::uint32_t outside[4];  // lanes of a constant-border pixel
    void* tmp;                 // scratch lanes, width * lanes per row, packed
    std::size_t tmp_bytes;     // its size
    int radius;
    int tile_h;      // Gaussian columns, custom/edges tiles: output rows per block
    int chunk_rows;  // box vertical pass
    int seg_px;      // box horizontal pass
    int ext;         // seg_px + 2R + 1
    int count;       // box: (2R+1)^2
    int amount_q8, level;
    int op;
    int kw, kh, ax, ay;
    double denominator, offset;
    std::uint64_t top;
};
struct Taps16 {
    int t[kMaxTaps16];
};
struct Coeffs16 {
    int k[kMaxCoeffs16];
};

// What a (channels, lane kind) pair computes with.
template <int C, int K>
struct Spec {
    static constexpr LaneKind16 kind = static_cast<LaneKind16>(K);
    static constexpr bool wide = K >= static_cast<int>(LaneKind16::WithAlpha);
    static constexpr int L = lane_count16(kind, C);
    using Lane = std::conditional_t<wide, std::uint32_t, std::uint16_t>;
    using Acc = std::conditional_t<wide, std::uint64_t, std::uint32_t>;
    using Signed = std::conditional_t<wide, std::int64_t, std::int32_t>;
    static __device__ __forceinline__ std::uint32_t round(Acc s) {
        if constexpr (wide)
            return gaussian_round_wide16(s);
        else
            return gaussian_round16(s);
    }
};

__device__ __forceinline__ const std::uint16_t* src_row(const Args16& a, int y) {
    return reinterpret_cast<const std::uint16_t*>(reinterpret_cast<const unsigned char*>(a.src) +
                                                  static_cast<std::size_t>(y) * a.src_pitch);
}
__device__ __forceinline__ std::uint16_t* dst_row(const Args16& a, int y) {
    return reinterpret_cast<std::uint16_t*>(reinterpret_cast<unsigned char*>(a.dst) +
                                            static_cast<std::size_t>(y) * a.dst_pitch);
}

// The lanes of pixel (x, y), any x and y (the border rule picks the pixel).
template <int C, int K>
__device__ __forceinline__ void fetch(const Args16& a, int x, int y, typename Spec<C, K>::Lane (&v)[Spec<C, K>::L]) {
    using S = Spec<C, K>;
    const int yy = border_index(y, a.height, a.mode);
    const int xx = border_index(x, a.width, a.mode);
    if (yy < 0 || xx < 0) {
#pragma unroll
        for (int l = 0; l < S::L; ++l) v[l] = static_cast<typename S::Lane>(a.outside[l]);
        return;
    }
    const std::uint16_t* p = src_row(a, yy) + static_cast<std::size_t>(xx) * C;
    std::uint16_t px[C];
#pragma unroll
    for (int c = 0; c < C; ++c) px[c] = __ldg(p + c);
#pragma unroll
    for (int l = 0; l < S::L; ++l) v[l] = static_cast<typename S::Lane>(lane16(S::kind, px, C, l));
}

// Writes output pixel (x, y) from its lane values: samples (unsharp: the
// rule on x and the blur), the filtered alpha's way back, or the kept
// alpha's (unsharp first where asked).
template <int C, int K, bool Unsharp>
__device__ __forceinline__ void store(const Args16& a, int x, int y, const std::uint32_t (&v)[Spec<C, K>::L]) {
    using S = Spec<C, K>;
    constexpr LaneKind16 kind = S::kind;
    if constexpr (kind == LaneKind16::Samples || kind == LaneKind16::Luma) {
        std::uint16_t* o = dst_row(a, y) + static_cast<std::size_t>(x) * S::L;
        if constexpr (Unsharp) {
            const std::uint16_t* s = src_row(a, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
            for (int l = 0; l < S::L; ++l)
                o[l] = static_cast<std::uint16_t>(
                    unsharp_output16(__ldg(s + l), static_cast<int>(v[l]), a.amount_q8, a.level));
        } else {
#pragma unroll
            for (int l = 0; l < S::L; ++l) o[l] = static_cast<std::uint16_t>(v[l]);
        }
    } else if constexpr (kind == LaneKind16::WithAlpha) {
        constexpr int colours = C - 1;
        std::uint16_t* o = dst_row(a, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
        for (int c = 0; c < colours; ++c) o[c] = static_cast<std::uint16_t>(unpremultiply_filtered16(v[c], v[colours]));
        o[colours] = static_cast<std::uint16_t>(alpha16(v[colours]));
    } else {
        constexpr int colours = C - 1;
        const std::uint16_t* s = src_row(a, y) + static_cast<std::size_t>(x) * C;
        const int al = __ldg(s + colours);
        std::uint16_t* o = dst_row(a, y) + static_cast<std::size_t>(x) * (S::L + 1);
#pragma unroll
        for (int l = 0; l < S::L; ++l) {
            std::uint32_t p = v[l];
            if constexpr (Unsharp) p = unsharp_output_wide16(premultiply16(__ldg(s + l), al), p, a.amount_q8, a.level);
            o[l] = static_cast<std::uint16_t>(unpremultiply_kept16(p, al));
        }
        o[S::L] = static_cast<std::uint16_t>(al);
    }
}

// Outputs a thread of the Gaussians computes along a line (4 pixels of a
// row in a rows step, 4 rows of a column in a columns step): the kRun + 2r
// values a run reads are loaded from shared memory once each and feed every
// output of the run that reads them, (kRun + 2r) / (kRun (2r + 1)) loads per
// multiply-add, about a quarter, instead of one (shared-memory loads, not
// multiply-adds, bound the one-output version).
constexpr int kRun = 4;

// sum[q][l] = sum_i T[i] * line[(q + i) * stride + l] for the run's outputs
// q in [0, kRun): `line` is the first value output 0 reads, `stride` the
// elements from one position of the line to the next.
template <int L, typename Lane, typename Acc>
__device__ __forceinline__ void run_sums(const Lane* line, int stride, int r, const Taps16& taps, Acc (&sum)[kRun][L]) {
#pragma unroll
    for (int q = 0; q < kRun; ++q)
#pragma unroll
        for (int l = 0; l < L; ++l) sum[q][l] = 0;
    for (int j = 0; j < 2 * r + kRun; ++j) {
        Lane v[L];
#pragma unroll
        for (int l = 0; l < L; ++l) v[l] = line[j * stride + l];
#pragma unroll
        for (int q = 0; q < kRun; ++q) {
            const int i = j - q;  // the tap value j meets in output q
            if (i < 0 || i > 2 * r) continue;
            // Zero-extended, so the multiply is 32 x 32 bits (IMAD.WIDE.U32 for uint64 sums).
            const Acc t = static_cast<Acc>(static_cast<std::uint32_t>(taps.t[i]));
#pragma unroll
            for (int l = 0; l < L; ++l) sum[q][l] += t * v[l];
        }
    }
}

// The fused Gaussian (cuda/filter_u16_fused.cu): both passes in one kernel
// over a tile staged with its halo in shared memory, for radii up to
// kFusedMaxRadius where the tile fits; the same samples as the two passes.
// Returns the kernel's name, or nullptr where it does not take the plan
// (then nothing was launched).
constexpr int kFusedMaxRadius = 16;
template <int C, int K>
const char* launch_gaussian_fused(bool unsharp, Args16 a, const Taps16& taps, cudaStream_t stream,
                                  const DeviceLimits& dev);

}  // namespace imgpar::cuda::filter_detail::u16k
