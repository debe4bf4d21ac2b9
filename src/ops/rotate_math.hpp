// The per-pixel arithmetic of rotation by any angle, one definition shared
// by the CPU reference (src/ops/rotate.cpp) and the CUDA kernel
// (cuda/rotate.cu): integers only, so both give the same bytes. The contract
// it implements is src/ops/rotate.hpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "src/hd.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar {

// One rotation of one input shape, in integers (made by rotate_map).
struct RotateMap {
    long long cos_q = 0, sin_q = 0;  // llround(cos theta 2^32), llround(sin theta 2^32)
    int src_w = 0, src_h = 0;
    int dst_w = 0, dst_h = 0;
    int taps = 2;                    // 2: bilinear, 4: bicubic (Catmull-Rom)
    std::uint8_t fill[4] = {0, 0, 0, 0};  // the background pixel
    // What an output pixel whose taps all lie outside the input becomes
    // (rotate_background): about half of a rotated image's pixels.
    std::uint8_t outside[4] = {0, 0, 0, 0};
    // The same two pixels of a 16-bit image (the fill: each 8-bit value v
    // as v * 257).
    std::uint16_t fill16[4] = {0, 0, 0, 0};
    std::uint16_t outside16[4] = {0, 0, 0, 0};
};

// Sample c of the map's background pixel and outside pixel for samples of
// type T (c a compile-time index after unrolling, so the map stays in
// registers on the GPU).
template <typename T>
IMGPAR_HD int rotate_fill(const RotateMap& m, int c) {
    if constexpr (sizeof(T) == 2)
        return m.fill16[c];
    else
        return m.fill[c];
}
template <typename T>
IMGPAR_HD T rotate_outside(const RotateMap& m, int c) {
    if constexpr (sizeof(T) == 2)
        return m.outside16[c];
    else
        return m.outside[c];
}

// Row y of an image of T samples, `pitch` bytes between rows.
template <typename T>
IMGPAR_HD const T* rotate_row(const T* src, std::size_t pitch, int y) {
    return reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(src) + static_cast<std::size_t>(y) * pitch);
}

// 2^33 times where output pixel (ox, oy) reads (see src/ops/rotate.hpp):
// affine in (ox, oy), so a kernel may step X by 2 cos_q and Y by -2 sin_q
// from one pixel to the next along a row and get the same integers.
IMGPAR_HD void rotate_numerators(const RotateMap& m, int ox, int oy, long long& X, long long& Y) {
    const long long dx2 = 2LL * ox + 1 - m.dst_w;
    const long long dy2 = 2LL * oy + 1 - m.dst_h;
    X = m.cos_q * dx2 + m.sin_q * dy2 + (static_cast<long long>(m.src_w - 1) << 32);
    Y = -m.sin_q * dx2 + m.cos_q * dy2 + (static_cast<long long>(m.src_h - 1) << 32);
}

// The rounding's half step (1/512 pixel, in numerator units), added before
// the shifts below.
constexpr long long kRotateHalfStep = 1LL << 24;

// A numerator plus kRotateHalfStep as an integer part i and a fraction f in
// 1/256 (arithmetic shifts: floor). A kernel stepping numerators may carry
// the half step in them from the start.
IMGPAR_HD void rotate_split_biased(long long biased, int& i, int& f) {
    i = static_cast<int>(biased >> 33);
    f = static_cast<int>((biased >> 25) & 255);
}

// A numerator as an integer part i and a fraction f in 1/256, rounded to
// the nearest 1/256 (ties up): monotone in the numerator.
IMGPAR_HD void rotate_split(long long numerator, int& i, int& f) { rotate_split_biased(numerator + kRotateHalfStep, i, f); }

// Where output pixel (ox, oy) reads: integer parts (ix, iy) and fractions
// (fx, fy) in 1/256.
IMGPAR_HD void rotate_position(const RotateMap& m, int ox, int oy, int& ix, int& fx, int& iy, int& fy) {
    long long X, Y;
    rotate_numerators(m, ox, oy, X, Y);
    rotate_split(X, ix, fx);
    rotate_split(Y, iy, fy);
}

// n / 131072 rounded to nearest, ties away from zero.
IMGPAR_HD int catmull_rom_round(int n) { return n >= 0 ? (n + 65536) / 131072 : -((-n + 65536) / 131072); }

