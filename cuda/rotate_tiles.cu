// GPU rotation by any angle of 8-bit images over output tiles. Each block
// takes a tile of the output and first loads the part of the input its taps
// read into shared memory: the box around the tile's footprint (a rotated
// rectangle, about twice the tile's pixels), the background where the box
// leaves the image. Then every pixel of the tile runs rotate_combine on taps
// read from shared memory. The bytes are the CPU's: a tap outside the image
// reads the background there, as rotate_taps_checked does, and a pixel whose
// taps all lie outside gets rotate_background's value from the same sums
// (every tap the background, weights summing to 256 a side).
//
// The box's form follows the pixel's size. Gray and gray+alpha keep the
// image's own bytes (rows copied in 16-byte chunks by cp.async), 64x64 tiles:
// a tap is one 8- or 16-bit read, and the box a quarter of a word box. RGB and
// RGBA take one 32-bit word a pixel (RGB padded), 64x32 tiles: a tap is one
// word read where RGB's bytes would be three. bench/TUNING.md has both
// measured on each layout.
//
// Why tiles: the per-pixel kernel (cuda/rotate.cu) reads each tap row from
// global memory, and a warp's 32 pixels along an output row touch about
// 32 |sin| + 1 input rows, a cache line or two each, for every load it makes
// (16-17 lines at 30 degrees). Here the input comes in as whole rows of the
// box, and the scattered reads go to shared memory.
#include <algorithm>
#include <climits>
#include <cstdlib>

#include "cuda/check.hpp"
#include "cuda/filter_mma.cuh"
#include "cuda/histogram_launch.hpp"
#include "cuda/rotate_tiles.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

// The box as the image's bytes (1-2 channels) or a word a pixel (3-4).
template <int C>
constexpr bool kBoxBytes = C <= 2;

constexpr int kTileW = 64;
template <int C>
constexpr int kTileH = kBoxBytes<C> ? 64 : 32;
constexpr int kLanes = 32, kWarps = 8;  // 256 threads: a warp across 32 pixels of a row
constexpr int kColumnsPerThread = kTileW / kLanes;  // 2: pixels lx and lx + 32

struct TileRotateArgs {
    RotateMap m;
    const std::uint8_t* src = nullptr;
    std::size_t src_pitch = 0;
    std::uint8_t* dst = nullptr;
    std::size_t dst_pitch = 0;
    int tiles_x = 0;
    int cap_h = 0;             // the most box rows shared memory holds
    int cap_w = 0;             // word box: the widest box it holds (pixels)
    int box_len = 0;           // byte box: the longest box row it holds (bytes, a multiple of 16, <= 512)
    int box_pitch = 0;         // between the box's rows: words (word box: a multiple of 4, not of 8) or bytes
    bool src_words = false;    // the input's rows 4-byte aligned: word loads (word box)
    bool src_vec = false;      // the input's rows 16-byte aligned: cp.async (byte box)
    bool dst_words = false;    // the output's rows 4-byte aligned: a 4-channel pixel as one store
};

// Bytes 0..C-1 of a pixel word are its channels.
template <int C>
__device__ __forceinline__ std::uint32_t fill_word(const RotateMap& m) {
    std::uint32_t w = 0;
#pragma unroll
    for (int c = 0; c < C; ++c) w |= static_cast<std::uint32_t>(m.fill[c]) << (8 * c);
    return w;
}

// Four pixels of C bytes from the C words that hold them (little-endian).
template <int C>
__device__ __forceinline__ void unpack4(const std::uint32_t (&v)[C], std::uint32_t (&px)[4]) {
    if constexpr (C == 3) {
        px[0] = v[0] & 0xffffffu;
        px[1] = __byte_perm(v[0], v[1], 0x0543) & 0xffffffu;  // byte 3 of v0, bytes 0-1 of v1
        px[2] = __byte_perm(v[1], v[2], 0x0432) & 0xffffffu;  // bytes 2-3 of v1, byte 0 of v2
        px[3] = v[2] >> 8;
    } else {
#pragma unroll
        for (int k = 0; k < 4; ++k) px[k] = v[k];
    }
}

