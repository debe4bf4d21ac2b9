// libjpeg-turbo as the tests' oracle for imgpar's split JPEG decoding (the
// planes a decoder hands over, src/io/jpeg_color.hpp; the coefficients and
// the inverse DCT, src/io/jpeg_coefficients.hpp and src/io/jpeg_idct.hpp):
// its raw component planes, and JPEGs written from chosen coefficients.
// Only for builds with libjpeg-turbo (IMGPAR_TEST_LIBJPEG).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <jpeglib.h>

#include "tests/support/split_decode_reference.hpp"

namespace imgpar::test {

// libjpeg-turbo compressing a `width` x `height` image of `components` in
// `space` to memory: setup(c) after jpeg_set_defaults, then write(c), which
// starts and feeds the compressor; the bytes when it has finished.
template <typename Setup, typename Write>
std::vector<std::uint8_t> compress_to_memory(int width, int height, int components, J_COLOR_SPACE space, Setup setup,
                                             Write write) {
    jpeg_compress_struct c{};
    jpeg_error_mgr err{};
    c.err = jpeg_std_error(&err);
    err.emit_message = [](j_common_ptr, int) {};  // warnings ("too coarse for baseline") are what some callers want
    jpeg_create_compress(&c);
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&c, &buffer, &size);
    c.image_width = static_cast<JDIMENSION>(width);
    c.image_height = static_cast<JDIMENSION>(height);
    c.input_components = components;
    c.in_color_space = space;
    jpeg_set_defaults(&c);
    setup(c);
    write(c);
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    std::vector<std::uint8_t> out(buffer, buffer + size);
    std::free(buffer);
    return out;
}

// Feeds an interleaved image (rows `stride` bytes apart) to a started compressor.
inline void write_rows(jpeg_compress_struct& c, const std::uint8_t* pixels, std::size_t stride) {
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = const_cast<JSAMPROW>(pixels + static_cast<std::size_t>(c.next_scanline) * stride);
        jpeg_write_scanlines(&c, &row, 1);
    }
}

// The component planes as libjpeg-turbo's inverse DCT leaves them (whole
// blocks: pitch and rows rounded up to whole MCUs).
inline std::vector<Plane> raw_planes(const std::vector<std::uint8_t>& jpeg) {
    jpeg_decompress_struct d{};
    jpeg_error_mgr err{};
    d.err = jpeg_std_error(&err);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, jpeg.data(), static_cast<unsigned long>(jpeg.size()));
    REQUIRE(jpeg_read_header(&d, TRUE) == JPEG_HEADER_OK);
    d.raw_data_out = TRUE;
    jpeg_start_decompress(&d);
    const int n = d.num_components;
    const int mcu_rows = static_cast<int>((d.output_height + d.max_v_samp_factor * DCTSIZE - 1) /
                                          (d.max_v_samp_factor * DCTSIZE));
    std::vector<Plane> planes(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c) {
        const jpeg_component_info& info = d.comp_info[c];
        Plane& p = planes[static_cast<std::size_t>(c)];
        // Whole blocks, rounded up to the component's sampling factor (an MCU's width).
        const int h = info.h_samp_factor;
        p.pitch = static_cast<std::size_t>((static_cast<int>(info.width_in_blocks) + h - 1) / h * h * DCTSIZE);
        p.width = static_cast<int>(info.downsampled_width);
        p.height = static_cast<int>(info.downsampled_height);
        p.data.resize(p.pitch * static_cast<std::size_t>(mcu_rows * info.v_samp_factor * DCTSIZE));
    }
    std::vector<std::vector<JSAMPROW>> rows(static_cast<std::size_t>(n));
    std::vector<JSAMPARRAY> image(static_cast<std::size_t>(n));
    for (int r = 0; r < mcu_rows; ++r) {
        for (int c = 0; c < n; ++c) {
            const int per = d.comp_info[c].v_samp_factor * DCTSIZE;
            Plane& p = planes[static_cast<std::size_t>(c)];
            auto& list = rows[static_cast<std::size_t>(c)];
            list.resize(static_cast<std::size_t>(per));
            for (int i = 0; i < per; ++i) list[static_cast<std::size_t>(i)] = &p.data[(static_cast<std::size_t>(r) * per + i) * p.pitch];
            image[static_cast<std::size_t>(c)] = list.data();
        }
        REQUIRE(jpeg_read_raw_data(&d, image.data(), static_cast<JDIMENSION>(d.max_v_samp_factor * DCTSIZE)) > 0);
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    return planes;
}

