// libjpeg-turbo's encoding arithmetic, per 8x8 block, for an encoder that
// runs each block on a thread of its own (the GPU's): the fixed-point
// RGB -> YCbCr conversion of jccolor.c, the chroma downsampling of
// jcsample.c (a box average with alternating rounding bias), the edge
// padding of jcprepct.c, the integer forward DCT of jfdctint.c ("islow",
// libjpeg-turbo's default), the rounding quantizer of jcdctmgr.c and the
// Huffman symbols of jchuff.c. With these, and the tables and markers
// libjpeg-turbo writes (src/io/jpeg_encode_plan.hpp), an encoder produces
// libjpeg-turbo's file byte for byte. Shared by the CUDA kernels and the
// test that checks the arithmetic against libjpeg-turbo on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/hd.hpp"

namespace imgpar::jpegenc {

// A Huffman table as an encoder uses it: each symbol's code and its length
// in bits (0: the symbol is not in the table).
struct HuffmanCodes {
    std::uint16_t code[256];
    std::uint8_t size[256];
};

// Everything an encode looks up, small enough to pass to a kernel by value.
struct Tables {
    HuffmanCodes dc[2], ac[2];    // [table id]: 0 luma, 1 chroma
    std::uint16_t divisor[2][64]; // [quant table id][row-major index]: the quantizer's step times 8 (the DCT's scale)
    std::uint8_t zigzag[64];      // row-major index in the block -> zigzag index
};

// A component as the scan holds it.
struct ScanComponent {
    int h = 1, v = 1;        // blocks per MCU across and down (1 x 1 in a one-component scan)
    int hdiv = 1, vdiv = 1;  // the image's size over the component's (1 or 2)
    int width_in_blocks = 0, height_in_blocks = 0;  // blocks with samples; the MCU grid may add dummy ones
    int quant_table = 0, huffman_table = 0;
    int first_block = 0;     // where its blocks start in an MCU
};

// The scan: MCUs row by row, each holding every component's h x v blocks in
// turn; an entropy-coded segment every `restart_mcus` MCUs, each restarting
// the DC predictions.
struct ScanGeometry {
    int components = 0;      // 1 (gray) or 3 (YCbCr)
    ScanComponent comp[3];
    int blocks_per_mcu = 0;
    int mcus_across = 0;
    std::uint64_t restart_mcus = 0;
};

// Block `index` of the scan: its component and place, the block whose
// samples it codes, and the block of its component before it in its segment
// (-1: none, the DC prediction starts from 0). The MCU grid's blocks past the
// component's edge are dummies (jccoefct.c): zero AC, and the DC of the
// block before them in the MCU, whose samples they therefore code (only
// their DC is kept).
struct BlockPlace {
    int c;
    int bx, by;              // in the component's plane, in blocks
    int source_bx, source_by;
    bool dummy;
    std::int64_t previous;
};

IMGPAR_HD BlockPlace place_of(const ScanGeometry& g, std::uint64_t index) {
    const std::uint64_t mcu = index / static_cast<std::uint64_t>(g.blocks_per_mcu);
    const int r = static_cast<int>(index % static_cast<std::uint64_t>(g.blocks_per_mcu));
    int c = 0;
    while (c + 1 < g.components && r >= g.comp[c + 1].first_block) ++c;
    const ScanComponent& k = g.comp[c];
    const int i = r - k.first_block;
    const int mx = static_cast<int>(mcu % static_cast<std::uint64_t>(g.mcus_across));
    const int my = static_cast<int>(mcu / static_cast<std::uint64_t>(g.mcus_across));
    BlockPlace p;
    p.c = c;
    p.bx = mx * k.h + i % k.h;
    p.by = my * k.v + i / k.h;
    p.source_bx = p.bx;
    p.source_by = p.by;
    p.dummy = p.bx >= k.width_in_blocks || p.by >= k.height_in_blocks;
    if (p.by >= k.height_in_blocks) {  // below the edge: the chain ends at the MCU's last block of the last row
        const int last = mx * k.h + k.h - 1;
        p.source_bx = last < k.width_in_blocks ? last : k.width_in_blocks - 1;
        p.source_by = k.height_in_blocks - 1;
    } else if (p.dummy) {
        p.source_bx = k.width_in_blocks - 1;
    }
    if (i > 0) p.previous = static_cast<std::int64_t>(index) - 1;
    else if (mcu % g.restart_mcus == 0) p.previous = -1;
    else
        p.previous = static_cast<std::int64_t>((mcu - 1) * static_cast<std::uint64_t>(g.blocks_per_mcu)) + k.first_block +
                     k.h * k.v - 1;
    return p;
}

// jccolor.c's fixed-point conversion (16 fraction bits; Cb and Cr rounded
// with ONE_HALF - 1, as there).
IMGPAR_HD int rgb_to_y(int r, int g, int b) { return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16; }
IMGPAR_HD int rgb_to_cb(int r, int g, int b) {
    return (-11059 * r - 21709 * g + 32768 * b + (128 << 16) + 32767) >> 16;
}
IMGPAR_HD int rgb_to_cr(int r, int g, int b) {
    return (32768 * r - 27439 * g - 5329 * b + (128 << 16) + 32767) >> 16;
}

// Interleaved 8-bit pixels with 1-4 channels: component `c` of the JPEG (0 Y
// or gray, 1 Cb, 2 Cr) at a pixel, coordinates clamped to the image, which is
// how libjpeg-turbo pads the right and bottom edges (it repeats the last
// column and row). Gray and gray+alpha give gray; RGB and RGBA, YCbCr.
struct PixelSource {
    const std::uint8_t* data;
    std::size_t pitch;
    int width, height, channels;

