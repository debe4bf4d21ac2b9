// Gaussian blur and unsharp mask on the tensor cores.
//
// Both 1-D passes of the separable filter are products with a banded
// (Toeplitz) matrix of the 12-bit taps, done with exact 8-bit integer MMA
// (u8 x u8 -> s32, m16n8k32): 16 outputs of a pass need 16 + 2r inputs,
// covered by NJ = ceil((16 + 2r) / 32) chunks of 32, and chunk j of the
// matrix is A_j[m][k] = tap(32j + k - m). Taps above 255 (sigma below ~6.4)
// are split into a low and a high byte plane (TP = 2); the 11-bit
// intermediate H of the contract is kept as two byte planes.
//
// A block owns a strip of `strip_px` columns (every channel) and a segment of
// output rows, and slides down the rows in steps of 16, the intermediate never
// leaving the chip:
//   - stage 16 new source rows (border rule, channels split into byte planes)
//     into shared memory;
//   - horizontal MMA: their H rows go into a ring buffer of `ring` rows per
//     column (column-major, so 4 consecutive rows are one 32-bit word: the
//     B operand of the vertical MMA);
//   - vertical MMA over the ring for 16 output rows, into an interleaved
//     output tile;
//   - epilogue (unsharp) and coalesced 16-byte stores.
// Each H row is computed once per strip, so the cost does not grow with the
// vertical halo, and the MMA count per output grows only with NJ. In steady
// state a step has two barriers; the next group's global loads are in flight
// during the vertical MMAs, and its horizontal MMAs run beside the stores.
//
// Exactness: every sum is an exact integer (u8 MMA accumulates in s32); the
// roundings are the contract's (gaussian_h_round / gaussian_v_round).
// Reads of the ring and of the staged rows that reach past the rows a chunk
// needs (chunks are 32 wide) meet zero taps, so their contents do not matter;
// shared memory is zeroed once so they are at least defined.
//
// Gray and RGB images (images with alpha run cuda/filter_wide.cu).

#pragma once

#include <cstdint>

#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_mma.cuh"

// The device side: launch policy, arguments, staging, the two MMA passes and
// the kernel. Included by cuda/filter_separable_mma.cu only.
namespace imgpar::cuda::filter_detail::ring {

// Launch policy. Chosen by reasoning, not by a sweep (imgpar_bench --only
// fallbacks times it against a device copy):
//  - 256 threads (8 warps): a 16-row step has 2*C*strip/16 horizontal and
//    C*strip/8 vertical warp tasks, so every warp has work even for gray.
//  - strip 128 px for gray, 64 px otherwise: the ring (2 byte planes x
//    C*strip columns x (2r+32) rows) then fits twice per SM up to r ~ 60 for
//    RGB (~68 KB), and the staged halo (2r px per side) stays under 3x at
//    r = 60. Halved while a block does not fit the device.
//  - rows per block: at least max(64, 4r), so the 2r warm-up rows of the
//    ring cost under 50%; otherwise enough blocks for about two waves.
//  - 4 staging items (16 source pixels) per thread are in flight across the
//    vertical MMAs.
struct SeparableMmaPolicy {
    static constexpr int kThreads = 256;
    static constexpr int kStripGray = 128;
    static constexpr int kStripColour = 64;
    static constexpr int kMinSegRows = 64;
    static constexpr int kWaves = 2;
    static constexpr int kBatch = 4;
};

constexpr int kThreads = SeparableMmaPolicy::kThreads;
constexpr int kWarps = kThreads / 32;
constexpr int kStep = 16;  // rows per H group and per output step (the MMA's M)
constexpr int kMaxTaps = 2 * kMaxGaussianRadius + 1;
constexpr int kMaxNJ = (16 + 2 * kMaxGaussianRadius + 31) / 32;  // 10

struct SepMmaArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    SepMode mode;
    UnsharpArg unsharp;
    int radius;        // r after trimming zero taps
    int strip_px;      // output columns (pixels) per block: 16, 32, 64 or 128
    int strip_shift;   // log2(strip_px)
    int seg_rows;      // output rows per block, multiple of 16
    int ring;          // ring rows, multiple of 16, >= 2r + 32
    int ring_stride;   // bytes per ring column: >= ring, = 16 (mod 32) so B loads hit 32 banks
    int stage_stride;  // bytes per staged plane row, = 16 (mod 32)
    int out_stride;    // bytes per output tile row, = 32 (mod 128)
    int off_tab_hi;    // shared memory offsets (the low tap table is at 0)
    int off_ring_lo;
    int off_ring_hi;
    int off_stage;
    int off_out;
    int smem_bytes;
    int src_words;  // source rows readable as aligned 32-bit words
    int src_vec16;  // ... and as aligned 16-byte vectors
    int dst_vec16;  // destination rows writable as aligned 16-byte vectors
    std::uint8_t taps_lo[kMaxTaps];  // trimmed taps, low byte
    std::uint8_t taps_hi[kMaxTaps];  // high byte (0..16)
};