// A JPEG of `width` x `height` with `components` (1, or 3 as YCbCr with luma
// sampled h x v times chroma), whose quantization tables (natural order; one
// for luma, one for chroma: values above 255 make it an extended, SOF1, file)
// and coefficients come from the caller: coefficient(component, block_x,
// block_y, k) gives coefficient k (natural order) of each block.
template <typename Coefficient>
std::vector<std::uint8_t> jpeg_from_coefficients(int width, int height, int components, int h, int v,
                                                 const std::uint16_t (&quant)[2][64], Coefficient coefficient) {
    const auto setup = [&](jpeg_compress_struct& c) {
        c.optimize_coding = TRUE;  // tables for whatever the coefficients need
        for (int t = 0; t < 2; ++t) {
            unsigned int table[64];  // jpeg_add_quant_table takes natural order
            for (int k = 0; k < 64; ++k) table[k] = quant[t][k];
            jpeg_add_quant_table(&c, t, table, 100, FALSE);
        }
        if (components == 3) {
            c.comp_info[0].h_samp_factor = h;
            c.comp_info[0].v_samp_factor = v;
            for (int i = 1; i < 3; ++i) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
        }
    };
    // Read by libjpeg-turbo until the compressor finishes, so it outlives `write`.
    std::vector<jvirt_barray_ptr> arrays(static_cast<std::size_t>(components));
    const auto write = [&](jpeg_compress_struct& c) {
        // Block counts as libjpeg-turbo's jdinput.c computes them, rounded up to whole MCUs.
        const int max_h = components == 3 ? h : 1, max_v = components == 3 ? v : 1;
        for (int i = 0; i < components; ++i) {
            const int ch = components == 3 && i == 0 ? h : 1, cv = components == 3 && i == 0 ? v : 1;
            const int bw = ((width * ch + max_h - 1) / max_h + 7) / 8, bh = ((height * cv + max_v - 1) / max_v + 7) / 8;
            const int rw = (bw + ch - 1) / ch * ch, rh = (bh + cv - 1) / cv * cv;
            arrays[static_cast<std::size_t>(i)] = (*c.mem->request_virt_barray)(
                reinterpret_cast<j_common_ptr>(&c), JPOOL_IMAGE, TRUE, static_cast<JDIMENSION>(rw),
                static_cast<JDIMENSION>(rh), static_cast<JDIMENSION>(cv));
        }
        jpeg_write_coefficients(&c, arrays.data());
        for (int i = 0; i < components; ++i) {
            const jpeg_component_info& info = c.comp_info[i];
            for (JDIMENSION by = 0; by < info.height_in_blocks; ++by) {
                JBLOCKARRAY row = (*c.mem->access_virt_barray)(reinterpret_cast<j_common_ptr>(&c),
                                                               arrays[static_cast<std::size_t>(i)], by, 1, TRUE);
                for (JDIMENSION bx = 0; bx < info.width_in_blocks; ++bx)
                    for (int k = 0; k < 64; ++k)
                        row[0][bx][k] = static_cast<JCOEF>(coefficient(i, static_cast<int>(bx), static_cast<int>(by), k));
            }
        }
    };
    return compress_to_memory(width, height, components, components == 1 ? JCS_GRAYSCALE : JCS_YCbCr, setup, write);
}

// A colour JPEG whose components come in a scan each (a multi-scan
// sequential file), cut after luma's scan: chroma is never carried, so
// libjpeg-turbo has no quantization table for it.
inline std::vector<std::uint8_t> jpeg_with_luma_scan_only(const std::uint8_t* rgb, int width, int height) {
    jpeg_scan_info scans[3] = {};
    for (int i = 0; i < 3; ++i) {
        scans[i].comps_in_scan = 1;
        scans[i].component_index[0] = i;
        scans[i].Se = 63;
    }
    std::vector<std::uint8_t> out = compress_to_memory(
        width, height, 3, JCS_RGB,
        [&](jpeg_compress_struct& c) {
            c.scan_info = scans;
            c.num_scans = 3;
        },
        [&](jpeg_compress_struct& c) {
            jpeg_start_compress(&c, TRUE);
            write_rows(c, rgb, static_cast<std::size_t>(width) * 3);
        });
    // Cut at the second SOS marker and end the file there.
    int seen = 0;
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
        if (out[i] == 0xFF && out[i + 1] == 0xDA && ++seen == 2) {
            out.resize(i);
            out.push_back(0xFF);
            out.push_back(0xD9);
            break;
        }
    REQUIRE(seen == 2);
    return out;
}

// A forged file: random quantization tables from gentle to the 16-bit extreme
// (an SOF1 file) and coefficients of every magnitude a file can hold (AC to
// 1023, DC within reach of its differences), denser or sparser, in layout
// `round` % 4 (gray, 4:4:4, 4:2:2, 4:2:0), of a random size.
struct ForgedJpeg {
    std::vector<std::uint8_t> bytes;
    int width = 0, height = 0;
};

inline ForgedJpeg forged_jpeg(std::mt19937& rng, int round) {
    std::uint16_t quant[2][64];
    const int top = round % 4 == 0 ? 32767 : round % 4 == 1 ? 255 : round % 4 == 2 ? 40 : 4;
    for (auto& table : quant)
        for (auto& q : table) q = static_cast<std::uint16_t>(1 + rng() % static_cast<unsigned>(top));
    const int reach = round % 5 == 0 ? 1023 : round % 5 == 1 ? 300 : round % 5 == 2 ? 60 : round % 5 == 3 ? 8 : 1;
    const int density = 1 + static_cast<int>(rng() % 64);
    std::uniform_int_distribution<int> value(-reach, reach);
    auto coefficient = [&](int, int, int, int k) {
        if (k != 0 && static_cast<int>(rng() % 64) >= density) return 0;
        return value(rng);
    };
    ForgedJpeg f;
    f.width = 1 + static_cast<int>(rng() % 90);
    f.height = 1 + static_cast<int>(rng() % 60);
    const int layouts[][3] = {{1, 1, 1}, {3, 1, 1}, {3, 2, 1}, {3, 2, 2}};
    const int* l = layouts[round % 4];
    f.bytes = jpeg_from_coefficients(f.width, f.height, l[0], l[1], l[2], quant, coefficient);
    return f;
}

}  // namespace imgpar::test
