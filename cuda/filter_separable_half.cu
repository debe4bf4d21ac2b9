// Gaussian blur and unsharp mask on the FP16 tensor cores, with both passes
// chained in registers.
//
// Each 1-D pass is a product with a banded (Toeplitz) matrix of the taps, done
// with mma.m16n8k16 (f16 x f16 -> f32). The contract (src/ops/filter.hpp)
// makes that exact: samples, taps (at most 2048 here) and the intermediate H
// (3 fractional bits, 0..2040) are exact f16 integers, and every partial sum is
// an integer below 2^23, exact in f32.
//
// A warp owns 16 output columns of one channel plane and walks down a segment
// of rows in steps of 16. With r <= 16M, 2M + 1 blocks of 16 inputs cover the
// window of 16 outputs, and block p of the Toeplitz matrix is
//   T_p[i][k] = tap(16p + k - 16M - i + r)      (0 outside 0..2r).
// Per step:
//   - horizontal: D_h[16 columns x 8 rows] += T_p * B_p for the 2M + 1 column
//     blocks p, for the 16 new rows (two 8-row tiles); B_p comes from the
//     staged plane with one ldmatrix.x4 per block.
//   - A lane of D_h holds columns g and g+8 of rows 2t and 2t+1: exactly the
//     lane layout of the B operand of an MMA whose K runs over rows. So, once
//     rounded to H, the values stay in registers, in a window of the last
//     2M + 1 row blocks.
//   - vertical: D_v[16 rows x 8 columns] += T_p * H_p over the window gives 16
//     output rows; T_p is the same set of registers as in the horizontal pass
//     (same taps, same geometry).
// H never leaves the registers, and each step costs 4(2M + 1) MMAs per warp
// for 256 outputs.
//
// Input rows are fetched with cp.async into a ring of raw slots, several
// steps ahead. Each thread converts exactly the items it fetched (so waiting
// on its own cp.async groups is enough) into f16 planes: channels split,
// colour premultiplied, and each byte v turned into the f16 value 1024 + v by
// one byte permute. The offset adds exactly 1024 * 4096 = 2^22 to every
// horizontal sum (the taps under each output sum to 4096), which the
// accumulator's initial value -2^22 cancels.
//
// Output rows pass through an interleaved tile in shared memory, so the
// epilogue (unsharp, unpremultiply) works on whole pixels and the stores are
// coalesced 16-byte vectors.

#include <cuda_fp16.h>

#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/device_context.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_mma.cuh"
#include "src/error.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

// Launch policy (reasoning; imgpar_bench --only gaussian measures the result):
//  - strips of 128 px for gray, 64 for 2 and 3 channels, 32 for 4: one warp
//    per 16 columns of a plane, so 8 warps per block (12 for RGB) and a
//    staged halo of 32M columns around the strip;
//  - 4 raw slots: three steps of loads in flight per block while it computes;
//  - row segments: the grid is the strips times S segments of equal length
//    (to one block), S = waves * resident blocks / strips rounded down, so
//    the last wave is full. Short segments cost 2M warm-up blocks each, but
//    long ones run slower: blocks that start together walk down the same
//    rows in step (neighbours share halo columns in L2, DRAM pages stay
//    open), and they drift apart the longer they run. Measured on an H100
//    (8K RGB / gray; bench/RESULTS.md has the sweep): 1 wave was 1.7x slower
//    than 4-8 at sigma 1, and so was one wave sharing the (strip, row block)
//    units evenly in strip-major order, although it kept every SM busy to
//    the end. 8 waves are best for M = 1 (0.19 / 0.18 ms at sigma 1), 4 above
//    (sigma 20: 0.54 / 0.44 ms, 0.56 / 0.43 at 8).
//  - resident blocks per SM, which caps the registers: RGB (384 threads) 3
//    for M = 1, else 2; the other layouts (256 threads) 4 for M <= 2, 3 for
//    M = 3, 2 for M = 4, whose H window and Toeplitz fragments alone take 63
//    registers. ptxas picks about these counts unasked, but spills more
//    without the bound (RGB M = 4: 136 bytes instead of 64). With both
//    changes, sigma 20 on 8K RGB went from 0.62 to 0.54 ms.
struct HalfMmaPolicy {
    static constexpr int kRawSlots = 4;
    static constexpr int kMaxM = 4;  // radius up to 64
    static constexpr int waves(int m) { return m == 1 ? 8 : 4; }
    static constexpr int min_blocks(int threads, int m) {
        if (threads > 256) return m == 1 ? 3 : 2;
        return m <= 2 ? 4 : (m == 3 ? 3 : 2);
    }
};

