// Device-side building blocks shared by the filter kernels (private to
// cuda/filter_*.cu): the kernel argument structs, border-aware sample
// fetches in the working domain (colour premultiplied by alpha for images
// with alpha, as the contract in src/ops/filter.hpp says), and the epilogues
// that turn filtered values into output samples. All arithmetic on samples
// goes through the IMGPAR_HD functions of src/ops so it matches the CPU
// reference bit for bit. The word helpers (the bytes of 4 pixels as 32-bit
// words) come with this header, from cuda/block/words.cuh.
//
// Images with alpha no longer reach the kernels built on this header: they
// run cuda/filter_wide.cu, colour premultiplied in 16 bits (filter.hpp). The
// 8-bit alpha modes here (premultiply_pixel, SepMode::*Alpha, the premultiplied
// constant border) and the kernels' 2- and 4-channel instances are unused
// since, left for a separate clean-up measured on a GPU.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/block/words.cuh"
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