// --- staging: 16 source rows -> C byte planes in shared memory ---------------
//
// Work item = 4 pixels of one staged row. Each staged row belongs to 16
// threads (thread t stages row t / 16, items t % 16, t % 16 + 16, ...), so a
// thread's row, and the border rule for it, are fixed per group and no
// division is needed. The first kBatch items of each thread are issued
// (global loads in flight) before the vertical MMAs of the current step and
// completed after them, so load latency overlaps tensor work.

constexpr int kBatch = SeparableMmaPolicy::kBatch;
constexpr int kRowThreads = kThreads / 16;  // threads per staged row
static_assert(kRowThreads == 16, "staging maps 256 threads onto 16 rows");

// P: bytes a sample (1; 2 for the 16-bit steps of
// cuda/filter_separable_mma16.cuh, whose items are 2C plane words).
template <int C, int P = 1>
struct StageBatch {
    std::uint32_t raw[kBatch][P * C + 1];  // aligned source words covering each item's 4PC bytes
    unsigned fast = 0;                     // bit k: item k is read as words (inside the image, aligned source)
};

// Whether pixels x..x+3 of image row yy (-1: constant row) can be read as
// aligned words that all lie inside the row.
template <int C, int P = 1>
__device__ __forceinline__ bool word_path(const SepMmaArgs& a, int yy, int x) {
    const int W = a.src.width;
    return yy >= 0 && a.src_words && x >= 0 && x + 4 <= W && (((P * x * C + 4 * P * C - 1) | 3) < P * W * C);
}

template <int C, int P = 1>
__device__ __forceinline__ void load_words(const SepMmaArgs& a, int yy, int x, std::uint32_t (&raw)[P * C + 1]) {
    const int b0 = P * x * C;
    const std::uint32_t* p = reinterpret_cast<const std::uint32_t*>(row_ptr(a.src, yy)) + (b0 >> 2);
#pragma unroll
    for (int k = 0; k < P * C; ++k) raw[k] = __ldg(p + k);
    raw[P * C] = (b0 & 3) ? __ldg(p + P * C) : 0u;
}

// Plane words of pixels x..x+3 of image row y read pixel by pixel with the
// border rule: the image edges and unaligned sources. Not inlined: it is the
// cold path, and one copy per channel count keeps the kernels small.
template <int C>
__device__ __noinline__ uint4 stage_item_edge(const SepMmaArgs& a, int x, int y) {
    int v[4][C];
#pragma unroll
    for (int k = 0; k < 4; ++k) fetch_pixel<C>(a.src, a.border, x + k, y, v[k]);
    std::uint32_t w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int c = 0; c < C; ++c) w[c] = pack4(v[0][c], v[1][c], v[2][c], v[3][c]);
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// The plane words of one 8-bit item from its loaded words (or, at the image
// edges, pixel by pixel with the border rule).
template <int C>
__device__ __forceinline__ void item_planes(const SepMmaArgs& a, int x, int y, bool fast,
                                            const std::uint32_t (&raw)[C + 1], std::uint32_t (&w)[C]) {
    if (fast) {
        const unsigned sh = static_cast<unsigned>((x * C) & 3) * 8u;
        std::uint32_t u[C];
#pragma unroll
        for (int k = 0; k < C; ++k) u[k] = __funnelshift_r(raw[k], raw[k + 1], sh);
        std::uint32_t d[4];
        deinterleave<C>(u, d);
#pragma unroll
        for (int c = 0; c < C; ++c) w[c] = d[c];
    } else {
        const uint4 e = stage_item_edge<C>(a, x, y);
        const std::uint32_t d[4] = {e.x, e.y, e.z, e.w};
#pragma unroll
        for (int c = 0; c < C; ++c) w[c] = d[c];
    }
}

