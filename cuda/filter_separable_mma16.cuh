// The 16-bit steps of the tensor-core ring (cuda/filter_separable_mma.cuh):
// the 16-bit Gaussian and unsharp of src/ops/filter.hpp (16-bit taps summing
// to 2^16, H = gaussian_round16 of the row sums, the output the same of the
// column sums of H) as exact u8 MMAs.
//
// A 16-bit sample is two byte planes (low, high) and so is a 16-bit tap
// (TP = 2), so a pass is four byte products a chunk: lo = tl.vl,
// mid = tl.vh + th.vl, top = th.vh, each an exact s32 sum, and the pass's
// sum is lo + 2^8 mid + 2^16 top, taken in uint32: the exact sum is at most
// 65535 x 2^16 < 2^32, so the modular total is the sum itself. H (16 bits)
// goes into the ring as its two byte planes, as the 8-bit kernel's 11-bit H
// does, so the vertical pass is the 8-bit one with the 16-bit rounding.
//
// Staging (the shared code of cuda/filter_separable_mma.cuh with P = 2): a
// work item is 4 pixels of one staged row, read as the aligned words covering
// its 8C bytes and split into 2C plane words (channel c: low bytes in plane
// 2c, high bytes in plane 2c + 1).
#pragma once

#include "cuda/filter_separable_mma.cuh"
#include "src/ops/filter_u16_math.hpp"

namespace imgpar::cuda::filter_detail::ring {

// The plane words of 4 pixels' samples s[k][c] (16 bits each).
template <int C>
__device__ __forceinline__ void split_planes16(const unsigned (&s)[4][C], std::uint32_t (&w)[2 * C]) {
#pragma unroll
    for (int c = 0; c < C; ++c) {
        w[2 * c] = pack4(s[0][c] & 0xFF, s[1][c] & 0xFF, s[2][c] & 0xFF, s[3][c] & 0xFF);
        w[2 * c + 1] = pack4(s[0][c] >> 8, s[1][c] >> 8, s[2][c] >> 8, s[3][c] >> 8);
    }
}

// Pixels x..x+3 of image row y, pixel by pixel with the border rule (the
// image edges and sources not word-aligned). Cold path: not inlined.
template <int C>
__device__ __noinline__ void stage_item16_edge(const SepMmaArgs& a, int x, int y, std::uint32_t (&w)[2 * C]) {
    unsigned s[4][C];
    const int yy = border_index(y, a.src.height, a.border.mode);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int xx = border_index(x + k, a.src.width, a.border.mode);
        const std::uint16_t* p = reinterpret_cast<const std::uint16_t*>(row_ptr(a.src, yy < 0 ? 0 : yy)) +
                                 static_cast<std::size_t>(xx < 0 ? 0 : xx) * C;
#pragma unroll
        for (int c = 0; c < C; ++c)
            s[k][c] = (yy < 0 || xx < 0) ? static_cast<unsigned>(a.border.constant[c]) : __ldg(p + c);
    }
    split_planes16<C>(s, w);
}

// The plane words of one item from its loaded words (P = 2 of the staging in
// cuda/filter_separable_mma.cuh), or at the image edges pixel by pixel.
template <int C>
__device__ __forceinline__ void item_planes16(const SepMmaArgs& a, int x, int y, bool fast,
                                              const std::uint32_t (&raw)[2 * C + 1], std::uint32_t (&w)[2 * C]) {
    if (!fast) {
        stage_item16_edge<C>(a, x, y, w);
        return;
    }
    const unsigned sh = static_cast<unsigned>((2 * x * C) & 3) * 8u;  // 0 or 16
    std::uint32_t u[2 * C];
#pragma unroll
    for (int k = 0; k < 2 * C; ++k) u[k] = __funnelshift_r(raw[k], raw[k + 1], sh);
    unsigned s[4][C];
#pragma unroll
    for (int k = 0; k < 4; ++k)
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const int i = k * C + c;
            s[k][c] = (u[i >> 1] >> ((i & 1) * 16)) & 0xFFFFu;
        }
    split_planes16<C>(s, w);
}

