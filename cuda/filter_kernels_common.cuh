// Device-side building blocks shared by the filter kernels (private to
// cuda/filter_*.cu): the kernel argument structs, border-aware sample
// fetches in the working domain (colour premultiplied by alpha for images
// with alpha, as the contract in src/ops/filter.hpp says), and the epilogues
// that turn filtered values into output samples. All arithmetic on samples
// goes through the IMGPAR_HD functions of src/ops so it matches the CPU
// reference bit for bit.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/device_image.hpp"
#include "src/image.hpp"
#include "src/ops/border.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_math.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar::cuda::filter_detail {

constexpr int kMaxC = 4;

// A source image as the kernels read it.
struct SrcArg {
    const std::uint8_t* data;
    std::size_t pitch;
    int width;
    int height;
    int channels;
};

// A destination image (same width and height as the source).
struct DstArg {
    std::uint8_t* data;
    std::size_t pitch;
};

// The border rule, and per channel the value a constant border reads in the
// working domain (constant_border_sample: premultiplied for alpha images).
struct BorderArg {
    BorderMode mode;
    int constant[kMaxC];
};

__device__ __forceinline__ const std::uint8_t* row_ptr(const SrcArg& s, int y) {
    return s.data + static_cast<std::size_t>(y) * s.pitch;
}
__device__ __forceinline__ std::uint8_t* row_ptr(const DstArg& d, int y) {
    return d.data + static_cast<std::size_t>(y) * d.pitch;
}
// Byte offset of row y (negative above the image: only to be advanced).
__device__ __forceinline__ std::int64_t row_offset(const SrcArg& s, int y) {
    return static_cast<std::int64_t>(y) * static_cast<std::int64_t>(s.pitch);
}
__device__ __forceinline__ std::int64_t row_offset(const DstArg& d, int y) {
    return static_cast<std::int64_t>(y) * static_cast<std::int64_t>(d.pitch);
}

// Premultiplies the colour samples of one pixel in place (alpha last).
template <int C>
__device__ __forceinline__ void premultiply_pixel(int (&v)[C]) {
    if constexpr (C == 2 || C == 4) {
#pragma unroll
        for (int c = 0; c < C - 1; ++c) v[c] = premultiply(v[c], v[C - 1]);
    }
}

// Working-domain samples of pixel (x, y) for any x and y: the border rule
// picks the pixel read, a constant border reads border.constant.
template <int C>
__device__ __forceinline__ void fetch_pixel(const SrcArg& s, const BorderArg& b, int x, int y, int (&v)[C]) {
    const int yy = border_index(y, s.height, b.mode);
    const int xx = border_index(x, s.width, b.mode);
    if (yy < 0 || xx < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) v[c] = b.constant[c];
        return;
    }
    const std::uint8_t* p = row_ptr(s, yy) + static_cast<std::size_t>(xx) * C;
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = __ldg(p + c);
    premultiply_pixel<C>(v);
}

