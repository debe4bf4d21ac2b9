// The per-pixel arithmetic of the colour family, one definition shared by
// the CPU reference (src/ops/colour.cpp) and the CUDA kernels
// (cuda/colour.cu). The contract it implements is src/ops/colour.hpp's.
#pragma once

#include <cstdint>

#include "src/hd.hpp"

namespace imgpar {

enum class ColourOp { Grayscale, ExtractChannel, Flatten, AddAlpha };

// What a pixel map needs, in integers (made by colour_args).
struct ColourArgs {
    int wr = 77, wg = 150, wb = 29;    // grayscale: luma weights (sum 256)
    int channel = 0;                   // extract-channel: the index
    std::uint8_t background[4] = {};   // flatten: the background pixel (gray: its luma)
    int alpha = 255;                   // add-alpha
    // The same on 16-bit images: each 8-bit value v as v * 257.
    std::uint16_t background16[4] = {};
    int alpha16 = 65535;
};

// The output's channel count for a C-channel input.
IMGPAR_HD constexpr int colour_output_channels(ColourOp op, int C) {
    switch (op) {
        case ColourOp::Grayscale: return C >= 3 ? C - 2 : C;
        case ColourOp::ExtractChannel: return 1;
        case ColourOp::Flatten: return C == 2 || C == 4 ? C - 1 : C;
        case ColourOp::AddAlpha:
        default: return C == 1 || C == 3 ? C + 1 : C;
    }
}

IMGPAR_HD int luma_weighted(const ColourArgs& a, int r, int g, int b) { return (a.wr * r + a.wg * g + a.wb * b + 128) >> 8; }

// alpha-composite of colour c at alpha a over background b, rounded to nearest.
IMGPAR_HD int flatten_sample(int c, int a, int b) { return (c * a + b * (255 - a) + 127) / 255; }
// The same for 16-bit samples: c a + b (65535 - a) is at most 65535^2, so
// with the half added it stays below 2^32 (unsigned 32-bit arithmetic), and
// 65535 is odd, so it is never halfway.
IMGPAR_HD int flatten_sample16(std::uint32_t c, std::uint32_t a, std::uint32_t b) {
    return static_cast<int>((c * a + b * (65535u - a) + 32767u) / 65535u);
}

// One pixel: in[0..C) -> out[0..colour_output_channels(kOp, C)); T is the
// sample type (u8, u16), the contract the same with 255 read as 65535.
template <ColourOp kOp, int C, typename T = std::uint8_t>
IMGPAR_HD void colour_pixel_map(const ColourArgs& a, const T* in, T* out) {
    constexpr bool kAlpha = C == 2 || C == 4;
    constexpr bool kWide = sizeof(T) == 2;
    if constexpr (kOp == ColourOp::Grayscale) {
        if constexpr (C >= 3) {
            out[0] = static_cast<T>(luma_weighted(a, in[0], in[1], in[2]));
            if constexpr (C == 4) out[1] = in[3];
        } else {
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) out[c] = in[c];
        }
    } else if constexpr (kOp == ColourOp::ExtractChannel) {
        // A select over constant indices (no indexed array on the GPU).
        int v = in[0];
        IMGPAR_UNROLL
        for (int c = 1; c < C; ++c)
            if (a.channel == c) v = in[c];
        out[0] = static_cast<T>(v);
    } else if constexpr (kOp == ColourOp::Flatten) {
        if constexpr (kAlpha) {
            const int alpha = in[C - 1];
            IMGPAR_UNROLL
            for (int c = 0; c < C - 1; ++c) {
                if constexpr (kWide)
                    out[c] = static_cast<T>(flatten_sample16(in[c], static_cast<std::uint32_t>(alpha), a.background16[c]));
                else
                    out[c] = static_cast<T>(flatten_sample(in[c], alpha, a.background[c]));
            }
        } else {
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) out[c] = in[c];
        }
    } else {
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) out[c] = in[c];
        if constexpr (!kAlpha) out[C] = static_cast<T>(kWide ? a.alpha16 : a.alpha);
    }
}

}  // namespace imgpar