// The four byte products of one chunk, added into lo / mid / top.
template <int TP>
__device__ __forceinline__ void mma_planes16(int (&lo)[4], int (&mid)[4], int (&top)[4], const std::uint32_t (&a0)[4],
                                             const std::uint32_t (&a1)[4], std::uint32_t bl0, std::uint32_t bl1,
                                             std::uint32_t bh0, std::uint32_t bh1) {
    mma_u8_m16n8k32(lo, a0, bl0, bl1);
    mma_u8_m16n8k32(mid, a0, bh0, bh1);
    if constexpr (TP == 2) {
        mma_u8_m16n8k32(mid, a1, bl0, bl1);
        mma_u8_m16n8k32(top, a1, bh0, bh1);
    }
}

__device__ __forceinline__ std::uint32_t sum_planes16(int lo, int mid, int top) {
    return static_cast<std::uint32_t>(lo) + (static_cast<std::uint32_t>(mid) << 8) + (static_cast<std::uint32_t>(top) << 16);
}

// Horizontal pass of the staged group into ring rows h_slot..h_slot+15.
// Warp task = (channel, 16 output columns, 8 rows).
template <int C, int NJ, int TP>
__device__ __forceinline__ void horizontal_pass16(const SepMmaArgs& a, const Frags<NJ, TP>& afr,
                                                  const std::uint8_t* stage, std::uint8_t* ring_lo,
                                                  std::uint8_t* ring_hi, int h_slot) {
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int swp = a.strip_px;
    const int cs = a.ring_stride;
    const int mg_shift = a.strip_shift - 4;
    const int tasks = (C * 2) << mg_shift;
    const std::size_t plane = static_cast<std::size_t>(kStep) * a.stage_stride;
    for (int task = threadIdx.x >> 5; task < tasks; task += kWarps) {
        const int h = task & 1;
        const int mg = (task >> 1) & ((1 << mg_shift) - 1);
        const int c = task >> (1 + mg_shift);
        const int m0 = mg * 16;
        const std::uint8_t* bl = stage + 2 * c * plane + (8 * h + g) * a.stage_stride + m0 + 4 * t;
        const std::uint8_t* bh = bl + plane;
        int lo[4] = {0, 0, 0, 0}, mid[4] = {0, 0, 0, 0}, top[4] = {0, 0, 0, 0};
#pragma unroll
        for (int j = 0; j < NJ; ++j)
            mma_planes16<TP>(lo, mid, top, afr[0][j], afr[TP - 1][j], load_u32_shared(bl + 32 * j),
                             load_u32_shared(bl + 32 * j + 16), load_u32_shared(bh + 32 * j),
                             load_u32_shared(bh + 32 * j + 16));
        std::uint32_t hv[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) hv[e] = gaussian_round16(sum_planes16(lo[e], mid[e], top[e]));
        const int slot = h_slot + 8 * h + 2 * t;
        const int col = c * swp + m0 + g;
        std::uint8_t* pl = ring_lo + col * cs + slot;
        std::uint8_t* ph = ring_hi + col * cs + slot;
        store_u16_shared(pl, (hv[0] & 0xFFu) | ((hv[1] & 0xFFu) << 8));
        store_u16_shared(pl + 8 * cs, (hv[2] & 0xFFu) | ((hv[3] & 0xFFu) << 8));
        store_u16_shared(ph, (hv[0] >> 8) | ((hv[1] >> 8) << 8));
        store_u16_shared(ph + 8 * cs, (hv[2] >> 8) | ((hv[3] >> 8) << 8));
    }
}

// Vertical pass: 16 output rows whose first ring row is v_slot, into the
// interleaved 16-bit output tile. Warp task = 8 columns of one channel.
template <int C, int NJ, int TP>
__device__ __forceinline__ void vertical_pass16(const SepMmaArgs& a, const Frags<NJ, TP>& afr,
                                                const std::uint8_t* ring_lo, const std::uint8_t* ring_hi,
                                                std::uint8_t* out, int v_slot) {
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
        int lo[4] = {0, 0, 0, 0}, mid[4] = {0, 0, 0, 0}, top[4] = {0, 0, 0, 0};
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
            int s0 = v_slot + 32 * j + 4 * t;
            if (s0 >= ring) s0 -= ring;
            int s1 = v_slot + 32 * j + 16 + 4 * t;
            if (s1 >= ring) s1 -= ring;
            mma_planes16<TP>(lo, mid, top, afr[0][j], afr[TP - 1][j], load_u32_shared(cl + s0),
                             load_u32_shared(cl + s1), load_u32_shared(ch + s0), load_u32_shared(ch + s1));
        }
        std::uint32_t v[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) v[e] = gaussian_round16(sum_planes16(lo[e], mid[e], top[e]));
        // d0/d1: output row g, columns n0+2t and n0+2t+1; d2/d3: row g+8.
        const int c = n0 >> a.strip_shift;
        const int o = (n0 & (swp - 1)) + 2 * t;
        std::uint16_t* r0 = reinterpret_cast<std::uint16_t*>(out + g * os) + o * C + c;
        std::uint16_t* r8 = reinterpret_cast<std::uint16_t*>(out + (g + 8) * os) + o * C + c;
        r0[0] = static_cast<std::uint16_t>(v[0]);
        r0[C] = static_cast<std::uint16_t>(v[1]);
        r8[0] = static_cast<std::uint16_t>(v[2]);
        r8[C] = static_cast<std::uint16_t>(v[3]);
    }
}

