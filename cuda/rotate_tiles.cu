// GPU rotation by any angle of 8-bit images over output tiles. Each block
// takes a 64x32 tile of the output and first loads the part of the input its
// taps read into shared memory: the box around the tile's footprint (a
// rotated rectangle, 2-2.4x the tile's pixels), one 32-bit word a pixel,
// row by row with word loads, the background where the box leaves the image.
// Then every pixel of the tile runs rotate_combine on taps read from shared
// memory. The bytes are the CPU's: a tap outside the image reads the
// background there, as rotate_taps_checked does, and a pixel whose taps all
// lie outside gets rotate_background's value from the same sums (every tap
// the background, weights summing to 256 a side).
//
// Why tiles: the per-pixel kernel (cuda/rotate.cu) reads each tap row from
// global memory, and a warp's 32 pixels along an output row touch about
// 32 |sin| + 1 input rows, a cache line or two each, for every load it makes
// (16-17 lines at 30 degrees). Here the input comes in as whole rows of the
// box, and the scattered reads go to shared memory, where 32 lanes read 32
// words in one or a few wavefronts.
#include <algorithm>
#include <climits>
#include <cstdlib>

#include "cuda/check.hpp"
#include "cuda/rotate_tiles.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kTileW = 64, kTileH = 32;
constexpr int kLanes = 32, kWarps = 8;  // 256 threads: a warp across 32 pixels of a row
constexpr int kColumnsPerThread = kTileW / kLanes;  // 2: pixels lx and lx + 32
constexpr int kRowsPerThread = kTileH / kWarps;     // 4: rows ly, ly + 8, ...

struct TileRotateArgs {
    RotateMap m;
    const std::uint8_t* src = nullptr;
    std::size_t src_pitch = 0;
    std::uint8_t* dst = nullptr;
    std::size_t dst_pitch = 0;
    int tiles_x = 0;
    int cap_w = 0, cap_h = 0;  // the largest box shared memory holds (pixels)
    int box_pitch = 0;         // words between the box's rows: a multiple of 4, not of 8
    bool src_words = false;    // the input's rows 4-byte aligned: word loads
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
    if constexpr (C == 1) {
#pragma unroll
        for (int k = 0; k < 4; ++k) px[k] = (v[0] >> (8 * k)) & 0xffu;
    } else if constexpr (C == 2) {
        px[0] = v[0] & 0xffffu;
        px[1] = v[0] >> 16;
        px[2] = v[1] & 0xffffu;
        px[3] = v[1] >> 16;
    } else if constexpr (C == 3) {
        px[0] = v[0] & 0xffffffu;
        px[1] = __byte_perm(v[0], v[1], 0x0543) & 0xffffffu;  // byte 3 of v0, bytes 0-1 of v1
        px[2] = __byte_perm(v[1], v[2], 0x0432) & 0xffffffu;  // bytes 2-3 of v1, byte 0 of v2
        px[3] = v[2] >> 8;
    } else {
#pragma unroll
        for (int k = 0; k < 4; ++k) px[k] = v[k];
    }
}

