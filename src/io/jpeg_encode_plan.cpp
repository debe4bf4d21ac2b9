#include "src/io/jpeg_encode_plan.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "src/error.hpp"

namespace imgpar {

namespace {

// The zigzag order (JPEG's figure A.6): row-major index -> zigzag index.
void fill_zigzag_order(std::uint8_t* zigzag) {
    int k = 0;
    for (int s = 0; s < 15; ++s) {
        // Diagonal s holds the (row, col) with row + col = s; odd diagonals run
        // down-left from the top, even ones up-right from the left.
        const int lo = std::max(0, s - 7), hi = std::min(s, 7);
        for (int i = lo; i <= hi; ++i) {
            const int row = s % 2 ? i : s - i;
            zigzag[8 * row + (s - row)] = static_cast<std::uint8_t>(k++);
        }
    }
}

// Annex C: codes from the count of codes of each length and the symbols.
void derive_codes(const std::uint8_t* counts, const std::uint8_t* symbols, std::size_t n, jpegenc::HuffmanCodes& h) {
    std::memset(&h, 0, sizeof h);
    std::uint32_t code = 0;
    std::size_t k = 0;
    for (int length = 1; length <= 16; ++length) {
        for (int i = 0; i < counts[length - 1]; ++i, ++k) {
            if (k >= n) throw output_error("jpeg", "a Huffman table lists more codes than symbols");
            h.code[symbols[k]] = static_cast<std::uint16_t>(code++);
            h.size[symbols[k]] = static_cast<std::uint8_t>(length);
        }
        code <<= 1;
    }
}

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Reads what the markers say into `plan` (libjpeg-turbo wrote them; anything
// unexpected is this program's bug, reported as an output error).
void read_markers(JpegEncodePlan& plan) {
    const std::vector<std::uint8_t>& j = plan.header;
    auto fail = [](const std::string& why) { throw output_error("jpeg", "unexpected encoder header: " + why); };
    int ids[3] = {0, 0, 0};
    bool scan = false;
    for (std::size_t i = 2; i + 4 <= j.size() && !scan;) {
        if (j[i] != 0xFF) fail("no marker where one should be");
        const int marker = j[i + 1];
        const std::size_t length = static_cast<std::size_t>(j[i + 2]) << 8 | j[i + 3];
        const std::uint8_t* p = j.data() + i + 4;
        const std::uint8_t* end = j.data() + i + 2 + length;
        if (end > j.data() + j.size()) fail("a segment runs past the header");
        if (marker == 0xDB) {
            while (p + 65 <= end) {
                if (*p >> 4 || (*p & 15) > 1) fail("a 16-bit or unexpected quantization table");
                // Listed in zigzag order; kept in row-major order.
                std::uint16_t* divisor = plan.tables.divisor[*p & 15];
                for (int i = 0; i < 64; ++i) divisor[i] = static_cast<std::uint16_t>(p[1 + plan.tables.zigzag[i]] * 8);
                p += 65;
            }
        } else if (marker == 0xC4) {
            while (p + 17 <= end) {
                const int kind = *p >> 4, id = *p & 15;
                if (kind > 1 || id > 1) fail("an unexpected Huffman table");
                std::size_t n = 0;
                for (int l = 0; l < 16; ++l) n += p[1 + l];
                if (p + 17 + n > end) fail("a Huffman table runs past its segment");
                derive_codes(p + 1, p + 17, n, kind ? plan.tables.ac[id] : plan.tables.dc[id]);
                p += 17 + n;
            }
        } else if (marker == 0xC0 || marker == 0xC1) {
            plan.scan.components = p[5];
            if (p[0] != 8 || (plan.scan.components != 1 && plan.scan.components != 3)) fail("not 8-bit gray or YCbCr");
            for (int c = 0; c < plan.scan.components; ++c) {
                ids[c] = p[6 + 3 * c];
                plan.scan.comp[c].h = p[7 + 3 * c] >> 4;
                plan.scan.comp[c].v = p[7 + 3 * c] & 15;
                plan.scan.comp[c].quant_table = p[8 + 3 * c];
                if (plan.scan.comp[c].quant_table > 1) fail("an unexpected quantization table number");
            }
        } else if (marker == 0xDD) {
            plan.scan.restart_mcus = static_cast<std::uint64_t>(p[0]) << 8 | p[1];
        } else if (marker == 0xDA) {
            if (p[0] != plan.scan.components) fail("a scan without every component");
            for (int c = 0; c < plan.scan.components; ++c) {
                if (p[1 + 2 * c] != ids[c]) fail("components scanned out of order");
                plan.scan.comp[c].huffman_table = p[2 + 2 * c] >> 4;
                if (plan.scan.comp[c].huffman_table > 1 || (p[2 + 2 * c] & 15) != plan.scan.comp[c].huffman_table)
                    fail("unexpected Huffman table numbers");
            }
            scan = true;
        }
        i += 2 + length;
    }
    if (!scan || plan.scan.components == 0) fail("no frame or scan header");
}

}  // namespace

JpegEncodePlan plan_jpeg_encode(int width, int height, int channels, int quality, ChromaSubsampling chroma) {
    JpegEncodePlan plan;
    plan.width = width;
    plan.height = height;
    plan.header = jpeg_stream_header(width, height, channels, quality, chroma);
    fill_zigzag_order(plan.tables.zigzag);
    read_markers(plan);
    int hmax = 1, vmax = 1;
    for (int c = 0; c < plan.scan.components; ++c) {
        hmax = std::max(hmax, plan.scan.comp[c].h);
        vmax = std::max(vmax, plan.scan.comp[c].v);
    }
    int first = 0;
    for (int c = 0; c < plan.scan.components; ++c) {
        jpegenc::ScanComponent& k = plan.scan.comp[c];
        k.hdiv = hmax / k.h;
        k.vdiv = vmax / k.v;
        if (k.hdiv * k.h != hmax || k.vdiv * k.v != vmax || k.hdiv > 2 || k.vdiv > 2)
            throw output_error("jpeg", "unexpected encoder header: sampling other than 4:4:4, 4:2:2 or 4:2:0");
        k.width_in_blocks = ceil_div(ceil_div(width, k.hdiv), 8);
        k.height_in_blocks = ceil_div(ceil_div(height, k.vdiv), 8);
        if (plan.scan.components == 1) k.h = k.v = 1;  // a one-component scan's MCU is one block
        k.first_block = first;
        first += k.h * k.v;
    }
    plan.scan.blocks_per_mcu = first;
    if (plan.scan.components == 1) {
        plan.scan.mcus_across = plan.scan.comp[0].width_in_blocks;
        plan.mcus_down = plan.scan.comp[0].height_in_blocks;
    } else {
        plan.scan.mcus_across = ceil_div(width, 8 * hmax);
        plan.mcus_down = ceil_div(height, 8 * vmax);
    }
    plan.mcus = static_cast<std::uint64_t>(plan.scan.mcus_across) * static_cast<std::uint64_t>(plan.mcus_down);
    plan.blocks = plan.mcus * static_cast<std::uint64_t>(plan.scan.blocks_per_mcu);
    if (plan.scan.restart_mcus == 0) plan.scan.restart_mcus = plan.mcus;
    plan.segments = (plan.mcus + plan.scan.restart_mcus - 1) / plan.scan.restart_mcus;
    return plan;
}

std::vector<std::uint8_t> assemble_jpeg(const JpegEncodePlan& plan, const std::uint8_t* data,
                                        const std::uint64_t* segment_offsets) {
    const std::uint64_t coded = segment_offsets[plan.segments] - segment_offsets[0];
    std::vector<std::uint8_t> out;
    // Stuffing adds a byte per 0xFF: rare in coded data, so a little room.
    out.reserve(plan.header.size() + coded + coded / 64 + 2 * plan.segments + 2);
    out.insert(out.end(), plan.header.begin(), plan.header.end());
    for (std::uint64_t s = 0; s < plan.segments; ++s) {
        const std::uint8_t* p = data + segment_offsets[s];
        const std::uint8_t* end = data + segment_offsets[s + 1];
        while (p < end) {
            const void* ff = std::memchr(p, 0xFF, static_cast<std::size_t>(end - p));
            const std::uint8_t* stop = ff ? static_cast<const std::uint8_t*>(ff) + 1 : end;
            out.insert(out.end(), p, stop);
            if (ff) out.push_back(0x00);
            p = stop;
        }
        if (s + 1 < plan.segments) {
            out.push_back(0xFF);
            out.push_back(static_cast<std::uint8_t>(0xD0 + s % 8));
        }
    }
    out.push_back(0xFF);
    out.push_back(0xD9);
    return out;
}

}  // namespace imgpar
