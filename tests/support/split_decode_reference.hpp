// The split JPEG decode (src/gpu/jpeg_idct.hpp) done on the CPU with the
// code the GPU runs: libjpeg-turbo's coefficients, each block through
// src/io/jpeg_idct.hpp, the planes upsampled and converted through
// src/io/jpeg_color.hpp. Its pixels are what the GPU must produce; the unit
// tests, the GPU suite and the split fuzz target compare them with
// libjpeg-turbo. No doctest and no libjpeg here, so the fuzz target can use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/image.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_color.hpp"
#include "src/io/jpeg_idct.hpp"

namespace imgpar::test {

struct Plane {
    std::vector<std::uint8_t> data;
    std::size_t pitch = 0;
    int width = 0, height = 0;  // the component's downsampled size
};

// Every block, copied out of libjpeg-turbo's arrays `piece` blocks at a time
// (pieces that cross rows and components exercise copy_blocks).
inline std::vector<std::int16_t> all_blocks(const JpegCoefficients& k, std::size_t piece = SIZE_MAX) {
    std::vector<std::int16_t> out(k.blocks * 64);
    for (std::size_t first = 0; first < k.blocks; first += piece)
        k.copy_blocks(first, std::min(piece, k.blocks - first), out.data() + first * 64);
    return out;
}

struct SplitPlanes {
    std::vector<Plane> planes;  // whole blocks: rows blocks_wide * 8 bytes apart
    int unsafe_blocks = 0;
};

inline SplitPlanes split_planes(const JpegCoefficients& k, std::size_t piece = SIZE_MAX) {
    SplitPlanes out;
    const std::vector<std::int16_t> coefficients = all_blocks(k, piece);
    for (int c = 0; c < k.components; ++c) {
        const JpegCoefficients::Component& comp = k.component[static_cast<std::size_t>(c)];
        Plane p;
        p.pitch = static_cast<std::size_t>(comp.blocks_wide) * 8;
        p.width = comp.width;
        p.height = comp.height;
        p.data.resize(p.pitch * static_cast<std::size_t>(comp.blocks_high) * 8);
        for (int by = 0; by < comp.blocks_high; ++by)
            for (int bx = 0; bx < comp.blocks_wide; ++bx) {
                const std::int16_t* block =
                    coefficients.data() + (comp.first_block + static_cast<std::size_t>(by) * comp.blocks_wide + bx) * 64;
                std::uint8_t* at = p.data.data() + static_cast<std::size_t>(by) * 8 * p.pitch + static_cast<std::size_t>(bx) * 8;
                if (!jpeg_idct::idct_islow(block, comp.quant.data(), at, static_cast<int>(p.pitch))) ++out.unsafe_blocks;
            }
        out.planes.push_back(std::move(p));
    }
    return out;
}

// The pixels of the planes as the GPU makes them: gray as is, colour through
// jpeg_color.hpp.
inline ImageU8 split_pixels(const SplitPlanes& p, const JpegCoefficients& k) {
    ImageU8 out(k.width, k.height, k.components == 1 ? 1 : 3);
    const Plane& luma = p.planes[0];
    for (int y = 0; y < k.height; ++y)
        for (int x = 0; x < k.width; ++x) {
            const int l = luma.data[static_cast<std::size_t>(y) * luma.pitch + static_cast<std::size_t>(x)];
            if (k.components == 1) {
                out.at(x, y, 0) = static_cast<std::uint8_t>(l);
                continue;
            }
            const ChromaPlane cb{p.planes[1].data.data(), p.planes[1].pitch, p.planes[1].width, p.planes[1].height};
            const ChromaPlane cr{p.planes[2].data.data(), p.planes[2].pitch, p.planes[2].width, p.planes[2].height};
            std::uint8_t rgb[3];
            ycbcr_to_rgb(l, upsampled_chroma(cb, k.layout, x, y), upsampled_chroma(cr, k.layout, x, y), rgb);
            for (int c = 0; c < 3; ++c) out.at(x, y, c) = rgb[c];
        }
    return out;
}

}  // namespace imgpar::test