// Word box: [bx0, bx0 + bw) x [by0, by0 + bh) of the input, four pixels a
// thread and step (bx0 is a multiple of 4, so in an aligned image the four
// pixels' C words are aligned too), 16-byte shared stores.
template <int C>
__device__ __forceinline__ void load_word_box(const TileRotateArgs& a, int bx0, int by0, int bw, int bh,
                                              std::uint32_t* box) {
    const RotateMap& m = a.m;
    const int groups = (bw + 3) / 4;
    const std::uint32_t fill = fill_word<C>(m);
    const int flat = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    for (int g = flat; g < groups * bh; g += kLanes * kWarps) {
        const int r = g / groups, q = g - r * groups;
        const int y = by0 + r, x = bx0 + 4 * q;
        const bool row_in = y >= 0 && y < m.src_h;
        std::uint32_t px[4];
        const std::uint8_t* row = a.src + static_cast<std::size_t>(row_in ? y : 0) * a.src_pitch;
        if (row_in && x >= 0 && x + 4 <= m.src_w && a.src_words) {
            const std::uint32_t* p = reinterpret_cast<const std::uint32_t*>(row + static_cast<std::size_t>(x) * C);
            std::uint32_t v[C];
#pragma unroll
            for (int c = 0; c < C; ++c) v[c] = __ldg(p + c);
            unpack4<C>(v, px);
        } else {
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const int xk = x + k;
                std::uint32_t w = fill;
                if (row_in && xk >= 0 && xk < m.src_w) {
                    w = 0;
#pragma unroll
                    for (int c = 0; c < C; ++c)
                        w |= static_cast<std::uint32_t>(__ldg(row + static_cast<std::size_t>(xk) * C + c)) << (8 * c);
                }
                px[k] = w;
            }
        }
        *reinterpret_cast<uint4*>(box + r * a.box_pitch + 4 * q) = make_uint4(px[0], px[1], px[2], px[3]);
    }
}

// Byte box: the 16 bytes of input row y from image byte b0 of the row on,
// where some lie outside the image (the background's channels there) or the
// rows are not 16-byte aligned: byte by byte.
template <int C>
__device__ __forceinline__ void edge_chunk(const TileRotateArgs& a, int y, int b0, std::uint8_t* d) {
    const RotateMap& m = a.m;
    const bool row_in = y >= 0 && y < m.src_h;
    const int row_len = m.src_w * C;
    const std::uint8_t* row = a.src + static_cast<std::size_t>(row_in ? y : 0) * a.src_pitch;
    const std::uint32_t fill = fill_word<C>(m);
    std::uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
    for (int b = 0; b < 16; ++b) {
        const int at = b0 + b;  // b0 is a multiple of 16, so at's channel is b % C (C = 1 or 2)
        const std::uint32_t v = row_in && at >= 0 && at < row_len ? __ldg(row + at) : (fill >> (8 * (b % C))) & 0xffu;
        w[b >> 2] |= v << (8 * (b & 3));
    }
    *reinterpret_cast<uint4*>(d) = make_uint4(w[0], w[1], w[2], w[3]);
}

// Byte box: rows by0 .. by0 + bh - 1 of the input, image bytes s0 .. s0 +
// len - 1 of each (s0 and len multiples of 16, len <= 512), row r at box +
// r * box_pitch: lane k copies the row's 16-byte chunk k, warp w rows w, w +
// 8, ... Chunks inside an aligned image go by cp.async (no registers, no
// waiting until the barrier); the rest byte by byte.
template <int C>
__device__ __forceinline__ void load_byte_box(const TileRotateArgs& a, int s0, int len, int by0, int bh, std::uint8_t* box) {
    const RotateMap& m = a.m;
    const int k = static_cast<int>(threadIdx.x);
    if (16 * k < len) {
        const int b0 = s0 + 16 * k;
        const bool col_in = a.src_vec && b0 >= 0 && b0 + 16 <= m.src_w * C;
        for (int r = static_cast<int>(threadIdx.y); r < bh; r += kWarps) {
            const int y = by0 + r;
            std::uint8_t* d = box + r * a.box_pitch + 16 * k;
            if (col_in && y >= 0 && y < m.src_h)
                filter_detail::cp_async<16>(d, a.src + static_cast<std::size_t>(y) * a.src_pitch + b0);
            else
                edge_chunk<C>(a, y, b0, d);
        }
    }
    filter_detail::cp_async_commit();
    filter_detail::cp_async_wait<0>();
}

