// libjpeg-turbo's default inverse DCT (JDCT_ISLOW, jidctint.c: the
// Loeffler-Ligtenberg-Moschytz 1-D transform on columns, then rows, in fixed
// point with 13 fraction bits and 2 extra bits between the passes),
// dequantization and range limit included, for one 8x8 block. Shared by the
// GPU's JPEG decoding (cuda/jpeg_idct.cu) and the test that checks it against
// libjpeg-turbo's own planes on the CPU.
//
// The arithmetic is 64-bit, as jidctint.c's JLONG is on 64-bit systems, so a
// forged coefficient cannot overflow it.
//
// libjpeg-turbo's x86 and Arm builds run SIMD versions of this transform,
// which keep 16-bit lanes between steps: they give the C code's samples
// unless a value outgrows its lane, which no encoder of real images causes
// but a forged file can. So a block is "safe" only when every dequantized
// coefficient and every value between the passes fits in 15 bits, and every
// result lies in [-512, 511] before the level shift (where the C code's
// wrapping range limit and the SIMD code's saturation agree). A file with an
// unsafe block is decoded by libjpeg-turbo itself instead.
#pragma once

#include <cstdint>

#include "src/hd.hpp"

namespace imgpar::jpeg_idct {

constexpr int kConstBits = 13;
constexpr int kPass1Bits = 2;

// FIX(x) = round(x * 2^13), as jidctint.c lists them.
constexpr std::int32_t kF0_298 = 2446;
constexpr std::int32_t kF0_390 = 3196;
constexpr std::int32_t kF0_541 = 4433;
constexpr std::int32_t kF0_765 = 6270;
constexpr std::int32_t kF0_899 = 7373;
constexpr std::int32_t kF1_175 = 9633;
constexpr std::int32_t kF1_501 = 12299;
constexpr std::int32_t kF1_847 = 15137;
constexpr std::int32_t kF1_961 = 16069;
constexpr std::int32_t kF2_053 = 16819;
constexpr std::int32_t kF2_562 = 20995;
constexpr std::int32_t kF3_072 = 25172;

// Rounds x / 2^n to nearest, halves up (an arithmetic shift of x + 2^(n-1)).
IMGPAR_HD std::int64_t descale(std::int64_t x, int n) { return (x + (std::int64_t{1} << (n - 1))) >> n; }

// Whether |v| fits the 15 bits the SIMD lanes leave for a sum of two.
IMGPAR_HD bool fits_lane(std::int64_t v) { return v > -16384 && v < 16384; }

// One 1-D transform of the eight values in[0..7] (stride apart), before the
// final descale: out[k] = the k-th output scaled by 2^13. The even part works
// on in[0], in[2], in[4], in[6]; the odd part on the rest.
IMGPAR_HD void transform(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4,
                         std::int64_t i5, std::int64_t i6, std::int64_t i7, std::int64_t out[8]) {
    // Even part: a rotation of in[2], in[6] and the sum and difference of in[0], in[4].
    std::int64_t z1 = (i2 + i6) * kF0_541;
    const std::int64_t even2 = z1 - i6 * kF1_847;
    const std::int64_t even3 = z1 + i2 * kF0_765;
    const std::int64_t even0 = (i0 + i4) * (std::int64_t{1} << kConstBits);
    const std::int64_t even1 = (i0 - i4) * (std::int64_t{1} << kConstBits);
    const std::int64_t t10 = even0 + even3, t13 = even0 - even3;
    const std::int64_t t11 = even1 + even2, t12 = even1 - even2;
    // Odd part: in[7], in[5], in[3], in[1] through four pairwise sums.
    z1 = i7 + i1;
    std::int64_t z2 = i5 + i3;
    std::int64_t z3 = i7 + i3;
    std::int64_t z4 = i5 + i1;
    const std::int64_t z5 = (z3 + z4) * kF1_175;
    std::int64_t o0 = i7 * kF0_298;
    std::int64_t o1 = i5 * kF2_053;
    std::int64_t o2 = i3 * kF3_072;
    std::int64_t o3 = i1 * kF1_501;
    z1 *= -kF0_899;
    z2 *= -kF2_562;
    z3 = z3 * -kF1_961 + z5;
    z4 = z4 * -kF0_390 + z5;
    o0 += z1 + z3;
    o1 += z2 + z4;
    o2 += z2 + z3;
    o3 += z1 + z4;
    out[0] = t10 + o3;
    out[7] = t10 - o3;
    out[1] = t11 + o2;
    out[6] = t11 - o2;
    out[2] = t12 + o1;
    out[5] = t12 - o1;
    out[3] = t13 + o0;
    out[4] = t13 - o0;
}

// libjpeg-turbo's range limit after the transform: v + 128 where that is a
// sample; beyond, the table it indexes with (v & 1023) gives 255 for the next
// 384 values up and 0 for the 384 down (and wraps further out).
IMGPAR_HD std::uint8_t range_limit(std::int64_t v) {
    const std::int64_t u = (v + 128) & 1023;
    return static_cast<std::uint8_t>(u < 256 ? u : (u < 640 ? 255 : 0));
}

// Pass 1 for column `c` of the block `coef` (64 quantized coefficients in
// natural order, row-major) with the quantization table `quant` (natural
// order): ws[r * ws_stride] for each row r. Returns whether its values are
// safe.
IMGPAR_HD bool idct_column(const std::int16_t* coef, const std::uint16_t* quant, int c, std::int32_t* ws, int ws_stride) {
    std::int64_t in[8];
    bool safe = true, ac_zero = true;
    IMGPAR_UNROLL
    for (int r = 0; r < 8; ++r) {
        in[r] = static_cast<std::int64_t>(coef[r * 8 + c]) * static_cast<std::int64_t>(quant[r * 8 + c]);
        safe = safe && fits_lane(in[r]);
        if (r > 0) ac_zero = ac_zero && coef[r * 8 + c] == 0;
    }
    if (ac_zero) {  // jidctint.c's shortcut, the very values of the full transform
        const std::int64_t dc = in[0] * (std::int64_t{1} << kPass1Bits);
        IMGPAR_UNROLL
        for (int r = 0; r < 8; ++r) ws[r * ws_stride] = static_cast<std::int32_t>(dc);
        return safe && fits_lane(dc);
    }
    std::int64_t t[8];
    transform(in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], t);
    IMGPAR_UNROLL
    for (int r = 0; r < 8; ++r) {
        const std::int64_t v = descale(t[r], kConstBits - kPass1Bits);
        safe = safe && fits_lane(v);
        ws[r * ws_stride] = static_cast<std::int32_t>(v);  // jidctint.c keeps them as int too
    }
    return safe;
}

// Pass 2 for one row of pass 1's values (w[0..7]): eight samples at `out`.
// Returns whether they are safe.
IMGPAR_HD bool idct_row(const std::int32_t* w, std::uint8_t* out) {
    std::int64_t t[8];
    transform(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], t);
    bool safe = true;
    IMGPAR_UNROLL
    for (int c = 0; c < 8; ++c) {
        const std::int64_t v = descale(t[c], kConstBits + kPass1Bits + 3);
        safe = safe && v >= -512 && v <= 511;
        out[c] = range_limit(v);
    }
    return safe;
}

// The whole block to 8x8 samples at `out` (rows `stride` bytes apart).
// Returns whether it is safe; only a safe block's samples are promised to be
// libjpeg-turbo's.
IMGPAR_HD bool idct_islow(const std::int16_t* coef, const std::uint16_t* quant, std::uint8_t* out, int stride) {
    std::int32_t ws[64];
    bool safe = true;
    for (int c = 0; c < 8; ++c) safe = idct_column(coef, quant, c, ws + c, 8) && safe;
    for (int r = 0; r < 8; ++r) safe = idct_row(ws + r * 8, out + r * stride) && safe;
    return safe;
}

}  // namespace imgpar::jpeg_idct