// The plane words of an item of P-byte samples: item_planes (8 bits) or
// item_planes16 (cuda/filter_separable_mma16.cuh).
template <int C>
__device__ __forceinline__ void item_planes16(const SepMmaArgs& a, int x, int y, bool fast,
                                              const std::uint32_t (&raw)[2 * C + 1], std::uint32_t (&w)[2 * C]);
template <int C, int P>
__device__ __forceinline__ void item_planes_of(const SepMmaArgs& a, int x, int y, bool fast,
                                               const std::uint32_t (&raw)[P * C + 1], std::uint32_t (&w)[P * C]) {
    if constexpr (P == 1)
        item_planes<C>(a, x, y, fast, raw, w);
    else
        item_planes16<C>(a, x, y, fast, raw, w);
}

// Finishes one item (pixels xb + 4q .. +3 of staged row `row`, image row y):
// its P C plane words, stored.
template <int C, int P>
__device__ __forceinline__ void stage_item(const SepMmaArgs& a, std::uint8_t* stage, int row, int y, int xb, int q,
                                           bool fast, const std::uint32_t (&raw)[P * C + 1]) {
    const int x = xb + 4 * q;
    std::uint32_t w[P * C];
    item_planes_of<C, P>(a, x, y, fast, raw, w);
    std::uint8_t* p = stage + row * a.stage_stride + 4 * q;
#pragma unroll
    for (int c = 0; c < P * C; ++c) store_u32_shared(p + c * kStep * a.stage_stride, w[c]);
}

// Issues the global loads of this thread's first kBatch items of the group
// whose first image row is yb (staged position 0 is image column xb; nq items
// per row).
template <int C, int P>
__device__ __forceinline__ void stage_issue(const SepMmaArgs& a, StageBatch<C, P>& b, int yb, int xb, int nq) {
    const int row = static_cast<int>(threadIdx.x) / kRowThreads;
    const int yy = border_index(yb + row, a.src.height, a.border.mode);
    b.fast = 0;
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
        const int q = static_cast<int>(threadIdx.x) % kRowThreads + k * kRowThreads;
        const int x = xb + 4 * q;
        if (q < nq && word_path<C, P>(a, yy, x)) {
            b.fast |= 1u << k;
            load_words<C, P>(a, yy, x, b.raw[k]);
        }
    }
}

// Completes the issued items, then stages this thread's remaining items.
template <int C, int P>
__device__ __forceinline__ void stage_complete(const SepMmaArgs& a, const StageBatch<C, P>& b, std::uint8_t* stage,
                                               int yb, int xb, int nq) {
    const int row = static_cast<int>(threadIdx.x) / kRowThreads;
    const int y = yb + row;
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
        const int q = static_cast<int>(threadIdx.x) % kRowThreads + k * kRowThreads;
        if (q < nq) stage_item<C, P>(a, stage, row, y, xb, q, (b.fast >> k) & 1u, b.raw[k]);
    }
    if (nq > kBatch * kRowThreads) {
        const int yy = border_index(y, a.src.height, a.border.mode);
        for (int q = static_cast<int>(threadIdx.x) % kRowThreads + kBatch * kRowThreads; q < nq; q += kRowThreads) {
            const int x = xb + 4 * q;
            std::uint32_t raw[P * C + 1];
            const bool fast = word_path<C, P>(a, yy, x);
            if (fast) load_words<C, P>(a, yy, x, raw);
            stage_item<C, P>(a, stage, row, y, xb, q, fast, raw);
        }
    }
}

// --- the two MMA passes and the stores ---------------------------------------------

template <int NJ, int TP>
using Frags = std::uint32_t[TP][NJ][4];

