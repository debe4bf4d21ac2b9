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

// One pixel: in[0..C) -> out[0..colour_output_channels(kOp, C)).
template <ColourOp kOp, int C>
IMGPAR_HD void colour_pixel_map(const ColourArgs& a, const std::uint8_t* in, std::uint8_t* out) {
    constexpr bool kAlpha = C == 2 || C == 4;
    if constexpr (kOp == ColourOp::Grayscale) {
        if constexpr (C >= 3) {
            out[0] = static_cast<std::uint8_t>(luma_weighted(a, in[0], in[1], in[2]));
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
        out[0] = static_cast<std::uint8_t>(v);
    } else if constexpr (kOp == ColourOp::Flatten) {
        if constexpr (kAlpha) {
            const int alpha = in[C - 1];
            IMGPAR_UNROLL
            for (int c = 0; c < C - 1; ++c) out[c] = static_cast<std::uint8_t>(flatten_sample(in[c], alpha, a.background[c]));
        } else {
            IMGPAR_UNROLL
            for (int c = 0; c < C; ++c) out[c] = in[c];
        }
    } else {
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) out[c] = in[c];
        if constexpr (!kAlpha) out[C] = static_cast<std::uint8_t>(a.alpha);
    }
}

}  // namespace imgpar