template <int C>
__device__ __forceinline__ void store_pixel(const TileRotateArgs& a, int ox, int oy, const std::uint8_t (&px)[C]) {
    std::uint8_t* d = a.dst + static_cast<std::size_t>(oy) * a.dst_pitch + static_cast<std::size_t>(ox) * C;
    if constexpr (C == 4) {
        if (a.dst_words) {
            *reinterpret_cast<std::uint32_t*>(d) = static_cast<std::uint32_t>(px[0]) | (static_cast<std::uint32_t>(px[1]) << 8) |
                                                   (static_cast<std::uint32_t>(px[2]) << 16) |
                                                   (static_cast<std::uint32_t>(px[3]) << 24);
            return;
        }
    }
#pragma unroll
    for (int c = 0; c < C; ++c) d[c] = px[c];
}

// Block b: output tile (b % tiles_x, b / tiles_x). Thread (lx, ly) of the
// 32 x 8 block: pixels lx and lx + 32 of tile rows ly, ly + 8, ..., its
// positions stepped from the tile's first pixel (rotate_numerators is
// affine), the rounding's half step carried in them (rotate_split_biased).
template <int C, int kTaps>
__global__ void __launch_bounds__(kLanes * kWarps) rotate_tile_kernel(TileRotateArgs a) {
    constexpr int kRowsPerThread = kTileH<C> / kWarps;
    extern __shared__ uint4 box_storage[];
    const RotateMap& m = a.m;
    constexpr int first = kTaps == 4 ? 1 : 0;  // taps from ix - first
    const int tx = static_cast<int>(blockIdx.x % static_cast<unsigned>(a.tiles_x));
    const int ty = static_cast<int>(blockIdx.x / static_cast<unsigned>(a.tiles_x));
    const int ox0 = tx * kTileW, oy0 = ty * kTileH<C>;
    const int ox1 = min(ox0 + kTileW, m.dst_w) - 1, oy1 = min(oy0 + kTileH<C>, m.dst_h) - 1;

    // The box every tap of the tile lies in. The numerators are affine in
    // (ox, oy) and the rounding is monotone, so the extreme integer parts
    // are the corners'; those of the whole tile (past the output's edge for
    // the last tiles, a box a little larger than needed).
    long long X00, Y00;
    rotate_numerators(m, ox0, oy0, X00, Y00);
    X00 += kRotateHalfStep;
    Y00 += kRotateHalfStep;
    const long long cx = 2 * m.cos_q, sx = 2 * m.sin_q;  // the numerators' steps: (cx, -sx) along a row, (sx, cx) down
    const long long wx = cx * (kTileW - 1), wy = -sx * (kTileW - 1);
    const long long hx = sx * (kTileH<C> - 1), hy = cx * (kTileH<C> - 1);
    int ix_lo = INT_MAX, ix_hi = INT_MIN, iy_lo = INT_MAX, iy_hi = INT_MIN;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        int ix, fx, iy, fy;
        rotate_split_biased(X00 + ((k & 1) ? wx : 0) + ((k & 2) ? hx : 0), ix, fx);
        rotate_split_biased(Y00 + ((k & 1) ? wy : 0) + ((k & 2) ? hy : 0), iy, fy);
        ix_lo = min(ix_lo, ix);
        ix_hi = max(ix_hi, ix);
        iy_lo = min(iy_lo, iy);
        iy_hi = max(iy_hi, iy);
    }
    const int bx1 = ix_hi - first + kTaps - 1;
    const int by0 = iy_lo - first, by1 = iy_hi - first + kTaps - 1;
    const int bh = by1 - by0 + 1;
    // Word box: the left edge down to a multiple of 4 pixels; byte box: the
    // row's bytes out to 16-byte boundaries (two's complement: also left of
    // the image).
    const int bx0 = kBoxBytes<C> ? ix_lo - first : (ix_lo - first) & ~3;
    const int s0 = (bx0 * C) & ~15;
    const int len = (((bx1 + 1) * C - s0) + 15) & ~15;
    const bool outside = bx1 < 0 || bx0 >= m.src_w || by1 < 0 || by0 >= m.src_h;
    // A box past the planned size (the host's bound has a margin, so this
    // is a guard, not a path that runs) reads its taps checked from the input.
    const bool fits = kBoxBytes<C> ? len <= a.box_len : bx1 - bx0 + 1 <= a.cap_w;
    const bool boxed = !outside && fits && bh <= a.cap_h;
    if (boxed) {
        if constexpr (kBoxBytes<C>)
            load_byte_box<C>(a, s0, len, by0, bh, reinterpret_cast<std::uint8_t*>(box_storage));
        else
            load_word_box<C>(a, bx0, by0, bx1 - bx0 + 1, bh, reinterpret_cast<std::uint32_t*>(box_storage));
        __syncthreads();
    }

    const int lx = threadIdx.x, ly = threadIdx.y;
    const long long step_x = cx * kLanes, step_y = -sx * kLanes;  // +32 columns
    const long long row_x = sx * kWarps, row_y = cx * kWarps;     // +8 rows
    long long X0 = X00 + cx * lx + sx * ly, Y0 = Y00 - sx * lx + cx * ly;
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int oy = oy0 + ly + r * kWarps;
        long long X = X0, Y = Y0;
