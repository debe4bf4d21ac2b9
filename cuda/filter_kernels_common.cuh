// Device-side building blocks shared by the filter kernels (private to
// cuda/filter_*.cu): the kernel argument structs, border-aware sample
// fetches, and the epilogues that turn filtered values into output samples.
// All arithmetic on samples goes through the IMGPAR_HD functions of src/ops
// so it matches the CPU reference bit for bit. The word helpers (the bytes of
// 4 pixels as 32-bit words) come with this header, from cuda/block/words.cuh.
//
// The kernels built on this header take gray and RGB images only (1 and 3
// channels). Images with alpha run cuda/filter_wide.cu, colour premultiplied
// in 16 bits (src/ops/filter.hpp), which takes only the image arguments and
// load_pixel_raw from here.
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

// Per-channel room in the argument structs. The kernels here take at most 3
// channels (RGB), but 4 keeps the structs, and with them ptxas's register
// allocation, as they were tuned: BorderArg shrunk to one constant gave the
// u8 MMA fallback's kernels up to 35 more registers and spills (ptxas -v).
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

// The border rule, and per channel the sample a constant border reads (the
// plan's V in every channel).
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

// Samples of pixel (x, y) for any x and y: the border rule picks the pixel
// read, a constant border reads border.constant.
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
}

// Samples of an in-image pixel (any channel count: the wide kernels read
// images with alpha through it).
template <int C>
__device__ __forceinline__ void load_pixel_raw(const SrcArg& s, int x, int y, int (&v)[C]) {
    const std::uint8_t* p = row_ptr(s, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = __ldg(p + c);
}

// --- Separable (Gaussian / unsharp) epilogues ------------------------------

// What the separable kernels write, given the blurred values.
enum class SepMode : int {
    Blur,     // out = blur
    Unsharp,  // out = unsharp_output(x, blur(x))
};

struct UnsharpArg {
    int amount_q8;
    int threshold_level;
};

// The epilogue on one 32-bit word of an interleaved row: 4 blurred bytes and
// the 4 source bytes at the same place (not read for a blur).
__device__ __forceinline__ std::uint32_t separable_output_word(SepMode mode, const UnsharpArg& u, std::uint32_t blur,
                                                               std::uint32_t src) {
    if (mode == SepMode::Blur) return blur;
    std::uint32_t out = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
        const int o = unsharp_output(byte_of(src, e), byte_of(blur, e), u.amount_q8, u.threshold_level);
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

// The plan's border rule.
inline BorderArg border_arg(const FilterPlan& plan) {
    BorderArg b{};
    b.mode = plan.border.mode;
    for (int c = 0; c < kMaxC; ++c) b.constant[c] = plan.border.value;
    return b;
}

// What a Gaussian or unsharp plan writes.
inline SepMode separable_mode(const FilterPlan& plan) {
    return plan.kind == FilterKind::Unsharp ? SepMode::Unsharp : SepMode::Blur;
}

}  // namespace imgpar::cuda::filter_detail
