#include "src/io/jpeg_scan_header.hpp"

#include "src/io/jpeg_layout.hpp"

namespace imgpar {

namespace {

int be16(const std::uint8_t* p) { return p[0] << 8 | p[1]; }

bool read_dht(JpegScanHeader& h, const std::uint8_t* p, std::size_t n) {
    std::size_t i = 0;
    while (i < n) {
        if (i + 17 > n) return false;
        const int table_class = p[i] >> 4, id = p[i] & 15;
        if (table_class > 1 || id > 3) return false;
        int total = 0;
        for (int k = 0; k < 16; ++k) total += p[i + 1 + static_cast<std::size_t>(k)];
        if (total > 256 || i + 17 + static_cast<std::size_t>(total) > n) return false;
        JpegHuffmanSpec& t = table_class ? h.ac[id] : h.dc[id];
        t = JpegHuffmanSpec{};
        for (int k = 0; k < 16; ++k) t.counts[k] = p[i + 1 + static_cast<std::size_t>(k)];
        for (int k = 0; k < total; ++k) t.values[k] = p[i + 17 + static_cast<std::size_t>(k)];
        t.total = total;
        t.defined = true;
        i += 17 + static_cast<std::size_t>(total);
    }
    return true;
}

bool read_dqt(JpegScanHeader& h, const std::uint8_t* p, std::size_t n) {
    std::size_t i = 0;
    while (i < n) {
        const int precision = p[i] >> 4, id = p[i] & 15;
        if (precision != 0 || id > 3 || i + 65 > n) return false;  // 16-bit tables: left to libjpeg-turbo
        h.quant_defined[id] = true;
        for (int k = 0; k < 64; ++k) h.quant[id][k] = p[i + 1 + static_cast<std::size_t>(k)];
        i += 65;
    }
    return true;
}

bool read_sof(JpegScanHeader& h, int marker, const std::uint8_t* p, std::size_t n) {
    if (h.components || n < 6 || p[0] != 8) return false;
    h.frame_marker = marker;
    h.height = be16(p + 1);
    h.width = be16(p + 3);
    h.components = p[5];
    if (h.width == 0 || h.height == 0 || (h.components != 1 && h.components != 3) ||
        n != 6 + 3 * static_cast<std::size_t>(h.components))
        return false;
    for (int c = 0; c < h.components; ++c) {
        JpegScanComponent& k = h.comp[c];
        k.id = p[6 + 3 * c];
        k.h = p[7 + 3 * c] >> 4;
        k.v = p[7 + 3 * c] & 15;
        k.quant = p[8 + 3 * c];
        if (k.h < 1 || k.h > 4 || k.v < 1 || k.v > 4 || k.quant > 3) return false;
    }
    return true;
}

// One scan over every component, in frame order or not, each once.
bool read_sos(JpegScanHeader& h, const std::uint8_t* p, std::size_t n) {
    if (!h.components || n < 1) return false;
    const int count = p[0];
    if (count != h.components || n != 4 + 2 * static_cast<std::size_t>(count)) return false;
    bool seen[4] = {};
    for (int s = 0; s < count; ++s) {
        int c = 0;
        while (c < h.components && h.comp[c].id != p[1 + 2 * s]) ++c;
        if (c == h.components || seen[c]) return false;
        seen[c] = true;
        h.scan_order[s] = c;
        h.comp[c].dc = p[2 + 2 * s] >> 4;
        h.comp[c].ac = p[2 + 2 * s] & 15;
        if (h.comp[c].dc > 3 || h.comp[c].ac > 3 || !h.dc[h.comp[c].dc].defined || !h.ac[h.comp[c].ac].defined ||
            !h.quant_defined[h.comp[c].quant] || !libjpeg_takes_huffman_table(h.dc[h.comp[c].dc], true) ||
            !libjpeg_takes_huffman_table(h.ac[h.comp[c].ac], false))
            return false;
    }
    const std::uint8_t* tail = p + 1 + 2 * count;
    return tail[0] == 0 && tail[1] == 63 && tail[2] == 0;  // sequential: the whole band, no approximation
}

}  // namespace

// The markers from SOI to the scan (src/io/jpeg_layout.hpp's walk).
bool read_jpeg_scan_header(const std::uint8_t* d, std::size_t size, JpegScanHeader& h) {
    h = JpegScanHeader{};
    bool ok = true;
    walk_jpeg_segments(d, size, [&](int marker, const std::uint8_t* p, std::size_t n) {
        if (marker == 0xC4) ok = read_dht(h, p, n);
        else if (marker == 0xDB) ok = read_dqt(h, p, n);
        else if (marker == 0xDD) ok = n == 2 && ((h.restart_interval = be16(p)), true);
        else if (marker == 0xC0 || marker == 0xC1) ok = read_sof(h, marker, p, n);
        else if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC8 && marker != 0xCC) ok = false;  // other frames
        else if (marker == 0xD8 || marker == 0xDC || marker == 0x00) ok = false;  // a second SOI; DNL; not a marker
        else if (marker == 0xDA && read_sos(h, p, n)) h.scan_data = static_cast<std::size_t>(p + n - d);
        else if (marker == 0xDA) ok = false;
        return ok;
    });
    return ok && h.scan_data != 0;
}

bool libjpeg_takes_huffman_table(const JpegHuffmanSpec& t, bool dc) {
    std::int32_t code = 0;
    for (int length = 1; length <= 16; ++length) {
        code += t.counts[length - 1];
        if (t.counts[length - 1] && code >= (std::int32_t{1} << length)) return false;
        code <<= 1;
    }
    if (dc)
        for (int i = 0; i < t.total; ++i)
            if (t.values[i] > 15) return false;
    return true;
}

}  // namespace imgpar
