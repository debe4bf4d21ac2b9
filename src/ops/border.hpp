// Border rules: how a filter reads samples outside the image.
//
//   replicate   aaaaaa|abcdefgh|hhhhhh   (default; ImageMagick, libvips, oiiotool)
//   reflect     fedcba|abcdefgh|hgfedc   (edge sample repeated)
//   reflect101  gfedcb|abcdefgh|gfedcb   (OpenCV's default; edge not repeated)
//   wrap        cdefgh|abcdefgh|abcdef   (periodic)
//   constant    VVVVVV|abcdefgh|VVVVVV   (every channel reads V; with alpha,
//                                         wide_constant_lane in wide_math.hpp)
//
// Offsets of any size are allowed (a radius larger than the image reflects
// or wraps as many times as needed).
#pragma once

#include <cstdint>
#include <string>

#include "src/hd.hpp"

namespace imgpar {

enum class BorderMode : int { Replicate = 0, Reflect = 1, Reflect101 = 2, Wrap = 3, Constant = 4 };

struct Border {
    BorderMode mode = BorderMode::Replicate;
    std::uint8_t value = 0;  // for Constant
};

// Parses replicate|reflect|reflect101|wrap|constant[:V] (V 0..255, default 0).
// Throws imgpar::Error (usage) with the allowed forms.
Border parse_border(const std::string& text);
// "replicate", ..., "constant:V".
std::string border_name(const Border& b);

// The in-image index that position i (any integer) reads along an axis of n
// samples, or -1 where the constant value is read instead.
IMGPAR_HD int border_index(int i, int n, BorderMode mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case BorderMode::Replicate:
            return i < 0 ? 0 : n - 1;
        case BorderMode::Reflect: {
            // period 2n: 0..n-1 forward, n..2n-1 backward
            int p = 2 * n;
            int m = i % p;
            if (m < 0) m += p;
            return m < n ? m : p - 1 - m;
        }
        case BorderMode::Reflect101: {
            if (n == 1) return 0;
            int p = 2 * (n - 1);
            int m = i % p;
            if (m < 0) m += p;
            return m < n ? m : p - m;
        }
        case BorderMode::Wrap: {
            int m = i % n;
            return m < 0 ? m + n : m;
        }
        case BorderMode::Constant:
        default:
            return -1;
    }
}

}  // namespace imgpar