    IMGPAR_HD int component(int c, int x, int y) const {
        x = x < width ? x : width - 1;
        y = y < height ? y : height - 1;
        const std::uint8_t* p = data + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * channels;
        if (channels < 3) return p[0];
        if (c == 0) return rgb_to_y(p[0], p[1], p[2]);
        return c == 1 ? rgb_to_cb(p[0], p[1], p[2]) : rgb_to_cr(p[0], p[1], p[2]);
    }
};

// Sample (x, y) of component `c` after downsampling by `hdiv` x `vdiv` (1 or
// 2 each), as jcsample.c computes it: the average of the 2 or 4 full-size
// samples, with a bias alternating 0,1 (across) or 1,2 (both ways) from
// column to column. Columns past the image repeat its last column before
// averaging (expand_right_edge); rows past the last downsampled row repeat
// that row (jcprepct.c pads the downsampled planes at the bottom).
IMGPAR_HD int downsampled_sample(const PixelSource& src, int c, int hdiv, int vdiv, int x, int y) {
    if (hdiv == 1 && vdiv == 1) return src.component(c, x, y);
    const int last_row = (src.height + vdiv - 1) / vdiv - 1;
    y = y < last_row ? y : last_row;
    const int x0 = 2 * x;
    if (vdiv == 1) return (src.component(c, x0, y) + src.component(c, x0 + 1, y) + (x & 1)) >> 1;
    const int y0 = 2 * y;
    return (src.component(c, x0, y0) + src.component(c, x0 + 1, y0) + src.component(c, x0, y0 + 1) +
            src.component(c, x0 + 1, y0 + 1) + 1 + (x & 1)) >>
           2;
}

// jfdctint.c's jpeg_fdct_islow on level-shifted samples, in place, row-major:
// the outputs are 8 times the true DCT's.
IMGPAR_HD int descale(int x, int n) { return (x + (1 << (n - 1))) >> n; }

IMGPAR_HD void fdct_islow_pass(int* d, int step, int shift_even, int shift_odd, bool first) {
    const int tmp0 = d[0] + d[7 * step], tmp7 = d[0] - d[7 * step];
    const int tmp1 = d[step] + d[6 * step], tmp6 = d[step] - d[6 * step];
    const int tmp2 = d[2 * step] + d[5 * step], tmp5 = d[2 * step] - d[5 * step];
    const int tmp3 = d[3 * step] + d[4 * step], tmp4 = d[3 * step] - d[4 * step];
    const int tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
    // The first pass scales its DC and 4th outputs up by 2^2 (PASS1_BITS);
    // the second takes that scale off again.
    d[0] = first ? (tmp10 + tmp11) * 4 : descale(tmp10 + tmp11, 2);
    d[4 * step] = first ? (tmp10 - tmp11) * 4 : descale(tmp10 - tmp11, 2);
    const int z1e = (tmp12 + tmp13) * 4433;
    d[2 * step] = descale(z1e + tmp13 * 6270, shift_even);
    d[6 * step] = descale(z1e - tmp12 * 15137, shift_even);
    const int z1 = (tmp4 + tmp7) * -7373, z2 = (tmp5 + tmp6) * -20995;
    const int z5 = (tmp4 + tmp6 + tmp5 + tmp7) * 9633;
    const int z3 = (tmp4 + tmp6) * -16069 + z5, z4 = (tmp5 + tmp7) * -3196 + z5;
    d[7 * step] = descale(tmp4 * 2446 + z1 + z3, shift_odd);
    d[5 * step] = descale(tmp5 * 16819 + z2 + z4, shift_odd);
    d[3 * step] = descale(tmp6 * 25172 + z2 + z3, shift_odd);
    d[1 * step] = descale(tmp7 * 12299 + z1 + z4, shift_odd);
}

IMGPAR_HD void fdct_islow(int* block) {
    IMGPAR_UNROLL
    for (int r = 0; r < 8; ++r) fdct_islow_pass(block + 8 * r, 1, 13 - 2, 13 - 2, true);
    IMGPAR_UNROLL
    for (int c = 0; c < 8; ++c) fdct_islow_pass(block + c, 8, 13 + 2, 13 + 2, false);
}

// jcdctmgr.c's quantizer: the DCT output divided by the step times 8,
// rounded half away from zero (libjpeg-turbo multiplies by a reciprocal that
// gives exactly this quotient for every 16-bit input and step).
IMGPAR_HD int quantize(int value, int divisor) {
    const int half = divisor >> 1;
    return value < 0 ? -((half - value) / divisor) : (value + half) / divisor;
}

// The quantized coefficients of the block at `p`, in zigzag order.
IMGPAR_HD void quantized_block(const PixelSource& src, const Tables& t, const ScanGeometry& g, const BlockPlace& p,
                               std::int16_t* zigzag) {
    const ScanComponent& k = g.comp[p.c];
    int block[64];
    IMGPAR_UNROLL
    for (int y = 0; y < 8; ++y)
        IMGPAR_UNROLL
        for (int x = 0; x < 8; ++x)
            block[8 * y + x] =
                downsampled_sample(src, p.c, k.hdiv, k.vdiv, p.source_bx * 8 + x, p.source_by * 8 + y) - 128;
    fdct_islow(block);
    // In row-major order, so that a compiler can keep `block` in registers
    // (the scatter goes to memory).
    const std::uint16_t* divisor = t.divisor[k.quant_table];
    zigzag[0] = static_cast<std::int16_t>(quantize(block[0], divisor[0]));
    IMGPAR_UNROLL
    for (int i = 1; i < 64; ++i)
        zigzag[t.zigzag[i]] = p.dummy ? 0 : static_cast<std::int16_t>(quantize(block[i], divisor[i]));
}

// Bits needed for the magnitude of `v` (JPEG's size category).
IMGPAR_HD int magnitude_bits(int v) {
    unsigned m = static_cast<unsigned>(v < 0 ? -v : v);
    int n = 0;
    while (m) {
        ++n;
        m >>= 1;
    }
    return n;
}

// A symbol's code followed by `extra` low bits of `v` (negative values as
// their complement, F.1.2.1), as (bits, count): at most 16 + 11 bits.
struct CodedBits {
    std::uint32_t bits;
    int count;
};

IMGPAR_HD CodedBits coded(const HuffmanCodes& h, int symbol, int v, int extra) {
    const std::uint32_t low = static_cast<std::uint32_t>(v < 0 ? v - 1 : v) & ((1u << extra) - 1u);
    return {static_cast<std::uint32_t>(h.code[symbol]) << extra | low, h.size[symbol] + extra};
}

// One block's Huffman-coded bits, in order, to `out(bits, count)`: the DC
// difference from the previous block of the component, then the AC
// coefficients as runs of zeros and values, with ZRL for each 16 zeros before
// a value and EOB after the last value (jchuff.c's encode_one_block).
template <typename Out>
IMGPAR_HD void encode_block(const std::int16_t* zigzag, int dc_diff, const HuffmanCodes& dc, const HuffmanCodes& ac,
                            Out& out) {
    const int dc_bits = magnitude_bits(dc_diff);
    const CodedBits d = coded(dc, dc_bits, dc_diff, dc_bits);
    out(d.bits, d.count);
    int run = 0;
    for (int k = 1; k < 64; ++k) {
        const int v = zigzag[k];
        if (v == 0) {
            ++run;
            continue;
        }
        for (; run >= 16; run -= 16) out(ac.code[0xF0], ac.size[0xF0]);
        const int n = magnitude_bits(v);
        const CodedBits a = coded(ac, (run << 4) + n, v, n);
        out(a.bits, a.count);
        run = 0;
    }
    if (run > 0) out(ac.code[0], ac.size[0]);
}

}  // namespace imgpar::jpegenc