constexpr int kRawSlots = HalfMmaPolicy::kRawSlots;
constexpr int kMaxM = HalfMmaPolicy::kMaxM;
constexpr int kMaxHalfTaps = 32 * kMaxM + 1;
constexpr int kMaxHalfTap = 2048;  // larger integers are not all exact in f16

constexpr int strip_px(int channels) { return channels == 1 ? 128 : (channels == 4 ? 32 : 64); }

// Bytes per output tile row: = 32 (mod 128), so the byte stores of one
// vertical MMA (8 rows) land 8 banks apart.
constexpr int out_row_bytes(int bytes) {
    int b = (bytes + 15) / 16 * 16;
    while (b % 128 != 32) b += 16;
    return b;
}

template <int C, int M>
struct HalfGeometry {
    static constexpr int W = strip_px(C);                // output columns per block
    static constexpr int NB = 2 * M + 1;                 // 16-wide blocks per window
    static constexpr int SW = W + 32 * M;                // staged columns
    static constexpr int SWS = SW + 8;                   // f16 per staged row: rows an odd number of 16 B apart
    static constexpr int GROUPS = W / 16;                // warps per plane
    static constexpr int THREADS = 32 * C * GROUPS;
    static constexpr int ITEMS_PER_ROW = SW / 8;         // staging item: 8 pixels of one row
    static constexpr int ITEMS = 16 * ITEMS_PER_ROW;
    static constexpr int ITEMS_PER_THREAD = (ITEMS + THREADS - 1) / THREADS;
    static constexpr int RAW_ROW = SW * C;               // bytes
    static constexpr int RAW_SLOT = 16 * RAW_ROW;
    static constexpr int PLANE = 16 * SWS;               // f16 per staged plane
    static constexpr int STAGE_BYTES = C * PLANE * 2;
    static constexpr int OUT_ROW = out_row_bytes(W * C);
    static constexpr int CHUNKS_PER_ROW = W * C / 16;
    static constexpr int OFF_STAGE = kRawSlots * RAW_SLOT;
    static constexpr int OFF_OUT = OFF_STAGE + 2 * STAGE_BYTES;
    static constexpr int SMEM = OFF_OUT + 2 * 16 * OUT_ROW;
    static_assert((2 * SWS / 16) % 2 == 1, "staged rows must be an odd number of 16-byte units apart (ldmatrix banks)");
    static_assert(RAW_SLOT % 16 == 0 && STAGE_BYTES % 16 == 0, "shared regions stay 16-byte aligned");
};

struct HalfArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int border_value;  // V of a constant border, as a raw sample
    SepMode mode;
    UnsharpArg unsharp;
    int radius;      // r after trimming zero taps, <= 16M
    int row_blocks;  // ceil(height / 16)
    std::int16_t taps[kMaxHalfTaps];
};

// --- Toeplitz fragments and roundings ---------------------------------------

__device__ __forceinline__ std::uint32_t half2_bits(float lo, float hi) {
    const __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const std::uint32_t*>(&h);
}

// The f16 pair (tap(i), tap(i + 1)), with tap(k) = 0 outside 0..2r.
__device__ __forceinline__ std::uint32_t tap_pair(const HalfArgs& a, int i) {
    const int n = 2 * a.radius;
    const float lo = (i >= 0 && i <= n) ? static_cast<float>(a.taps[i]) : 0.0f;
    const float hi = (i + 1 >= 0 && i + 1 <= n) ? static_cast<float>(a.taps[i + 1]) : 0.0f;
    return half2_bits(lo, hi);
}