#pragma unroll
        for (int k = 0; k < kColumnsPerThread; ++k) {
            const int ox = ox0 + lx + k * kLanes;
            if (ox <= ox1 && oy <= oy1) {
                std::uint8_t px[C];
                if (outside) {
#pragma unroll
                    for (int c = 0; c < C; ++c) px[c] = m.outside[c];
                } else {
                    int ix, fx, iy, fy;
                    rotate_split_biased(X, ix, fx);
                    rotate_split_biased(Y, iy, fy);
                    if (boxed) {
                        if constexpr (kBoxBytes<C>) {
                            // A pixel is one aligned 8- or 16-bit read (s0 and the pitch are multiples of 16).
                            const std::uint8_t* t = reinterpret_cast<const std::uint8_t*>(box_storage) +
                                                    (iy - first - by0) * a.box_pitch + (ix - first) * C - s0;
                            const auto fetch = [&](int j, int i, int (&v)[C]) {
                                const std::uint8_t* p = t + j * a.box_pitch + i * C;
                                if constexpr (C == 1) {
                                    v[0] = *p;
                                } else {
                                    const std::uint32_t w = *reinterpret_cast<const std::uint16_t*>(p);
                                    v[0] = static_cast<int>(w & 0xffu);
                                    v[1] = static_cast<int>(w >> 8);
                                }
                            };
                            rotate_combine<C, kTaps>(fx, fy, fetch, px);
                        } else {
                            const std::uint32_t* t = reinterpret_cast<const std::uint32_t*>(box_storage) +
                                                     (iy - first - by0) * a.box_pitch + (ix - first - bx0);
                            const auto fetch = [&](int j, int i, int (&v)[C]) {
                                const std::uint32_t w = t[j * a.box_pitch + i];
#pragma unroll
                                for (int c = 0; c < C; ++c) v[c] = static_cast<int>((w >> (8 * c)) & 0xffu);
                            };
                            rotate_combine<C, kTaps>(fx, fy, fetch, px);
                        }
                    } else {
                        rotate_taps_checked<C, kTaps>(m, a.src, a.src_pitch, ix, fx, iy, fy, px);
                    }
                }
                store_pixel<C>(a, ox, oy, px);
            }
            X += step_x;
            Y += step_y;
        }
        X0 += row_x;
        Y0 += row_y;
    }
}