// Horizontal pass of the staged group into ring rows h_slot..h_slot+15.
// Warp task = (channel, 16 output columns, 8 rows).
template <int C, int NJ, int TP>
__device__ __forceinline__ void horizontal_pass(const SepMmaArgs& a, const Frags<NJ, TP>& afr, const std::uint8_t* stage,
                                                std::uint8_t* ring_lo, std::uint8_t* ring_hi, int h_slot) {
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int swp = a.strip_px;
    const int cs = a.ring_stride;
    const int mg_shift = a.strip_shift - 4;  // log2(16-column groups per plane)
    const int tasks = (C * 2) << mg_shift;
    for (int task = threadIdx.x >> 5; task < tasks; task += kWarps) {
        const int h = task & 1;
        const int mg = (task >> 1) & ((1 << mg_shift) - 1);
        const int c = task >> (1 + mg_shift);
        const int m0 = mg * 16;
        const std::uint8_t* bp = stage + (c * kStep + 8 * h + g) * a.stage_stride + m0 + 4 * t;
        int acc[TP][4];
#pragma unroll
        for (int p = 0; p < TP; ++p) acc[p][0] = acc[p][1] = acc[p][2] = acc[p][3] = 0;
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
            const std::uint32_t b0 = load_u32_shared(bp + 32 * j);
            const std::uint32_t b1 = load_u32_shared(bp + 32 * j + 16);
#pragma unroll
            for (int p = 0; p < TP; ++p) mma_u8_m16n8k32(acc[p], afr[p][j], b0, b1);
        }
        int hv[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            int total = acc[0][e];
            if constexpr (TP == 2) total += acc[TP - 1][e] << 8;
            hv[e] = gaussian_h_round(total);
        }
        // d0/d1: column m0+g, rows 2t and 2t+1 of this half; d2/d3: column m0+g+8.
        const int slot = h_slot + 8 * h + 2 * t;
        const int col = c * swp + m0 + g;
        std::uint8_t* pl = ring_lo + col * cs + slot;
        std::uint8_t* ph = ring_hi + col * cs + slot;
        store_u16_shared(pl, static_cast<std::uint32_t>((hv[0] & 0xFF) | ((hv[1] & 0xFF) << 8)));
        store_u16_shared(pl + 8 * cs, static_cast<std::uint32_t>((hv[2] & 0xFF) | ((hv[3] & 0xFF) << 8)));
        store_u16_shared(ph, static_cast<std::uint32_t>((hv[0] >> 8) | ((hv[1] >> 8) << 8)));
        store_u16_shared(ph + 8 * cs, static_cast<std::uint32_t>((hv[2] >> 8) | ((hv[3] >> 8) << 8)));
    }
}

// Vertical pass: 16 output rows whose first ring row is v_slot, into the
// interleaved output tile. Warp task = 8 columns (of one channel plane).
template <int C, int NJ, int TP>
__device__ __forceinline__ void vertical_pass(const SepMmaArgs& a, const Frags<NJ, TP>& afr, const std::uint8_t* ring_lo,
                                              const std::uint8_t* ring_hi, std::uint8_t* out, int v_slot) {
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int swp = a.strip_px;
    const int cs = a.ring_stride;
    const int ring = a.ring;
    const int os = a.out_stride;
    const int tasks = C * swp / 8;
    for (int task = threadIdx.x >> 5; task < tasks; task += kWarps) {
        const int n0 = task * 8;
        const std::uint8_t* cl = ring_lo + (n0 + g) * cs;
        const std::uint8_t* ch = ring_hi + (n0 + g) * cs;
        int lo[4] = {0, 0, 0, 0};
        int mid[4] = {0, 0, 0, 0};
        int top[4] = {0, 0, 0, 0};
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
            int s0 = v_slot + 32 * j + 4 * t;
            if (s0 >= ring) s0 -= ring;
            int s1 = v_slot + 32 * j + 16 + 4 * t;
            if (s1 >= ring) s1 -= ring;
            const std::uint32_t bl0 = load_u32_shared(cl + s0);
            const std::uint32_t bl1 = load_u32_shared(cl + s1);
            const std::uint32_t bh0 = load_u32_shared(ch + s0);
            const std::uint32_t bh1 = load_u32_shared(ch + s1);
            mma_u8_m16n8k32(lo, afr[0][j], bl0, bl1);
            mma_u8_m16n8k32(mid, afr[0][j], bh0, bh1);
            if constexpr (TP == 2) {
                mma_u8_m16n8k32(mid, afr[TP - 1][j], bl0, bl1);
                mma_u8_m16n8k32(top, afr[TP - 1][j], bh0, bh1);
            }
        }
        int v[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) v[e] = gaussian_v_round(lo[e] + (mid[e] << 8) + (top[e] << 16));
        // d0/d1: output row g, columns n0+2t and n0+2t+1; d2/d3: row g+8.
        const int c = n0 >> a.strip_shift;
        const int o = (n0 & (swp - 1)) + 2 * t;
        std::uint8_t* op = out + g * os + o * C + c;
        op[0] = static_cast<std::uint8_t>(v[0]);
        op[C] = static_cast<std::uint8_t>(v[1]);
        op[8 * os] = static_cast<std::uint8_t>(v[2]);
        op[8 * os + C] = static_cast<std::uint8_t>(v[3]);
    }
}