// gaussian_h_round on two exact integer sums, packed as f16: floor(s/512 + 0.5)
// (s < 2^20, so s/512 + 0.5 is exact in f32 and the result exact in f16).
__device__ __forceinline__ std::uint32_t h_round_pair(float s0, float s1) {
    return half2_bits(floorf(fmaf(s0, 1.0f / 512.0f, 0.5f)), floorf(fmaf(s1, 1.0f / 512.0f, 0.5f)));
}

// gaussian_v_round: floor(s/32768 + 0.5) for an exact integer s < 2^23.
__device__ __forceinline__ int v_round(float s) { return __float2int_rd(fmaf(s, 1.0f / 32768.0f, 0.5f)); }

// --- input: raw rows (cp.async) -> f16 planes --------------------------------

// Raw samples of 8 pixels at columns x.. of image row yy (-1: outside, a
// constant border) with the border rule per pixel: the image edges, and
// sources not aligned for cp.async. All loads are issued before the first
// store, so the thread waits for one memory latency, not 8C. Inlined: a call
// inside the divergent staging branch made the compiler mis-handle the
// reconvergence of some variants before the .aligned MMA instructions.
template <int C>
__device__ __forceinline__ void fetch_raw_item(const HalfArgs& a, std::uint8_t* d, int x, int yy) {
    std::uint32_t v[2 * C] = {};
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        const int xx = border_index(x + k, a.src.width, a.border.mode);
        const bool inside = yy >= 0 && xx >= 0;
        const std::uint8_t* p = row_ptr(a.src, inside ? yy : 0) + static_cast<std::size_t>(inside ? xx : 0) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const std::uint32_t b = inside ? __ldg(p + c) : static_cast<std::uint32_t>(a.border_value);
            v[(k * C + c) >> 2] |= b << (8 * ((k * C + c) & 3));
        }
    }
    // d is 8-byte aligned (items are 8C bytes, slots 16-byte aligned).
#pragma unroll
    for (int i = 0; i < C; ++i) *reinterpret_cast<uint2*>(d + 8 * i) = make_uint2(v[2 * i], v[2 * i + 1]);
}

// Starts the copies of this thread's items of one 16-row input block (image
// rows yb.., columns xs.., border rule applied) into a raw slot.
template <int C, int M>
__device__ __forceinline__ void issue_rows(const HalfArgs& a, std::uint8_t* slot, int yb, int xs) {
    using G = HalfGeometry<C, M>;
    constexpr int kPiece = (C == 2 || C == 4) ? 16 : 8;  // item = 8C bytes, aligned to this
#pragma unroll
    for (int i = 0; i < G::ITEMS_PER_THREAD; ++i) {
        const int it = static_cast<int>(threadIdx.x) + i * G::THREADS;
        if (G::ITEMS % G::THREADS != 0 && it >= G::ITEMS) break;
        const int row = it / G::ITEMS_PER_ROW;
        const int q = it - row * G::ITEMS_PER_ROW;
        const int x = xs + 8 * q;
        std::uint8_t* d = slot + row * G::RAW_ROW + q * 8 * C;
        const int yy = border_index(yb + row, a.src.height, a.border.mode);
        bool fast = yy >= 0 && x >= 0 && x + 8 <= a.src.width;
        const std::uint8_t* s = nullptr;
        if (fast) {
            s = row_ptr(a.src, yy) + static_cast<std::size_t>(x) * C;
            fast = reinterpret_cast<std::uintptr_t>(s) % kPiece == 0;
        }
        if (fast) {
#pragma unroll
            for (int k = 0; k < 8 * C / kPiece; ++k) cp_async<kPiece>(d + k * kPiece, s + k * kPiece);
        } else {
            fetch_raw_item<C>(a, d, x, yy);
        }
    }
}

