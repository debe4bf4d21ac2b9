#include "src/io/jpeg_layout.hpp"

#include <cstring>

namespace imgpar {

bool JpegLayout::ycbcr_huffman_8bit() const {
    if (!valid || precision != 8 || components != 3) return false;
    if (frame_marker != 0xC0 && frame_marker != 0xC1) return false;  // baseline or extended Huffman, sequential
    if (adobe_transform == 0) return false;
    if (adobe_transform < 0 && !jfif && component_ids[0] == 'R' && component_ids[1] == 'G' && component_ids[2] == 'B')
        return false;
    return true;
}

std::optional<ChromaLayout> JpegLayout::chroma_layout() const {
    if (!valid || components != 3) return std::nullopt;
    const int hy = sampling_h[0], vy = sampling_v[0], hc = sampling_h[1], vc = sampling_v[1];
    if (sampling_h[2] != hc || sampling_v[2] != vc || hc <= 0 || vc <= 0) return std::nullopt;
    if (hy == hc && vy == vc) return ChromaLayout::Full;
    if (hy == 2 * hc && vy == vc) return ChromaLayout::H2V1;
    if (hy == 2 * hc && vy == 2 * vc) return ChromaLayout::H2V2;
    return std::nullopt;
}

void walk_jpeg_segments(const std::uint8_t* d, std::size_t size,
                        const std::function<bool(int, const std::uint8_t*, std::size_t)>& visit) {
    if (size < 4 || d[0] != 0xFF || d[1] != 0xD8) return;
    std::size_t i = 2;
    while (i + 4 <= size) {
        if (d[i] != 0xFF) return;
        const int marker = d[i + 1];
        if (marker == 0xFF) {  // fill byte
            ++i;
            continue;
        }
        if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) {
            if (!visit(marker, nullptr, 0)) return;
            i += 2;
            continue;
        }
        if (marker == 0xD9) return;
        const std::size_t length = static_cast<std::size_t>(d[i + 2]) << 8 | d[i + 3];
        if (length < 2 || i + 2 + length > size) return;
        if (!visit(marker, d + i + 4, length - 2) || marker == 0xDA) return;
        i += 2 + length;
    }
}

JpegLayout read_jpeg_layout(const std::uint8_t* d, std::size_t size) {
    JpegLayout l;
    walk_jpeg_segments(d, size, [&](int marker, const std::uint8_t* p, std::size_t n) {
        if (marker == 0xE0 && n >= 5 && std::memcmp(p, "JFIF", 5) == 0) l.jfif = true;
        if (marker == 0xEE && n >= 12 && std::memcmp(p, "Adobe", 5) == 0) l.adobe_transform = p[11];
        const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (!frame) return true;
        if (n < 6) return false;
        l.frame_marker = marker;
        l.precision = p[0];
        l.height = p[1] << 8 | p[2];
        l.width = p[3] << 8 | p[4];
        l.components = p[5];
        if (n < 6 + 3 * static_cast<std::size_t>(l.components)) return false;
        for (int c = 0; c < l.components && c < 4; ++c) {
            l.component_ids[c] = p[6 + 3 * c];
            l.sampling_h[c] = p[7 + 3 * c] >> 4;
            l.sampling_v[c] = p[7 + 3 * c] & 15;
        }
        l.valid = true;
        return false;
    });
    return l;
}

}  // namespace imgpar
