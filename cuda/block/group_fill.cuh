// Tile fills in aligned groups of 16 pixels, for the 2-D kernels (custom,
// edges): they fill their shared tiles in groups of 16 pixels whose first
// column is a multiple of 16. Inside the image a group is C aligned 16-byte
// loads, elsewhere its pixels take the border rule one by one; either way it
// comes out as 4 sub-groups of 4 pixels, one word per channel.
#pragma once

#include <cstdint>

#include "cuda/filter_kernels_common.cuh"

namespace imgpar::cuda::filter_detail {

constexpr int kGroupPx = 16;

// Starts the loads of the group at image column x (a multiple of kGroupPx) of image
// row y (before the border rule): when the whole group lies inside the image
// and rows may be read as 16-byte vectors (`src_vec`), its C raw vectors go
// to `u` and the result is true; otherwise nothing is loaded and the group's
// pixels are left to subgroup_words' border path.
template <int C>
__device__ __forceinline__ bool load_group(const SrcArg& src, BorderMode mode, bool src_vec, int x, int y,
                                           uint4 (&u)[C]) {
    const int yy = border_index(y, src.height, mode);
    if (!(src_vec && yy >= 0 && x >= 0 && x + kGroupPx - 1 < src.width)) return false;
    const auto* p = reinterpret_cast<const uint4*>(row_ptr(src, yy) + static_cast<std::size_t>(x) * C);
#pragma unroll
    for (int c = 0; c < C; ++c) u[c] = __ldg(p + c);
    return true;
}

// Word i (0..4C-1) of a group's raw bytes.
template <int C>
__device__ __forceinline__ std::uint32_t word_at(const uint4 (&u)[C], int i) {
    const uint4& v = u[i / 4];
    switch (i % 4) {
        case 0: return v.x;
        case 1: return v.y;
        case 2: return v.z;
        default: return v.w;
    }
}

// Channel words of sub-group k (pixels 4k..4k+3) of the group starting at
// image (x, y): w[c] holds the 4 pixels' samples of channel c (gray or RGB).
// `u` are the group's raw bytes when `vec` (the group lies inside the
// image); otherwise the pixels go through fetch_pixel.
template <int C>
__device__ __forceinline__ void subgroup_words(const SrcArg& src, const BorderArg& border, bool vec,
                                               const uint4 (&u)[C], int k, int x, int y, std::uint32_t (&w)[4]) {
    if (vec) {
        std::uint32_t raw[C];
#pragma unroll
        for (int c = 0; c < C; ++c) raw[c] = word_at<C>(u, k * C + c);
        deinterleave<C>(raw, w);
    } else {
        int v[4][C];
#pragma unroll
        for (int p = 0; p < 4; ++p) fetch_pixel<C>(src, border, x + 4 * k + p, y, v[p]);
#pragma unroll
        for (int c = 0; c < C; ++c) w[c] = pack4(v[0][c], v[1][c], v[2][c], v[3][c]);
    }
}

}  // namespace imgpar::cuda::filter_detail