// Converts this thread's items of a raw slot into the f16 planes of a stage
// buffer (premultiplied colour, offset by 1024).
template <int C, int M>
__device__ __forceinline__ void convert_rows(const std::uint8_t* slot, std::uint8_t* stage) {
    using G = HalfGeometry<C, M>;
#pragma unroll
    for (int i = 0; i < G::ITEMS_PER_THREAD; ++i) {
        const int it = static_cast<int>(threadIdx.x) + i * G::THREADS;
        if (G::ITEMS % G::THREADS != 0 && it >= G::ITEMS) break;
        const int row = it / G::ITEMS_PER_ROW;
        const int q = it - row * G::ITEMS_PER_ROW;
        const std::uint8_t* s = slot + row * G::RAW_ROW + q * 8 * C;
        std::uint32_t u0[C], u1[C];  // pixels 0..3 and 4..7
        if constexpr (C == 1 || C == 3) {
            std::uint32_t u[2 * C];
#pragma unroll
            for (int k = 0; k < C; ++k) {
                const uint2 v = *reinterpret_cast<const uint2*>(s + 8 * k);
                u[2 * k] = v.x;
                u[2 * k + 1] = v.y;
            }
#pragma unroll
            for (int k = 0; k < C; ++k) {
                u0[k] = u[k];
                u1[k] = u[C + k];
            }
        } else {
            std::uint32_t u[2 * C];
#pragma unroll
            for (int k = 0; k < C / 2; ++k) {
                const uint4 v = *reinterpret_cast<const uint4*>(s + 16 * k);
                u[4 * k] = v.x;
                u[4 * k + 1] = v.y;
                u[4 * k + 2] = v.z;
                u[4 * k + 3] = v.w;
            }
#pragma unroll
            for (int k = 0; k < C; ++k) {
                u0[k] = u[k];
                u1[k] = u[C + k];
            }
        }
        std::uint32_t w0[4], w1[4];
        deinterleave<C>(u0, w0);
        deinterleave<C>(u1, w1);
        if constexpr (C == 2) {
            w0[0] = premultiply_word(w0[0], w0[1]);
            w1[0] = premultiply_word(w1[0], w1[1]);
        }
        if constexpr (C == 4) {
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                w0[c] = premultiply_word(w0[c], w0[3]);
                w1[c] = premultiply_word(w1[c], w1[3]);
            }
        }
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const uint4 h = make_uint4(offset_half2_lo(w0[c]), offset_half2_hi(w0[c]), offset_half2_lo(w1[c]),
                                       offset_half2_hi(w1[c]));
            *reinterpret_cast<uint4*>(stage + 2 * (c * G::PLANE + row * G::SWS + 8 * q)) = h;
        }
    }
}

// --- output: tile -> image rows, with the epilogue ---------------------------

