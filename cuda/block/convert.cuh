// Bytes to tensor-core operands: the conversion of staged pixels into the
// planes the MMAs read. A byte v becomes the f16 value 1024 + v with one byte
// permute (0x64 in the high byte is the f16 exponent of 1024, v its
// mantissa); where the offset cannot be folded into a later rounding, one
// exact f16 subtraction takes it out again. Channels are split 4 pixels at a
// time (cuda/block/words.cuh).
#pragma once

#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

#include "cuda/block/words.cuh"

namespace imgpar::cuda::filter_detail {

// The f16 values 1024 + b for bytes 0,1 (lo) or 2,3 (hi) of a word, packed
// two per register, lower byte in the low half. One permute per pair.
__device__ __forceinline__ std::uint32_t offset_half2_lo(std::uint32_t w) {
    return __byte_perm(w, 0x64646464u, 0x4140);
}
__device__ __forceinline__ std::uint32_t offset_half2_hi(std::uint32_t w) {
    return __byte_perm(w, 0x64646464u, 0x4342);
}

__device__ __forceinline__ std::uint32_t half2_as_u32(__half2 h) {
    std::uint32_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}
__device__ __forceinline__ __half2 u32_as_half2(std::uint32_t u) {
    __half2 h;
    memcpy(&h, &u, sizeof h);
    return h;
}

// Two f16 values 1024 + b (offset_half2_lo / _hi) as the f16 values b: the
// subtraction is exact.
__device__ __forceinline__ std::uint32_t unbias_half2(std::uint32_t biased) {
    return half2_as_u32(__hsub2(u32_as_half2(biased), __float2half2_rn(1024.0f)));
}

// Bytes 0,1 (lo) or 2,3 (hi) of a word as the exact f16 values b.
__device__ __forceinline__ std::uint32_t exact_half2_lo(std::uint32_t w) { return unbias_half2(offset_half2_lo(w)); }
__device__ __forceinline__ std::uint32_t exact_half2_hi(std::uint32_t w) { return unbias_half2(offset_half2_hi(w)); }

// One convert unit: UNIT_PX pixels of one staged row.
struct ConvertUnit {
    int raw;    // byte offset in a raw slot
    int stage;  // byte offset in plane 0 of a stage buffer
};

// Converts one unit of a raw slot (interleaved gray or RGB pixels) into the C
// planes of a stage buffer: channels split, and each byte v turned into the
// f16 value 1024 + v, or (I8) kept a byte. G: C, I8, UNIT_PX (16 for 1
// channel, 4 or 16 for 3) and PLANE_BYTES (bytes from one stage plane to the
// next).
template <class G>
__device__ __forceinline__ void convert_unit(const std::uint8_t* slot, std::uint8_t* stage, const ConvertUnit& u) {
    constexpr int C = G::C;
    static_assert(C == 1 || C == 3, "gray or RGB: images with alpha run the wide kernels");
    static_assert(G::UNIT_PX == (C == 1 ? 16 : (G::UNIT_PX == 16 ? 16 : 4)),
                  "a convert unit of 16 pixels (1 or 3 channels) or 4 (3)");
    const std::uint8_t* s = slot + u.raw;
    std::uint8_t* d = stage + u.stage;
    if constexpr (C == 1) {  // 16 pixels
        const uint4 v = *reinterpret_cast<const uint4*>(s);
        if constexpr (G::I8) {
            *reinterpret_cast<uint4*>(d) = v;
        } else {
            *reinterpret_cast<uint4*>(d) = make_uint4(offset_half2_lo(v.x), offset_half2_hi(v.x),
                                                      offset_half2_lo(v.y), offset_half2_hi(v.y));
            *reinterpret_cast<uint4*>(d + 16) = make_uint4(offset_half2_lo(v.z), offset_half2_hi(v.z),
                                                           offset_half2_lo(v.w), offset_half2_hi(v.w));
        }
    } else if constexpr (G::UNIT_PX == 16) {  // 16 pixels: three 16-byte loads, four 12-byte groups
        const uint4 v0 = *reinterpret_cast<const uint4*>(s), v1 = *reinterpret_cast<const uint4*>(s + 16),
                    v2 = *reinterpret_cast<const uint4*>(s + 32);
        const std::uint32_t raw[4][3] = {
            {v0.x, v0.y, v0.z}, {v0.w, v1.x, v1.y}, {v1.z, v1.w, v2.x}, {v2.y, v2.z, v2.w}};
        std::uint32_t w[4][4];
#pragma unroll
        for (int k = 0; k < 4; ++k) deinterleave<3>(raw[k], w[k]);
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            if constexpr (G::I8) {
                *reinterpret_cast<uint4*>(d + c * G::PLANE_BYTES) = make_uint4(w[0][c], w[1][c], w[2][c], w[3][c]);
            } else {
                *reinterpret_cast<uint4*>(d + c * G::PLANE_BYTES) =
                    make_uint4(offset_half2_lo(w[0][c]), offset_half2_hi(w[0][c]), offset_half2_lo(w[1][c]),
                               offset_half2_hi(w[1][c]));
                *reinterpret_cast<uint4*>(d + c * G::PLANE_BYTES + 16) =
                    make_uint4(offset_half2_lo(w[2][c]), offset_half2_hi(w[2][c]), offset_half2_lo(w[3][c]),
                               offset_half2_hi(w[3][c]));
            }
        }
    } else {  // 4 pixels
        std::uint32_t raw[3];
#pragma unroll
        for (int k = 0; k < 3; ++k) raw[k] = load_u32_shared(s + 4 * k);
        std::uint32_t w[4];
        deinterleave<3>(raw, w);
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            if constexpr (G::I8)
                *reinterpret_cast<std::uint32_t*>(d + c * G::PLANE_BYTES) = w[c];
            else
                *reinterpret_cast<uint2*>(d + c * G::PLANE_BYTES) =
                    make_uint2(offset_half2_lo(w[c]), offset_half2_hi(w[c]));
        }
    }
}

}  // namespace imgpar::cuda::filter_detail