// Raw (not premultiplied) samples of an in-image pixel.
template <int C>
__device__ __forceinline__ void load_pixel_raw(const SrcArg& s, int x, int y, int (&v)[C]) {
    const std::uint8_t* p = row_ptr(s, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = __ldg(p + c);
}

// --- Separable (Gaussian / unsharp) epilogues ------------------------------

// What the separable kernels write, given the blurred working-domain values.
enum class SepMode : int {
    Blur = 0,          // out = blur
    BlurAlpha = 1,     // colour = unpremultiply(blur(p), blur(a)), alpha = blur(a)
    Unsharp = 2,       // out = unsharp_output(x, blur(x))
    UnsharpAlpha = 3,  // colour = unpremultiply(unsharp_output(p, blur(p)), a), alpha = a
};

struct UnsharpArg {
    int amount_q8;
    int threshold_level;
};

// One output sample: `blur` is the blurred working value of this sample,
// `src` the source sample, `alpha_blur` / `alpha_src` the pixel's blurred and
// source alpha, `is_alpha` whether this sample is the alpha channel.
__device__ __forceinline__ int separable_output(SepMode mode, const UnsharpArg& u, int blur, int src, int alpha_blur,
                                                int alpha_src, bool is_alpha) {
    switch (mode) {
        case SepMode::Blur:
            return blur;
        case SepMode::BlurAlpha:
            return is_alpha ? blur : unpremultiply(blur, alpha_blur);
        case SepMode::Unsharp:
            return unsharp_output(src, blur, u.amount_q8, u.threshold_level);
        case SepMode::UnsharpAlpha:
        default:
            if (is_alpha) return alpha_src;
            return unpremultiply(unsharp_output(premultiply(src, alpha_src), blur, u.amount_q8, u.threshold_level),
                                 alpha_src);
    }
}

// The epilogue on one 32-bit word of an interleaved row: 4 blurred bytes and
// the 4 source bytes at the same place. Words start on pixel boundaries for
// 1, 2 and 4 channels (alpha modes only occur there), so a pixel's alpha byte
// is inside the word.
__device__ __forceinline__ std::uint32_t separable_output_word(SepMode mode, const UnsharpArg& u, int channels,
                                                               std::uint32_t blur, std::uint32_t src) {
    if (mode == SepMode::Blur) return blur;
    std::uint32_t out = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
        const int ai = channels == 2 ? (e | 1) : 3;  // alpha byte of this sample's pixel (alpha modes)
        const int b = static_cast<int>((blur >> (8 * e)) & 0xFFu);
        const int s = static_cast<int>((src >> (8 * e)) & 0xFFu);
        const int ab = static_cast<int>((blur >> (8 * ai)) & 0xFFu);
        const int as = static_cast<int>((src >> (8 * ai)) & 0xFFu);
        const int o = separable_output(mode, u, b, s, ab, as, e == ai);
        out |= static_cast<std::uint32_t>(o) << (8 * e);
    }
    return out;
}

// --- Small device utilities ------------------------------------------------

__device__ __forceinline__ std::uint32_t load_u32_shared(const std::uint8_t* p) {
    return *reinterpret_cast<const std::uint32_t*>(p);
}
__device__ __forceinline__ void store_u32_shared(std::uint8_t* p, std::uint32_t v) {
    *reinterpret_cast<std::uint32_t*>(p) = v;
}
__device__ __forceinline__ void store_u16_shared(std::uint8_t* p, std::uint32_t v) {
    *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(v);
}

// Byte e (0..3) of a word, and a word from 4 bytes.
__device__ __forceinline__ int byte_of(std::uint32_t w, int e) { return static_cast<int>((w >> (8 * e)) & 0xFFu); }
__device__ __forceinline__ std::uint32_t pack4(int b0, int b1, int b2, int b3) {
    return static_cast<std::uint32_t>(b0) | (static_cast<std::uint32_t>(b1) << 8) |
           (static_cast<std::uint32_t>(b2) << 16) | (static_cast<std::uint32_t>(b3) << 24);
}

// --- Staging helpers: 4 source pixels -> one 32-bit word per channel plane --

__device__ __forceinline__ std::uint32_t premultiply_word(std::uint32_t c, std::uint32_t a) {
    return pack4(premultiply(byte_of(c, 0), byte_of(a, 0)), premultiply(byte_of(c, 1), byte_of(a, 1)),
                 premultiply(byte_of(c, 2), byte_of(a, 2)), premultiply(byte_of(c, 3), byte_of(a, 3)));
}

// Splits 4 interleaved pixels (4*C bytes in u[0..C-1]) into C plane words.
template <int C>
__device__ __forceinline__ void deinterleave(const std::uint32_t (&u)[C], std::uint32_t (&w)[4]) {
    if constexpr (C == 1) {
        w[0] = u[0];
    } else if constexpr (C == 2) {
        w[0] = __byte_perm(u[0], u[1], 0x6420);
        w[1] = __byte_perm(u[0], u[1], 0x7531);
    } else if constexpr (C == 3) {
        // u0 = r0 g0 b0 r1 | u1 = g1 b1 r2 g2 | u2 = b2 r3 g3 b3
        w[0] = __byte_perm(__byte_perm(u[0], u[1], 0x0630), u[2], 0x5210);
        w[1] = __byte_perm(__byte_perm(u[0], u[1], 0x0741), u[2], 0x6210);
        w[2] = __byte_perm(__byte_perm(u[0], u[1], 0x0052), u[2], 0x7410);
    } else {
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            const unsigned sel = static_cast<unsigned>(c | ((c + 4) << 4));
            w[c] = __byte_perm(__byte_perm(u[0], u[1], sel), __byte_perm(u[2], u[3], sel), 0x5410);
        }
    }
}