template <int C, int M>
__device__ __forceinline__ void store_rows(const HalfArgs& a, const std::uint8_t* tile, int x0, int y) {
    using G = HalfGeometry<C, M>;
    const int rows = min(16, a.src.height - y);
    const int valid = min(G::W, a.src.width - x0) * C;  // bytes of the row inside the image
    for (int it = threadIdx.x; it < 16 * G::CHUNKS_PER_ROW; it += G::THREADS) {
        const int k = it / G::CHUNKS_PER_ROW;
        const int off = (it - k * G::CHUNKS_PER_ROW) * 16;
        if (k >= rows || off >= valid) continue;
        const int n = min(16, valid - off);
        const uint4 b = *reinterpret_cast<const uint4*>(tile + k * G::OUT_ROW + off);
        std::uint32_t w[4] = {b.x, b.y, b.z, b.w};
        if (a.mode != SepMode::Blur) {
            std::uint32_t sw[4] = {0u, 0u, 0u, 0u};
            if (a.mode != SepMode::BlurAlpha) {  // the unsharp modes read the source
                const std::uint8_t* sp = row_ptr(a.src, y + k) + static_cast<std::size_t>(x0) * C + off;
                if (n == 16 && reinterpret_cast<std::uintptr_t>(sp) % 16 == 0) {
                    const uint4 v = __ldg(reinterpret_cast<const uint4*>(sp));
                    sw[0] = v.x;
                    sw[1] = v.y;
                    sw[2] = v.z;
                    sw[3] = v.w;
                } else {
                    // Unrolled, so sw stays in registers (a runtime index would put it in local memory).
for (int e = 0; e < n; ++e) sw[e >> 2] |= static_cast<std::uint32_t>(__ldg(sp + e)) << (8 * (e & 3));
                }
            }
#pragma unroll
            for (int q = 0; q < 4; ++q) w[q] = separable_output_word(a.mode, a.unsharp, C, w[q], sw[q]);
        }
        std::uint8_t* dp = row_ptr(a.dst, y + k) + static_cast<std::size_t>(x0) * C + off;
        if (n == 16 && reinterpret_cast<std::uintptr_t>(dp) % 16 == 0) {
            *reinterpret_cast<uint4*>(dp) = make_uint4(w[0], w[1], w[2], w[3]);
        } else {
for (int e = 0; e < n; ++e) dp[e] = static_cast<std::uint8_t>(w[e >> 2] >> (8 * (e & 3)));
        }
    }
}

// --- the kernel ---------------------------------------------------------------

