// A resize tile's output rows, staged in shared memory, written to the image:
// 16-byte stores where the image's rows, the tile's first byte and the
// staged rows allow, the rest byte by byte. Staging turns a pass's scattered
// small stores (a pixel's channels, or a lane's pixels of two rows 8 apart)
// into whole sectors: the byte stores straight to the image took most of the
// L2's requests. Included by cuda/resize_tiles.cu and its pass headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace imgpar::cuda::resize_detail {

// Rows k0 .. k1 - 1 of the image (a.dst, a.dst_pitch), n bytes each from
// byte `first` of the row, from `out` ([k1 - k0][out_row] bytes). Called by
// the whole block after a barrier that follows the staging.
template <typename Args>
__device__ __forceinline__ void store_staged_rows(const Args& a, const unsigned char* out, int out_row, int k0, int k1,
                                                  std::size_t first, int n) {
    const int threads = static_cast<int>(blockDim.x), tid = static_cast<int>(threadIdx.x);
    const int rows = k1 - k0;
    std::uint8_t* dst = a.dst + first;
    const bool vec = ((reinterpret_cast<std::uintptr_t>(dst) | a.dst_pitch | static_cast<std::size_t>(out_row)) & 15) == 0;
    const int nv = vec ? n / 16 : 0, tail = n - 16 * nv;
    for (int i = tid; i < rows * nv; i += threads) {
        const int r = i / nv, v = i - r * nv;
        *reinterpret_cast<uint4*>(dst + static_cast<std::size_t>(k0 + r) * a.dst_pitch + 16 * v) =
            *reinterpret_cast<const uint4*>(out + r * out_row + 16 * v);
    }
    for (int i = tid; i < rows * tail; i += threads) {
        const int r = i / tail, b = 16 * nv + (i - r * tail);
        dst[static_cast<std::size_t>(k0 + r) * a.dst_pitch + b] = out[r * out_row + b];
    }
}

}  // namespace imgpar::cuda::resize_detail