// The inverse of deinterleave<3> for 16 pixels: word j (0..11) of their
// interleaved bytes, from the plane words r, g and b (4 pixels per word):
// r0 g0 b0 r1 | g1 b1 r2 g2 | b2 r3 g3 b3, then pixels 4..7 and so on.
__device__ __forceinline__ std::uint32_t interleaved_word(const std::uint32_t (&r)[4], const std::uint32_t (&g)[4],
                                                          const std::uint32_t (&b)[4], int j) {
    const int k = j / 3;
    switch (j % 3) {
        case 0: return __byte_perm(__byte_perm(r[k], g[k], 0x1040), b[k], 0x3410);
        case 1: return __byte_perm(__byte_perm(g[k], b[k], 0x2051), r[k], 0x3610);
        default: return __byte_perm(__byte_perm(b[k], r[k], 0x3072), g[k], 0x3710);
    }
}

// --- Tile fills in aligned groups of 16 pixels ------------------------------
// The 2-D kernels (custom, edges) fill their shared tiles in groups of 16
// pixels whose first column is a multiple of 16: inside the image a group is
// C aligned 16-byte loads, elsewhere its pixels take the border rule one by one.
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

// Working-domain channel words of sub-group k (pixels 4k..4k+3) of the group
// starting at image (x, y): w[c] holds the 4 pixels' samples of channel c,
// colour premultiplied. `u` are the group's raw bytes when `vec` (the group
// lies inside the image); otherwise the pixels go through fetch_pixel.
template <int C>
__device__ __forceinline__ void subgroup_words(const SrcArg& src, const BorderArg& border, bool vec,
                                               const uint4 (&u)[C], int k, int x, int y, std::uint32_t (&w)[4]) {
    if (vec) {
        std::uint32_t raw[C];
#pragma unroll
        for (int c = 0; c < C; ++c) raw[c] = word_at<C>(u, k * C + c);
        deinterleave<C>(raw, w);
        if constexpr (C == 2 || C == 4) {
#pragma unroll
            for (int c = 0; c < C - 1; ++c) w[c] = premultiply_word(w[c], w[C - 1]);
        }
    } else {
        int v[4][C];
#pragma unroll
        for (int p = 0; p < 4; ++p) fetch_pixel<C>(src, border, x + 4 * k + p, y, v[p]);
#pragma unroll
        for (int c = 0; c < C; ++c) w[c] = pack4(v[0][c], v[1][c], v[2][c], v[3][c]);
    }
}

// --- Host-side argument builders, shared by the launchers -----------------------

inline SrcArg src_arg(const ConstDeviceViewU8& r) { return {r.data, r.pitch, r.width, r.height, r.channels}; }
inline DstArg dst_arg(const DeviceViewU8& r) { return {r.data, r.pitch}; }

// Whether every row of an image (base `p`, `pitch`) starts n-byte aligned.
inline bool rows_aligned(const void* p, std::size_t pitch, std::size_t n) {
    return reinterpret_cast<std::uintptr_t>(p) % n == 0 && pitch % n == 0;
}

// The plan's border rule for an image with `channels` channels.
inline BorderArg border_arg(const FilterPlan& plan, int channels) {
    BorderArg b{};
    b.mode = plan.border.mode;
    for (int c = 0; c < kMaxC; ++c) b.constant[c] = c < channels ? constant_border_sample(plan.border.value, c, channels) : 0;
    return b;
}

// What a Gaussian or unsharp plan writes for an image with `channels` channels.
inline SepMode separable_mode(const FilterPlan& plan, int channels) {
    const bool alpha = has_alpha(channels);
    if (plan.kind == FilterKind::Unsharp) return alpha ? SepMode::UnsharpAlpha : SepMode::Unsharp;
    return alpha ? SepMode::BlurAlpha : SepMode::Blur;
}

}  // namespace imgpar::cuda::filter_detail