template <int C, int M>
__global__ void __launch_bounds__(HalfGeometry<C, M>::THREADS, HalfMmaPolicy::min_blocks(HalfGeometry<C, M>::THREADS, M))
separable_half_kernel(const __grid_constant__ HalfArgs a) {
    using G = HalfGeometry<C, M>;
    constexpr int NB = G::NB;
    extern __shared__ __align__(16) std::uint8_t smem[];
    std::uint8_t* const raw = smem;
    std::uint8_t* const stage = smem + G::OFF_STAGE;
    std::uint8_t* const tiles = smem + G::OFF_OUT;

    const int x0 = blockIdx.x * G::W;
    // Row segment blockIdx.y of gridDim.y equal ones (their lengths differ by at most one block).
    const int ob0 = static_cast<int>(static_cast<long long>(blockIdx.y) * a.row_blocks / gridDim.y);
    const int ob1 = static_cast<int>(static_cast<long long>(blockIdx.y + 1) * a.row_blocks / gridDim.y);
    const int nsteps = ob1 - ob0 + 2 * M;
    const int xs = x0 - 16 * M;     // image column of staged column 0
    const int yb0 = 16 * (ob0 - M);  // image row of input block 0

    // Prologue: blocks 0..R-1 in flight, block 0 staged, block R issued.
#pragma unroll
    for (int b = 0; b < kRawSlots; ++b) {
        if (b < nsteps) issue_rows<C, M>(a, raw + b * G::RAW_SLOT, yb0 + 16 * b, xs);
        cp_async_commit();
    }
    cp_async_wait<kRawSlots - 1>();
    convert_rows<C, M>(raw, stage);
    if (kRawSlots < nsteps) issue_rows<C, M>(a, raw, yb0 + 16 * kRawSlots, xs);
    cp_async_commit();

    const int warp = static_cast<int>(threadIdx.x) >> 5;
    const int lane = static_cast<int>(threadIdx.x) & 31;
    const int plane = warp / G::GROUPS;
    const int group = warp - plane * G::GROUPS;
    const int g = lane >> 2;
    const int t = lane & 3;

    // Toeplitz fragments T_p (see the top comment); T[i][k] depends on k - i
    // only, so a3 = a0.
    std::uint32_t tp[NB][4];
#pragma unroll
    for (int p = 0; p < NB; ++p) {
        const int idx = 16 * p + 2 * t - 16 * M - g + a.radius;
        tp[p][0] = tap_pair(a, idx);
        tp[p][1] = tap_pair(a, idx - 8);
        tp[p][2] = tap_pair(a, idx + 8);
        tp[p][3] = tp[p][0];
    }
    // ldmatrix row address of this lane in a stage buffer: matrix q = lane / 8
    // is (rows 8(q/2).., columns 8(q%2)..) of the warp's first input block.
    const int lq = lane >> 3;
    const int lm_off = 2 * (plane * G::PLANE + (8 * (lq >> 1) + (lane & 7)) * G::SWS + 16 * group + 8 * (lq & 1));
    // Output tile position of this lane's D_v element (row g, column 2t) of column tile 0.
    const int tile_off = g * G::OUT_ROW + (16 * group + 2 * t) * C + plane;

    std::uint32_t win[NB][4];  // H of the last NB row blocks, as vertical B fragments [tile][b0, b1]
#pragma unroll
    for (int p = 0; p < NB; ++p) win[p][0] = win[p][1] = win[p][2] = win[p][3] = 0u;
    __syncthreads();

    for (int s = 0; s < nsteps; ++s) {
        // ldmatrix and mma are .aligned: the whole warp must execute them
        // together. Lanes that took the border path while staging can leave
        // the warp diverged even past __syncthreads(), so reconverge first.
        __syncwarp();
        // Horizontal: two 8-row tiles of the staged block.
        const std::uint8_t* sb = stage + (s & 1) * G::STAGE_BYTES + lm_off;
        float h0[4] = {-4194304.0f, -4194304.0f, -4194304.0f, -4194304.0f};  // -2^22 cancels the +1024 offset
        float h1[4] = {-4194304.0f, -4194304.0f, -4194304.0f, -4194304.0f};
#pragma unroll
        for (int p = 0; p < NB; ++p) {
            std::uint32_t b[4];
            ldmatrix_x4(b, sb + 32 * p);
            mma_f16_m16n8k16(h0, tp[p], b[0], b[1]);
            mma_f16_m16n8k16(h1, tp[p], b[2], b[3]);
        }
#pragma unroll
        for (int p = 0; p + 1 < NB; ++p) {
#pragma unroll
            for (int e = 0; e < 4; ++e) win[p][e] = win[p + 1][e];
        }
        win[NB - 1][0] = h_round_pair(h0[0], h0[1]);  // columns 0..7: rows 2t, 2t+1
        win[NB - 1][1] = h_round_pair(h1[0], h1[1]);  //               rows 8+2t, 9+2t
        win[NB - 1][2] = h_round_pair(h0[2], h0[3]);  // columns 8..15
        win[NB - 1][3] = h_round_pair(h1[2], h1[3]);

        // Vertical: 16 output rows once the window is full.
        std::uint8_t* tile = tiles + (s & 1) * 16 * G::OUT_ROW;
        if (s >= 2 * M) {
#pragma unroll
            for (int ct = 0; ct < 2; ++ct) {
                float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
                for (int p = 0; p < NB; ++p) mma_f16_m16n8k16(v, tp[p], win[p][2 * ct], win[p][2 * ct + 1]);
                std::uint8_t* o = tile + tile_off + 8 * ct * C;
                const int v0 = v_round(v[0]), v1 = v_round(v[1]), v2 = v_round(v[2]), v3 = v_round(v[3]);
                if constexpr (C == 1) {
                    store_u16_shared(o, static_cast<std::uint32_t>(v0 | (v1 << 8)));
                    store_u16_shared(o + 8 * G::OUT_ROW, static_cast<std::uint32_t>(v2 | (v3 << 8)));
                } else {
                    o[0] = static_cast<std::uint8_t>(v0);
                    o[C] = static_cast<std::uint8_t>(v1);
                    o[8 * G::OUT_ROW] = static_cast<std::uint8_t>(v2);
                    o[8 * G::OUT_ROW + C] = static_cast<std::uint8_t>(v3);
                }
            }
        }

        // Next block: wait for this thread's copies, stage them, refill the slot.
        if (s + 1 < nsteps) {
            cp_async_wait<kRawSlots - 1>();
            std::uint8_t* slot = raw + ((s + 1) % kRawSlots) * G::RAW_SLOT;
            convert_rows<C, M>(slot, stage + ((s + 1) & 1) * G::STAGE_BYTES);
            if (s + 1 + kRawSlots < nsteps) issue_rows<C, M>(a, slot, yb0 + 16 * (s + 1 + kRawSlots), xs);
            cp_async_commit();
        }
        __syncthreads();
        if (s >= 2 * M) store_rows<C, M>(a, tile, x0, 16 * (ob0 + s - 2 * M));
    }
}

