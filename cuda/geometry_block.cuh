// Thread-level building blocks of the geometry kernels (cuda/geometry.cu):
// 16 bytes of a 16-byte aligned row loaded from any byte offset, a short
// window likewise, and 16 bytes of a row whose pixels are reversed.
#pragma once

#include <cstdint>


namespace imgpar::cuda::geo {

// Word i + q of w, for a run-time q in 0..3: a select over constant indices,
// so w stays in registers.
template <int N>
__device__ __forceinline__ std::uint32_t word_at(const std::uint32_t (&w)[N], int i, int q) {
    return q == 0 ? w[i] : q == 1 ? w[i + 1] : q == 2 ? w[i + 2] : w[i + 3];
}

// The 16 bytes at byte `offset` of `row` (16-byte aligned), whatever the
// offset's alignment, into w[0..4): one aligned 16-byte load through the
// read-only path (two when the offset is not a multiple of 16), then funnel
// shifts. Every vector read holds at least one of the bytes asked for, so it
// lies within the row's pitch (the caller guarantees the bytes lie in the row).
__device__ __forceinline__ void load16_shifted(const std::uint8_t* row, std::size_t offset, std::uint32_t (&out)[4]) {
    const uint4* base = reinterpret_cast<const uint4*>(row + (offset & ~static_cast<std::size_t>(15)));
    const int s = static_cast<int>(offset & 15);
    const uint4 v0 = __ldg(base);
    if (s == 0) {
        out[0] = v0.x;
        out[1] = v0.y;
        out[2] = v0.z;
        out[3] = v0.w;
        return;
    }
    const uint4 v1 = __ldg(base + 1);
    const std::uint32_t w[8] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
    const int q = s >> 2, r = (s & 3) * 8;
#pragma unroll
    for (int i = 0; i < 4; ++i) out[i] = __funnelshift_r(word_at(w, i, q), word_at(w, i + 1, q), r);
}

// The `len` (1..24) bytes at byte `offset` of `row` (16-byte aligned) into
// the first bytes of w[0..6), reading only the aligned vectors that hold
// some of them (so none beyond the row's pitch).
__device__ __forceinline__ void load_window(const std::uint8_t* row, std::size_t offset, int len, std::uint32_t (&out)[6]) {
    const uint4* base = reinterpret_cast<const uint4*>(row + (offset & ~static_cast<std::size_t>(15)));
    const int s = static_cast<int>(offset & 15);
    std::uint32_t w[12];
#pragma unroll
    for (int v = 0; v < 3; ++v) {
        uint4 x = make_uint4(0, 0, 0, 0);
        if (16 * v < s + len) x = __ldg(base + v);
        w[4 * v] = x.x;
        w[4 * v + 1] = x.y;
        w[4 * v + 2] = x.z;
        w[4 * v + 3] = x.w;
    }
    const int q = s >> 2, r = (s & 3) * 8;
#pragma unroll
    for (int i = 0; i < 6; ++i) out[i] = __funnelshift_r(word_at(w, i, q), word_at(w, i + 1, q), r);
}

// The `len` bytes at byte `offset` of `row` (16-byte aligned) into the first
// bytes of out[0..kWords) (len <= 4 kWords <= 32), reading only the aligned
// vectors that hold some of them: load_window for wider windows (rotation's
// taps of 16-bit pixels, up to 32 bytes).
template <int kWords>
__device__ __forceinline__ void load_window_words(const std::uint8_t* row, std::size_t offset, int len,
                                                  std::uint32_t (&out)[kWords]) {
    constexpr int kVectors = (4 * kWords + 15) / 16 + 1;  // the offset's phase may add one
    const uint4* base = reinterpret_cast<const uint4*>(row + (offset & ~static_cast<std::size_t>(15)));
    const int s = static_cast<int>(offset & 15);
    std::uint32_t w[4 * kVectors];
#pragma unroll
    for (int v = 0; v < kVectors; ++v) {
        uint4 x = make_uint4(0, 0, 0, 0);
        if (16 * v < s + len) x = __ldg(base + v);
        w[4 * v] = x.x;
        w[4 * v + 1] = x.y;
        w[4 * v + 2] = x.z;
        w[4 * v + 3] = x.w;
    }
    const int q = s >> 2, r = (s & 3) * 8;
#pragma unroll
    for (int i = 0; i < kWords; ++i) out[i] = __funnelshift_r(word_at(w, i, q), word_at(w, i + 1, q), r);
}

// Byte t of little-endian words w.
template <int N>
__device__ __forceinline__ std::uint32_t byte_of(const std::uint32_t (&w)[N], int t) {
    return (w[t >> 2] >> (8 * (t & 3))) & 0xffu;
}

// Pixels a 16-byte chunk of a row of C-byte pixels touches at most (its
// first byte anywhere in a pixel): 16 for gray, 8 for gray+alpha, 6 for RGB,
// 4 for RGBA; 16-bit samples: 4 for RGB (6-byte pixels; fewer where the
// chunk starts on a pixel), 2 for RGBA (8 bytes).
template <int C>
constexpr int span_pixels() {
    return C == 3 ? 6 : C == 6 ? 4 : 16 / C;
}

// 16 output bytes of a row whose C-byte pixels are reversed (C = channels x
// sample bytes: 1, 2, 3, 4, 6 or 8). The chunk starts at
// byte ph (< C) of output pixel P0 and touches output pixels P0 .. P0 + Q - 1
// (Q = span_pixels), which are source pixels W - 1 - P0 down to W - P0 - Q;
// `window` holds the source bytes from pixel W - P0 - Q on. Reversing the
// window's Q pixels is a fixed byte permutation (g below); the chunk is that
// shifted by ph bytes (a funnel shift: ph is 0 but for RGB), so every thread
// of a warp runs the same instructions whatever its chunk's phase.
template <int C>
__device__ __forceinline__ void reverse16(const std::uint32_t (&window)[6], int ph, std::uint32_t (&out)[4]) {
    constexpr int Q = span_pixels<C>();
    std::uint32_t g[6];
#pragma unroll
    for (int k = 0; k < 6; ++k) {
        std::uint32_t word = 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            const int u = 4 * k + b;  // byte u of the reversed span: pixel u / C of it, channel u % C
            if (u < Q * C) word |= byte_of(window, (Q - 1 - u / C) * C + u % C) << (8 * b);
        }
        g[k] = word;
    }
    if constexpr (C == 3) {
#pragma unroll
        for (int i = 0; i < 4; ++i) out[i] = __funnelshift_r(g[i], g[i + 1], 8 * ph);
    } else if constexpr (C == 6) {
        // ph is 0, 2 or 4: a whole word and a half-word shift, by selects.
        const bool word = ph >= 4;
        const int r = 8 * (ph & 3);
#pragma unroll
        for (int i = 0; i < 4; ++i) out[i] = __funnelshift_r(word ? g[i + 1] : g[i], word ? g[i + 2] : g[i + 1], r);
    } else {
#pragma unroll
        for (int i = 0; i < 4; ++i) out[i] = g[i];
    }
}

}  // namespace imgpar::cuda::geo