// Epilogue and stores of output rows ys..ys+15 (those inside the segment)
// and of the strip's columns inside the image. Not inlined: called once per
// step, and one copy per channel count keeps the kernels small.
template <int C>
__device__ __noinline__ void store_rows(const SepMmaArgs& a, const std::uint8_t* out, int x0, int ys, int y1) {
    const int valid = min(a.strip_px, a.src.width - x0) * C;
    const int nch = (valid + 15) >> 4;     // 16-byte chunks per row (at most 16 with the policy's strips)
    const int k = threadIdx.x / kRowThreads;  // output row of this thread
    if (ys + k >= y1) return;
    for (int ch = static_cast<int>(threadIdx.x) % kRowThreads; ch < nch; ch += kRowThreads) {
        const int off = ch * 16;
        const int y = ys + k;
        const std::uint8_t* ob = out + k * a.out_stride + off;
        std::uint8_t* dp = row_ptr(a.dst, y) + static_cast<std::size_t>(x0) * C + off;
        const std::uint8_t* sp = row_ptr(a.src, y) + static_cast<std::size_t>(x0) * C + off;
        if (off + 16 <= valid && a.dst_vec16) {
            uint4 bv = *reinterpret_cast<const uint4*>(ob);
            if (a.mode != SepMode::Blur) {
                uint4 sv;
                if (a.src_vec16) {
                    sv = __ldg(reinterpret_cast<const uint4*>(sp));
                } else {
                    std::uint32_t s4[4];
#pragma unroll
                    for (int w = 0; w < 4; ++w)
                        s4[w] = pack4(__ldg(sp + 4 * w), __ldg(sp + 4 * w + 1), __ldg(sp + 4 * w + 2), __ldg(sp + 4 * w + 3));
                    sv = make_uint4(s4[0], s4[1], s4[2], s4[3]);
                }
                bv.x = separable_output_word(a.mode, a.unsharp, bv.x, sv.x);
                bv.y = separable_output_word(a.mode, a.unsharp, bv.y, sv.y);
                bv.z = separable_output_word(a.mode, a.unsharp, bv.z, sv.z);
                bv.w = separable_output_word(a.mode, a.unsharp, bv.w, sv.w);
            }
            *reinterpret_cast<uint4*>(dp) = bv;
        } else {
            const int n = min(16, valid - off);
            for (int w = 0; w < n; w += 4) {
                const int nb = min(4, n - w);
                const std::uint32_t bw = load_u32_shared(ob + w);
                std::uint32_t sw = 0;
                if (a.mode != SepMode::Blur)
                    for (int e = 0; e < nb; ++e) sw |= static_cast<std::uint32_t>(__ldg(sp + w + e)) << (8 * e);
                const std::uint32_t o = separable_output_word(a.mode, a.unsharp, bw, sw);
                for (int e = 0; e < nb; ++e) dp[w + e] = static_cast<std::uint8_t>(byte_of(o, e));
            }
        }
    }
}

// --- the kernel ---------------------------------------------------------------

// The 16-bit steps (P = 2) are declared here, defined in
// cuda/filter_separable_mma16.cuh, which a translation unit instantiating
// P = 2 includes.
template <int C, int NJ, int TP>
__device__ __forceinline__ void horizontal_pass16(const SepMmaArgs& a, const Frags<NJ, TP>& afr,
                                                  const std::uint8_t* stage, std::uint8_t* ring_lo,
                                                  std::uint8_t* ring_hi, int h_slot);
template <int C, int NJ, int TP>
__device__ __forceinline__ void vertical_pass16(const SepMmaArgs& a, const Frags<NJ, TP>& afr,
                                                const std::uint8_t* ring_lo, const std::uint8_t* ring_hi,
                                                std::uint8_t* out, int v_slot);
template <int C>
__device__ __noinline__ void store_rows16(const SepMmaArgs& a, const std::uint8_t* out, int x0, int ys, int y1);