// --- host side -----------------------------------------------------------------

using HalfKernel = void (*)(HalfArgs);

struct HalfVariant {
    HalfKernel fn = nullptr;
    int threads = 0;
    int smem = 0;
    int strip = 0;
};

template <int C, int M>
HalfVariant variant_of() {
    using G = HalfGeometry<C, M>;
    return {&separable_half_kernel<C, M>, G::THREADS, G::SMEM, G::W};
}

template <int C>
HalfVariant variant_for(int m) {
    switch (m) {
        case 1: return variant_of<C, 1>();
        case 2: return variant_of<C, 2>();
        case 3: return variant_of<C, 3>();
        case 4: return variant_of<C, 4>();
        default: return {};
    }
}

HalfVariant pick_variant(int channels, int m) {
    switch (channels) {
        case 1: return variant_for<1>(m);
        case 2: return variant_for<2>(m);
        case 3: return variant_for<3>(m);
        case 4: return variant_for<4>(m);
        default: return {};
    }
}
static_assert(kMaxM == 4, "variant_for instantiates M = 1..4");

// The variant a plan needs, or none (fn == nullptr).
HalfVariant variant_for_plan(const TrimmedTaps& tt, int channels, const DeviceLimits& dev) {
    if (dev.compute_major < 8 || tt.radius < 1 || tt.radius > 16 * kMaxM || tt.max_tap > kMaxHalfTap) return {};
    const HalfVariant v = pick_variant(channels, ceil_div(tt.radius, 16));
    if (v.fn == nullptr || v.smem > dev.max_smem_optin) return {};
    return v;
}

}  // namespace

bool half_mma_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    return variant_for_plan(trim_taps(plan), channels, dev).fn != nullptr;
}

void launch_separable_half(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    const DeviceImageRef& src = call.src;
    const TrimmedTaps tt = trim_taps(plan);
    const HalfVariant v = variant_for_plan(tt, src.channels, dev);
    if (v.fn == nullptr) throw device_error("gaussian filter", "the FP16 tensor-core kernel does not support this plan");

    HalfArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan, src.channels);
    a.border_value = plan.border.value;
    a.mode = separable_mode(plan, src.channels);
    a.unsharp = {plan.amount_q8, plan.threshold_level};
    a.radius = tt.radius;
    for (int k = 0; k <= 2 * tt.radius; ++k) a.taps[k] = static_cast<std::int16_t>(tt.taps[static_cast<std::size_t>(k)]);
    a.row_blocks = ceil_div(src.height, 16);

    allow_dynamic_smem(reinterpret_cast<const void*>(v.fn), static_cast<std::size_t>(v.smem));
    const int resident = std::max(
        dev.sm_count, co_resident_blocks(reinterpret_cast<const void*>(v.fn), v.threads, static_cast<std::size_t>(v.smem)));
    const int strips = ceil_div(src.width, v.strip);
    const int waves = HalfMmaPolicy::waves(ceil_div(tt.radius, 16));
    const int segs = std::max(1, std::min(a.row_blocks, waves * resident / strips));
    const dim3 grid(static_cast<unsigned>(strips), static_cast<unsigned>(segs));
    v.fn<<<grid, static_cast<unsigned>(v.threads), static_cast<std::size_t>(v.smem), call.stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("separable_half_kernel");
}

}  // namespace imgpar::cuda::filter_detail