// The unsharp rule on the 8 samples of a 16-byte chunk.
__device__ __forceinline__ std::uint32_t unsharp_pair16(const UnsharpArg& u, std::uint32_t blur, std::uint32_t src) {
    const int lo = unsharp_output16(static_cast<int>(src & 0xFFFFu), static_cast<int>(blur & 0xFFFFu), u.amount_q8,
                                    u.threshold_level);
    const int hi = unsharp_output16(static_cast<int>(src >> 16), static_cast<int>(blur >> 16), u.amount_q8,
                                    u.threshold_level);
    return static_cast<std::uint32_t>(lo) | (static_cast<std::uint32_t>(hi) << 16);
}

// Epilogue and stores of output rows ys..ys+15 (those inside the segment) and
// of the strip's columns inside the image. Not inlined: called once a step.
template <int C>
__device__ __noinline__ void store_rows16(const SepMmaArgs& a, const std::uint8_t* out, int x0, int ys, int y1) {
    const int valid = min(a.strip_px, a.src.width - x0) * C * 2;  // bytes
    const int nch = (valid + 15) >> 4;
    const int k = threadIdx.x / kRowThreads;
    if (ys + k >= y1) return;
    const int y = ys + k;
    for (int ch = static_cast<int>(threadIdx.x) % kRowThreads; ch < nch; ch += kRowThreads) {
        const int off = ch * 16;
        const std::uint8_t* ob = out + k * a.out_stride + off;
        std::uint8_t* dp = row_ptr(a.dst, y) + static_cast<std::size_t>(x0) * C * 2 + off;
        const std::uint8_t* sp = row_ptr(a.src, y) + static_cast<std::size_t>(x0) * C * 2 + off;
        if (off + 16 <= valid && a.dst_vec16) {
            uint4 bv = *reinterpret_cast<const uint4*>(ob);
            if (a.mode != SepMode::Blur) {
                uint4 sv;
                if (a.src_vec16) {
                    sv = __ldg(reinterpret_cast<const uint4*>(sp));
                } else {
                    const std::uint16_t* s16 = reinterpret_cast<const std::uint16_t*>(sp);
                    std::uint32_t s4[4];
#pragma unroll
                    for (int w = 0; w < 4; ++w)
                        s4[w] = static_cast<std::uint32_t>(__ldg(s16 + 2 * w)) |
                                (static_cast<std::uint32_t>(__ldg(s16 + 2 * w + 1)) << 16);
                    sv = make_uint4(s4[0], s4[1], s4[2], s4[3]);
                }
                bv.x = unsharp_pair16(a.unsharp, bv.x, sv.x);
                bv.y = unsharp_pair16(a.unsharp, bv.y, sv.y);
                bv.z = unsharp_pair16(a.unsharp, bv.z, sv.z);
                bv.w = unsharp_pair16(a.unsharp, bv.w, sv.w);
            }
            *reinterpret_cast<uint4*>(dp) = bv;
        } else {
            const int n = min(16, valid - off) / 2;  // samples
            const std::uint16_t* o16 = reinterpret_cast<const std::uint16_t*>(ob);
            const std::uint16_t* s16 = reinterpret_cast<const std::uint16_t*>(sp);
            std::uint16_t* d16 = reinterpret_cast<std::uint16_t*>(dp);
            for (int e = 0; e < n; ++e) {
                int v = o16[e];
                if (a.mode != SepMode::Blur) v = unsharp_output16(__ldg(s16 + e), v, a.unsharp.amount_q8, a.unsharp.threshold_level);
                d16[e] = static_cast<std::uint16_t>(v);
            }
        }
    }
}

}  // namespace imgpar::cuda::filter_detail::ring