// P: bytes a sample (1 or 2).
template <int C, int NJ, int TP, int P = 1>
__global__ void __launch_bounds__(kThreads) separable_mma_kernel(const __grid_constant__ SepMmaArgs a) {
    extern __shared__ __align__(16) std::uint8_t smem[];
    std::uint8_t* const tab_lo = smem;
    std::uint8_t* const tab_hi = smem + a.off_tab_hi;
    std::uint8_t* const ring_lo = smem + a.off_ring_lo;
    std::uint8_t* const ring_hi = smem + a.off_ring_hi;
    std::uint8_t* const stage = smem + a.off_stage;
    std::uint8_t* const out = smem + a.off_out;

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int swp = a.strip_px;
    const int r = a.radius;
    const int ring = a.ring;
    const int x0 = blockIdx.x * swp;
    const int y0 = blockIdx.y * a.seg_rows;
    const int y1 = min(y0 + a.seg_rows, a.src.height);

    for (int i = tid * 16; i < a.smem_bytes; i += kThreads * 16)
        *reinterpret_cast<uint4*>(smem + i) = make_uint4(0u, 0u, 0u, 0u);
    __syncthreads();
    // Tap tables with 16 zero entries before tap 0 and zeros after tap 2r, so
    // every Toeplitz entry tap(32j + k - m) is one lookup.
    const int tabn = 32 * NJ + 16;
    for (int i = tid; i < tabn; i += kThreads) {
        const int k = i - 16;
        const bool in = k >= 0 && k <= 2 * r;
        tab_lo[i] = in ? a.taps_lo[k] : 0;
        tab_hi[i] = in ? a.taps_hi[k] : 0;
    }
    __syncthreads();

    // A fragments (the Toeplitz chunks), the same for both passes: afr[p][j]
    // is chunk j of tap byte plane p (0 low, 1 high).
    std::uint32_t afr[TP][NJ][4];
#pragma unroll
    for (int p = 0; p < TP; ++p) {
        const std::uint8_t* tab = p == 0 ? tab_lo : tab_hi;
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const int m = g + (q & 1) * 8;
                const int k = 4 * t + (q >> 1) * 16;
                const int base = 32 * j + k - m + 16;
                afr[p][j][q] = pack4(tab[base], tab[base + 1], tab[base + 2], tab[base + 3]);
            }
        }
    }

    const int xb = x0 - r;                       // image column of staged position 0
    const int nq = (swp + 2 * r + 3) >> 2;       // 4-pixel items per staged row
    int h_done = 0;  // ring rows computed; ring row u holds H of image row y0 - r + u
    int h_slot = 0;  // h_done % ring
    int v_slot = 0;  // (ys - y0) % ring
    StageBatch<C, P> batch;

    // Warm-up: the ring rows the first output step needs (u < 2r + 16).
    while (h_done < 2 * r + kStep) {
        const int yb = y0 - r + h_done;
        stage_issue<C, P>(a, batch, yb, xb, nq);
        stage_complete<C, P>(a, batch, stage, yb, xb, nq);
        __syncthreads();
        if constexpr (P == 1)
            horizontal_pass<C, NJ, TP>(a, afr, stage, ring_lo, ring_hi, h_slot);
        else
            horizontal_pass16<C, NJ, TP>(a, afr, stage, ring_lo, ring_hi, h_slot);
        __syncthreads();
        h_done += kStep;
        h_slot += kStep;
        if (h_slot >= ring) h_slot -= ring;
    }

    // Steady state, two barriers per 16 output rows. Phase 1: the next
    // group's loads are issued, the vertical MMAs of this step run, then the
    // group is staged. Phase 2: its horizontal MMAs fill the ring (rows this
    // step no longer needs are overwritten) while this step's rows are stored.
    for (int ys = y0; ys < y1; ys += kStep) {
        const bool next = ys + kStep < y1;  // a next step exists and needs one more group
        const int yb = y0 - r + h_done;
        if (next) stage_issue<C, P>(a, batch, yb, xb, nq);
        if constexpr (P == 1)
            vertical_pass<C, NJ, TP>(a, afr, ring_lo, ring_hi, out, v_slot);
        else
            vertical_pass16<C, NJ, TP>(a, afr, ring_lo, ring_hi, out, v_slot);
        if (next) stage_complete<C, P>(a, batch, stage, yb, xb, nq);
        __syncthreads();
        if (next) {
            if constexpr (P == 1)
                horizontal_pass<C, NJ, TP>(a, afr, stage, ring_lo, ring_hi, h_slot);
            else
                horizontal_pass16<C, NJ, TP>(a, afr, stage, ring_lo, ring_hi, h_slot);
        }
        if constexpr (P == 1)
            store_rows<C>(a, out, x0, ys, y1);
        else
            store_rows16<C>(a, out, x0, ys, y1);
        __syncthreads();
        if (next) {
            h_done += kStep;
            h_slot += kStep;
            if (h_slot >= ring) h_slot -= ring;
        }
        v_slot += kStep;
        if (v_slot >= ring) v_slot -= ring;
    }
}

}  // namespace imgpar::cuda::filter_detail::ring
