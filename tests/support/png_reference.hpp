// Decoders and a writer that are not imgpar's, for checking imgpar's PNG
// codec against them: stb_image (every build), and libpng's simplified
// reading API and classic writing API (builds with libpng). Header-only:
// stb's implementation is compiled into imgpar_host, libpng is linked to the
// unit suite where the build found it.
#pragma once

#include <cstdint>
#include <cstring>
#include <csetjmp>
#include <string>
#include <vector>

#include <stb_image.h>

#include "src/image.hpp"
#include "tests/support/png_crc.hpp"

#if IMGPAR_HAVE_LIBPNG
#include <png.h>
#endif

namespace imgpar::test {

// stb's decoder, channels as stored (an empty image when it fails).
inline ImageU8 decode_with_stb(const std::vector<std::uint8_t>& bytes) {
    int w = 0, h = 0, c = 0;
    unsigned char* p = stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &c, 0);
    if (!p) return ImageU8();
    ImageU8 img(w, h, c);
    std::memcpy(img.data(), p, img.size_bytes());
    stbi_image_free(p);
    return img;
}

// stb's decoder with 16-bit samples rounded to 8 bits as imgpar promises:
// round(v / 257), here as (2v + 257) / 514 (stb's own 8-bit path keeps the
// high byte). Channels as stored; an empty image when it fails.
inline ImageU8 decode_with_stb_rounded(const std::vector<std::uint8_t>& bytes) {
    const int size = static_cast<int>(bytes.size());
    if (!stbi_is_16_bit_from_memory(bytes.data(), size)) return decode_with_stb(bytes);
    int w = 0, h = 0, c = 0;
    stbi_us* p = stbi_load_16_from_memory(bytes.data(), size, &w, &h, &c, 0);
    if (!p) return ImageU8();
    ImageU8 img(w, h, c);
    for (std::size_t i = 0; i < img.sample_count(); ++i) img.data()[i] = static_cast<std::uint8_t>((2u * p[i] + 257u) / 514u);
    stbi_image_free(p);
    return img;
}

#if IMGPAR_HAVE_LIBPNG

// libpng's simplified API, asked for `channels` 8-bit samples (an empty image
// when it fails).
inline ImageU8 decode_with_libpng_simplified(const std::vector<std::uint8_t>& bytes, int channels) {
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size())) return ImageU8();
    static const png_uint_32 formats[] = {PNG_FORMAT_GRAY, PNG_FORMAT_GA, PNG_FORMAT_RGB, PNG_FORMAT_RGBA};
    image.format = formats[channels - 1];
    ImageU8 out(static_cast<int>(image.width), static_cast<int>(image.height), channels);
    if (!png_image_finish_read(&image, nullptr, out.data(), 0, nullptr)) {
        png_image_free(&image);
        return ImageU8();
    }
    return out;
}

// A PNG as a test wants it, written by libpng's classic API: any colour
// type, bit depth, interlacing and transparency chunk.
struct PngSpec {
    int width = 1;
    int height = 1;
    int color_type = PNG_COLOR_TYPE_RGB;
    int bit_depth = 8;
    bool interlaced = false;
    std::vector<png_color> palette;  // PNG_COLOR_TYPE_PALETTE
    std::vector<png_byte> palette_alpha;  // tRNS of a palette image
    bool transparent_color = false;  // tRNS of a gray or RGB image: the sample value 1 (each channel)
    // Rows as libpng takes them: packed at bit_depth, 16-bit big-endian.
    std::vector<std::vector<png_byte>> rows;
};

inline void collect_png(png_structp png, png_bytep data, png_size_t size) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + size);
}

inline void flush_nothing(png_structp) {}

// The file bytes, or an empty vector when libpng refuses the spec.
inline std::vector<std::uint8_t> write_with_libpng(const PngSpec& spec) {
    std::vector<std::uint8_t> out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    // Only C objects between here and the longjmp target.
    std::vector<png_bytep> row_pointers(spec.rows.size());
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return {};
    }
    png_set_write_fn(png, &out, collect_png, flush_nothing);
    png_set_IHDR(png, info, static_cast<png_uint_32>(spec.width), static_cast<png_uint_32>(spec.height), spec.bit_depth,
                 spec.color_type, spec.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (!spec.palette.empty())
        png_set_PLTE(png, info, spec.palette.data(), static_cast<int>(spec.palette.size()));
    if (!spec.palette_alpha.empty())
        png_set_tRNS(png, info, spec.palette_alpha.data(), static_cast<int>(spec.palette_alpha.size()), nullptr);
    if (spec.transparent_color) {
        png_color_16 one{};
        one.gray = one.red = one.green = one.blue = 1;
        png_set_tRNS(png, info, nullptr, 0, &one);
    }
    png_write_info(png, info);
    for (std::size_t y = 0; y < spec.rows.size(); ++y) row_pointers[y] = const_cast<png_bytep>(spec.rows[y].data());
    png_write_image(png, row_pointers.data());
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return out;
}

#endif

}  // namespace imgpar::test