// The weights of `taps` taps at fraction f (0..255) in 1/256, summing to 256.
// Catmull-Rom at t = f / 256, times 2 * 256^3 so every term is an integer:
//   w0 = -t^3 + 2t^2 - t,  w1 = 3t^3 - 5t^2 + 2,  w2 = -3t^3 + 4t^2 + t,  w3 = t^3 - t^2  (all / 2)
IMGPAR_HD void interpolation_weights(int taps, int f, int w[4]) {
    if (taps == 2) {
        w[0] = 256 - f;
        w[1] = f;
        w[2] = w[3] = 0;
        return;
    }
    const int n = 256;
    const int f2 = f * f, f3 = f2 * f;
    w[0] = catmull_rom_round(-f3 + 2 * f2 * n - f * n * n);
    w[1] = catmull_rom_round(3 * f3 - 5 * f2 * n + 2 * n * n * n);
    w[2] = catmull_rom_round(-3 * f3 + 4 * f2 * n + f * n * n);
    w[3] = catmull_rom_round(f3 - f2 * n);
    const int rest = 256 - (w[0] + w[1] + w[2] + w[3]);
    if (f < 128)
        w[1] += rest;
    else
        w[2] += rest;
}

// One output pixel of a C-channel image from its taps' fractions (fx, fy):
// fetch(j, i, v) puts the channels of tap i of tap row j (the pixel at
// (ix - first + i, iy - first + j), first = 1 for bicubic, else 0) into
// v[0..C), the background where that lies outside the input. Integer sums
// only, so the order in which taps are fetched does not matter; every caller
// (the CPU's checked fetch, the GPU's wide loads inside the image) gets the
// same bytes.
//
// T is the sample type: u8 as above, or u16 (16 BITS in src/ops/rotate.hpp),
// whose sums take 64 bits (Sum below) and whose results clamp to 65535; for
// u8 the integers are the 32-bit ones they always were.
template <int C, int kTaps, typename T, typename Fetch>
IMGPAR_HD void rotate_combine(int fx, int fy, const Fetch& fetch, T* out) {
    constexpr bool kWide = sizeof(T) == 2;
    constexpr int kMax = kWide ? 65535 : 255;
    using Sum = std::conditional_t<kWide, long long, int>;
    int wx[4], wy[4];
    interpolation_weights(kTaps, fx, wx);
    interpolation_weights(kTaps, fy, wy);
    constexpr bool kAlpha = C == 2 || C == 4;
    constexpr int kColours = kAlpha ? C - 1 : C;
    Sum sum[C];                 // without alpha: the channels
    long long psum[kColours];   // with alpha: the premultiplied colours
    Sum asum = 0;
    IMGPAR_UNROLL
    for (int c = 0; c < C; ++c) sum[c] = 0;
    IMGPAR_UNROLL
    for (int c = 0; c < kColours; ++c) psum[c] = 0;
    IMGPAR_UNROLL
    for (int j = 0; j < kTaps; ++j) {
        Sum hsum[C];                // one row's horizontal sums
        Sum hpsum[kColours];
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) hsum[c] = 0;
        IMGPAR_UNROLL
        for (int c = 0; c < kColours; ++c) hpsum[c] = 0;
        IMGPAR_UNROLL
        for (int i = 0; i < kTaps; ++i) {
            int v[C];
            fetch(j, i, v);
            if constexpr (kAlpha) {
                const int a = v[C - 1];
                IMGPAR_UNROLL
                for (int c = 0; c < kColours; ++c) hpsum[c] += wx[i] * (static_cast<Sum>(v[c]) * a);
                hsum[C - 1] += wx[i] * a;
            } else {
                IMGPAR_UNROLL
                for (int c = 0; c < C; ++c) hsum[c] += wx[i] * v[c];
            }
        }
        if constexpr (kAlpha) {
            IMGPAR_UNROLL
            for (int c = 0; c < kColours; ++c) psum[c] += static_cast<long long>(wy[j]) * hpsum[c];
            asum += wy[j] * hsum[C - 1];
        } else {
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) sum[c] += wy[j] * hsum[c];
        }
    }
    if constexpr (kAlpha) {
        const Sum ar = (asum + 32768) >> 16;
        const int a = ar < 0 ? 0 : ar > kMax ? kMax : static_cast<int>(ar);
        IMGPAR_UNROLL
        for (int c = 0; c < kColours; ++c) {
            long long v = 0;
            if (a > 0 && psum[c] > 0) {
                v = (2 * psum[c] + asum) / (2LL * asum);
                if (v > kMax) v = kMax;
            }
            out[c] = static_cast<T>(v);
        }
        out[C - 1] = static_cast<T>(a);
    } else {
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) {
            const Sum r = (sum[c] + 32768) >> 16;
            // Bilinear weights are never negative and sum to 2^16, so r lies
            // in [0, kMax] already (no clamp to run a pixel); Catmull-Rom's
            // negative lobes can pass either end.
            out[c] = static_cast<T>(kTaps == 2 ? r : r < 0 ? 0 : r > kMax ? kMax : r);
        }
    }
}