// The box [bx0, bx0 + bw) x [by0, by0 + bh) of the input into shared memory,
// four pixels a thread and step (bx0 is a multiple of 4, so in an aligned
// image the four pixels' C words are aligned too), 16-byte shared stores.
template <int C>
__device__ __forceinline__ void load_box(const TileRotateArgs& a, int bx0, int by0, int bw, int bh,
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
// 32 x 8 block: pixels lx and lx + 32 of tile rows ly, ly + 8, ly + 16, ly + 24,
// its positions stepped from one numerator pair (rotate_numerators is affine).
template <int C, int kTaps>
__global__ void __launch_bounds__(kLanes * kWarps) rotate_tile_kernel(TileRotateArgs a) {
    extern __shared__ uint4 box_storage[];
    std::uint32_t* box = reinterpret_cast<std::uint32_t*>(box_storage);
    const RotateMap& m = a.m;
    constexpr int first = kTaps == 4 ? 1 : 0;  // taps from ix - first
    const int tx = static_cast<int>(blockIdx.x % static_cast<unsigned>(a.tiles_x));
    const int ty = static_cast<int>(blockIdx.x / static_cast<unsigned>(a.tiles_x));
    const int ox0 = tx * kTileW, oy0 = ty * kTileH;
    const int ox1 = min(ox0 + kTileW, m.dst_w) - 1, oy1 = min(oy0 + kTileH, m.dst_h) - 1;

    // The box every tap of the tile lies in: the numerators are affine in
    // (ox, oy) and rotate_split is monotone, so the extreme integer parts
    // are the corners'.
    int ix_lo = INT_MAX, ix_hi = INT_MIN, iy_lo = INT_MAX, iy_hi = INT_MIN;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        int ix, fx, iy, fy;
        rotate_position(m, (k & 1) ? ox1 : ox0, (k & 2) ? oy1 : oy0, ix, fx, iy, fy);
        ix_lo = min(ix_lo, ix);
        ix_hi = max(ix_hi, ix);
        iy_lo = min(iy_lo, iy);
        iy_hi = max(iy_hi, iy);
    }
    const int bx0 = (ix_lo - first) & ~3;  // down to a multiple of 4 (two's complement: also below 0)
    const int bx1 = ix_hi - first + kTaps - 1;
    const int by0 = iy_lo - first, by1 = iy_hi - first + kTaps - 1;
    const bool outside = bx1 < 0 || bx0 >= m.src_w || by1 < 0 || by0 >= m.src_h;
    const int bw = bx1 - bx0 + 1, bh = by1 - by0 + 1;
    // A box past the planned size (the host's bound has a margin, so this
    // is a guard, not a path that runs) reads its taps checked from the input.
    const bool boxed = !outside && bw <= a.cap_w && bh <= a.cap_h;
    if (boxed) {
        load_box<C>(a, bx0, by0, bw, bh, box);
        __syncthreads();
    }

    const int lx = threadIdx.x, ly = threadIdx.y;
    const long long step_x = 2 * m.cos_q * kLanes, step_y = -2 * m.sin_q * kLanes;  // +32 columns
    const long long row_x = 2 * m.sin_q * kWarps, row_y = 2 * m.cos_q * kWarps;     // +8 rows
    long long X0, Y0;
    rotate_numerators(m, ox0 + lx, oy0 + ly, X0, Y0);
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
                    rotate_split(X, ix, fx);
                    rotate_split(Y, iy, fy);
                    if (boxed) {
                        const std::uint32_t* t = box + (iy - first - by0) * a.box_pitch + (ix - first - bx0);
                        const auto fetch = [&](int j, int i, int (&v)[C]) {
                            const std::uint32_t w = t[j * a.box_pitch + i];
#pragma unroll
                            for (int c = 0; c < C; ++c) v[c] = static_cast<int>((w >> (8 * c)) & 0xffu);
                        };
                        rotate_combine<C, kTaps>(fx, fy, fetch, px);
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
// more for the taps, 3 for rounding the left edge down to a multiple of 4,
// and 1 of margin.
int box_extent(long long a_q, long long b_q, int taps) {
    const double span = (static_cast<double>(kTileW - 1) * static_cast<double>(std::llabs(a_q)) +
                         static_cast<double>(kTileH - 1) * static_cast<double>(std::llabs(b_q))) /
                        4294967296.0;
    return static_cast<int>(span) + 1 + taps + 3 + 1;
}

template <int C, int kTaps>
void launch(const TileRotateArgs& args, unsigned tiles, std::size_t smem, cudaStream_t stream) {
    rotate_tile_kernel<C, kTaps><<<tiles, dim3(kLanes, kWarps), smem, stream>>>(args);
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
    a.tiles_x = (m.dst_w + kTileW - 1) / kTileW;
    const unsigned long long tiles =
        static_cast<unsigned long long>(a.tiles_x) * static_cast<unsigned long long>((m.dst_h + kTileH - 1) / kTileH);
    if (tiles > static_cast<unsigned long long>(INT_MAX))
        throw usage_error("rotate", "the output has too many pixels for the GPU's tiles");
    // x over the tile: cos along its width, sin along its height; y the other way.
    a.cap_w = box_extent(m.cos_q, m.sin_q, m.taps);
    a.cap_h = box_extent(m.sin_q, m.cos_q, m.taps);
    a.box_pitch = (a.cap_w + 3) / 4 * 4;
    if (a.box_pitch % 8 == 0) a.box_pitch += 4;  // rows 4 banks apart mod 8: the scattered reads spread
    a.src_words = (reinterpret_cast<std::uintptr_t>(src.data) % 4 == 0) && src.pitch % 4 == 0;
    a.dst_words = (reinterpret_cast<std::uintptr_t>(dst.data) % 4 == 0) && dst.pitch % 4 == 0;
    const std::size_t smem = static_cast<std::size_t>(a.box_pitch) * static_cast<std::size_t>(a.cap_h) * 4;
    with_rotate_layout(src.channels, m.taps,
                       [&](auto c, auto t) { launch<c, t>(a, static_cast<unsigned>(tiles), smem, stream); });
}

const char* rotate_tiles_description() {
    return "rotate_tile_kernel (64x32 output tiles, the input box they read in shared memory, fixed-point ";
}

}  // namespace imgpar::cuda