// The box's largest extent along one axis, in pixels: the first taps' integer
// parts over a tile differ by at most floor(span) + 1, where span (pixels) is
// what the numerator moves over the tile's (w - 1, h - 1) steps; kTaps - 1
// more for the taps, and 1 of margin.
int box_extent(long long a_q, long long b_q, int taps, int tile_h) {
    const double span = (static_cast<double>(kTileW - 1) * static_cast<double>(std::llabs(a_q)) +
                         static_cast<double>(tile_h - 1) * static_cast<double>(std::llabs(b_q))) /
                        4294967296.0;
    return static_cast<int>(span) + 1 + taps + 1;
}

template <int C, int kTaps>
void launch(TileRotateArgs a, const ConstDeviceViewU8& src, cudaStream_t stream) {
    const RotateMap& m = a.m;
    a.tiles_x = (m.dst_w + kTileW - 1) / kTileW;
    const unsigned long long tiles = static_cast<unsigned long long>(a.tiles_x) *
                                     static_cast<unsigned long long>((m.dst_h + kTileH<C> - 1) / kTileH<C>);
    if (tiles > static_cast<unsigned long long>(INT_MAX))
        throw usage_error("rotate", "the output has too many pixels for the GPU's tiles");
    // x over the tile: cos along its width, sin along its height; y the other way.
    const int cap_w = box_extent(m.cos_q, m.sin_q, m.taps, kTileH<C>);
    a.cap_h = box_extent(m.sin_q, m.cos_q, m.taps, kTileH<C>);
    std::size_t smem = 0;
    if constexpr (kBoxBytes<C>) {
        // A row's first byte rounds down to 16 (up to 15 more), its end up to 16.
        a.box_len = (cap_w * C + 15 + 15) / 16 * 16;
        if (a.box_len > 16 * kLanes)
            throw usage_error("rotate", "internal: the tiles' input box is wider than a warp's copies");
        a.box_pitch = a.box_len % 32 == 0 ? a.box_len + 16 : a.box_len;  // rows 4 banks apart mod 8: gathers spread
        a.src_vec = hist::vector_ok(src.data, src.pitch);
        smem = static_cast<std::size_t>(a.box_pitch) * static_cast<std::size_t>(a.cap_h);
    } else {
        a.cap_w = cap_w + 3;  // the left edge rounded down to a multiple of 4
        a.box_pitch = (a.cap_w + 3) / 4 * 4;
        if (a.box_pitch % 8 == 0) a.box_pitch += 4;  // rows 4 banks apart mod 8: the scattered reads spread
        a.src_words = (reinterpret_cast<std::uintptr_t>(src.data) % 4 == 0) && src.pitch % 4 == 0;
        smem = static_cast<std::size_t>(a.box_pitch) * static_cast<std::size_t>(a.cap_h) * 4;
    }
    if (smem > 48 * 1024) throw usage_error("rotate", "internal: the tiles' input box needs more than 48 KiB of shared memory");
    rotate_tile_kernel<C, kTaps><<<static_cast<unsigned>(tiles), dim3(kLanes, kWarps), smem, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("rotate_tile_kernel");
}

}  // namespace

void rotate_tiles(const RotateMap& m, const ConstDeviceViewU8& src, const DeviceViewU8& dst, cudaStream_t stream) {
    TileRotateArgs a;
    a.m = m;
    a.src = src.data;
    a.src_pitch = src.pitch;
    a.dst = dst.data;
    a.dst_pitch = dst.pitch;
    a.dst_words = (reinterpret_cast<std::uintptr_t>(dst.data) % 4 == 0) && dst.pitch % 4 == 0;
    with_rotate_layout(src.channels, m.taps, [&](auto c, auto t) { launch<c, t>(a, src, stream); });
}

const char* rotate_tiles_description() {
    return "rotate_tile_kernel (64x64 output tiles of gray, 64x32 of colour, the input box they read in shared memory, "
           "fixed-point ";
}

}  // namespace imgpar::cuda