// The taps of the pixel at position (ix + fx / 256, iy + fy / 256) of a
// C-channel image (src: the input's first row, `pitch` bytes between rows),
// each checked: the background outside the input.
template <int C, int kTaps, typename T>
IMGPAR_HD void rotate_taps_checked(const RotateMap& m, const T* src, std::size_t pitch, int ix, int fx, int iy, int fy,
                                   T* out) {
    constexpr int first = kTaps == 4 ? 1 : 0;  // taps from ix - first
    // The tap's channels, the background outside the input. (Values, not a
    // pointer to m.fill: on the GPU that pointer would copy the kernel's
    // RotateMap argument to local memory for every thread.)
    const auto fetch = [&](int j, int i, int (&v)[C]) {
        const int y = iy - first + j, x = ix - first + i;
        const bool in = y >= 0 && y < m.src_h && x >= 0 && x < m.src_w;
        const T* p = in ? rotate_row(src, pitch, y) + static_cast<std::size_t>(x) * C : src;
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) v[c] = in ? p[c] : rotate_fill<T>(m, c);
    };
    rotate_combine<C, kTaps>(fx, fy, fetch, out);
}

// Output pixel (ox, oy) with every tap checked: the reference the other
// paths are tested against; kTaps is m.taps.
template <int C, int kTaps, typename T>
IMGPAR_HD void rotate_pixel(const RotateMap& m, const T* src, std::size_t pitch, int ox, int oy, T* out) {
    int ix, fx, iy, fy;
    rotate_position(m, ox, oy, ix, fx, iy, fy);
    rotate_taps_checked<C, kTaps>(m, src, pitch, ix, fx, iy, fy, out);
}

// The taps from (x0, y0), all inside the input, read byte by byte unchecked.
template <int C, int kTaps, typename T>
IMGPAR_HD void rotate_inside_bytes(const T* src, std::size_t pitch, int x0, int y0, int fx, int fy, T* out) {
    const T* p = rotate_row(src, pitch, y0) + static_cast<std::size_t>(x0) * C;
    const auto fetch = [&](int j, int i, int (&v)[C]) {
        const T* q = rotate_row(p, pitch, j) + static_cast<std::size_t>(i) * C;
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) v[c] = q[c];
    };
    rotate_combine<C, kTaps>(fx, fy, fetch, out);
}

// Where a pixel's taps lie, from the first tap's column and row (x0, y0):
// all outside the input (the pixel is m.outside), all inside (no checks
// needed), or some of each.
enum class TapsPlace { Outside, Inside, Edge };

template <int kTaps>
IMGPAR_HD TapsPlace taps_place(const RotateMap& m, int x0, int y0) {
    if (x0 + kTaps - 1 < 0 || x0 >= m.src_w || y0 + kTaps - 1 < 0 || y0 >= m.src_h) return TapsPlace::Outside;
    if (x0 >= 0 && x0 + kTaps <= m.src_w && y0 >= 0 && y0 + kTaps <= m.src_h) return TapsPlace::Inside;
    return TapsPlace::Edge;
}

// Output pixel (ox, oy) by where its taps lie: the map's outside pixel
// without reading, inside(x0, y0, fx, fy, out) where every tap lies inside
// (the first at (x0, y0)), the checked taps along the edges. The bytes are
// rotate_pixel's as long as `inside` computes rotate_combine over those taps
// (rotate_inside_bytes, or the GPU's wide loads).
template <int C, int kTaps, typename T, typename Inside>
IMGPAR_HD void rotate_pixel_placed(const RotateMap& m, const T* src, std::size_t pitch, int ox, int oy,
                                   const Inside& inside, T* out) {
    int ix, fx, iy, fy;
    rotate_position(m, ox, oy, ix, fx, iy, fy);
    const int x0 = ix - (kTaps == 4 ? 1 : 0), y0 = iy - (kTaps == 4 ? 1 : 0);
    switch (taps_place<kTaps>(m, x0, y0)) {
        case TapsPlace::Outside:
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) out[c] = rotate_outside<T>(m, c);
            break;
        case TapsPlace::Inside: inside(x0, y0, fx, fy, out); break;
        case TapsPlace::Edge: rotate_taps_checked<C, kTaps>(m, src, pitch, ix, fx, iy, fy, out); break;
    }
}

// What a pixel all of whose taps lie outside the input becomes: every tap is
// the background and the weights of each axis sum to 256, so the fractions do
// not matter (computed at 0, 0). The fill itself where its alpha is not 0.
template <int C, int kTaps, typename T>
IMGPAR_HD void rotate_background(const RotateMap& m, T* out) {
    const auto fetch = [&](int, int, int (&v)[C]) {
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) v[c] = rotate_fill<T>(m, c);
    };
    rotate_combine<C, kTaps>(0, 0, fetch, out);
}

}  // namespace imgpar
