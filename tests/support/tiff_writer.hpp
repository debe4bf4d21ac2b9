// TIFF test inputs written through libtiff's own API (not imgpar's
// encoder), so each layout imgpar reads is made by the format's reference
// library: strips or tiles, contiguous or planar, every bit depth and
// colour model, any compression, several pages. Test builds with libtiff only.
#pragma once

#if IMGPAR_HAVE_LIBTIFF

#include <doctest/doctest.h>
#include <tiffio.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace imgpar::test {

struct TiffPage {
    int width = 1, height = 1, samples = 1, bits = 8;
    int photometric = PHOTOMETRIC_MINISBLACK;
    int compression = COMPRESSION_NONE;
    bool planar = false;        // PLANARCONFIG_SEPARATE
    int tile = 0;               // tile side (a multiple of 16); 0: strips
    int rows_per_strip = 0;     // 0: libtiff's default
    bool floating = false;      // IEEE float samples: 32-bit, or 64-bit where bits is 64
    int predictor = 0;          // 0: none
    std::vector<std::uint16_t> extra;     // ExtraSamples
    std::vector<std::uint16_t> colormap;  // palette: red, green, blue, 2^bits each
    bool ycbcr = false;         // JPEG: stored as YCbCr, given as RGB
    std::vector<std::uint8_t> icc;
    // Samples, interleaved, width x height x samples: integer values as
    // stored (0 .. 2^bits - 1), or the float values.
    std::vector<double> values;
};

namespace detail {

inline void pack_row(const TiffPage& p, int y, int x0, int count, int first, int step, std::vector<std::uint8_t>& out) {
    // count samples: (x0 + i) * samples + first + j for interleaved runs of `step`
    std::fill(out.begin(), out.end(), std::uint8_t{0});
    for (int i = 0; i < count; ++i) {
        const int x = x0 + i / step;
        const int s = first + i % step;
        if (x >= p.width || y >= p.height) continue;
        const double v = p.values[(static_cast<std::size_t>(y) * p.width + x) * p.samples + s];
        if (p.floating && p.bits == 64) {
            std::memcpy(out.data() + 8 * i, &v, 8);
        } else if (p.floating) {
            const float f = static_cast<float>(v);
            std::memcpy(out.data() + 4 * i, &f, 4);
        } else if (p.bits == 16) {
            const std::uint16_t u = static_cast<std::uint16_t>(v);
            std::memcpy(out.data() + 2 * i, &u, 2);
        } else if (p.bits == 8) {
            out[i] = static_cast<std::uint8_t>(v);
        } else {
            const int bit = i * p.bits;
            out[bit / 8] |= static_cast<std::uint8_t>(static_cast<unsigned>(v) << (8 - p.bits - bit % 8));
        }
    }
}

}  // namespace detail

// Writes the pages to `path` with libtiff.
inline void write_tiff(const std::string& path, const std::vector<TiffPage>& pages) {
    TIFF* t = TIFFOpen(path.c_str(), "w");
    REQUIRE(t);
    for (const TiffPage& p : pages) {
        REQUIRE(p.values.size() == static_cast<std::size_t>(p.width) * p.height * p.samples);
        TIFFSetField(t, TIFFTAG_IMAGEWIDTH, p.width);
        TIFFSetField(t, TIFFTAG_IMAGELENGTH, p.height);
        TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, p.samples);
        const int bits = p.floating ? (p.bits == 64 ? 64 : 32) : p.bits;
        TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, bits);
        TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, p.floating ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
        TIFFSetField(t, TIFFTAG_COMPRESSION, p.compression);
        TIFFSetField(t, TIFFTAG_PHOTOMETRIC, p.ycbcr ? PHOTOMETRIC_YCBCR : p.photometric);
        TIFFSetField(t, TIFFTAG_PLANARCONFIG, p.planar ? PLANARCONFIG_SEPARATE : PLANARCONFIG_CONTIG);
        if (p.ycbcr) TIFFSetField(t, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        if (p.compression == COMPRESSION_JPEG) TIFFSetField(t, TIFFTAG_JPEGQUALITY, 90);
        if (p.predictor) TIFFSetField(t, TIFFTAG_PREDICTOR, p.predictor);
        if (!p.extra.empty()) TIFFSetField(t, TIFFTAG_EXTRASAMPLES, static_cast<std::uint16_t>(p.extra.size()), p.extra.data());
        if (!p.colormap.empty()) {
            const std::size_t n = p.colormap.size() / 3;
            TIFFSetField(t, TIFFTAG_COLORMAP, p.colormap.data(), p.colormap.data() + n, p.colormap.data() + 2 * n);
        }
        if (!p.icc.empty()) TIFFSetField(t, TIFFTAG_ICCPROFILE, static_cast<std::uint32_t>(p.icc.size()), p.icc.data());
        if (pages.size() > 1) TIFFSetField(t, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
        const int planes = p.planar ? p.samples : 1;
        const int per_pixel = p.planar ? 1 : p.samples;
        if (p.tile) {
            TIFFSetField(t, TIFFTAG_TILEWIDTH, p.tile);
            TIFFSetField(t, TIFFTAG_TILELENGTH, p.tile);
            const std::size_t row = (static_cast<std::size_t>(p.tile) * per_pixel * bits + 7) / 8;
            std::vector<std::uint8_t> tile(row * p.tile), line(row);
            for (int s = 0; s < planes; ++s)
                for (int ty = 0; ty < p.height; ty += p.tile)
                    for (int tx = 0; tx < p.width; tx += p.tile) {
                        for (int y = 0; y < p.tile; ++y) {
                            detail::pack_row(p, ty + y, tx, p.tile * per_pixel, p.planar ? s : 0, per_pixel, line);
                            std::memcpy(tile.data() + y * row, line.data(), row);
                        }
                        REQUIRE(TIFFWriteTile(t, tile.data(), tx, ty, 0, static_cast<std::uint16_t>(s)) >= 0);
                    }
        } else {
            TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, p.rows_per_strip ? p.rows_per_strip : TIFFDefaultStripSize(t, 0));
            const std::size_t row = (static_cast<std::size_t>(p.width) * per_pixel * bits + 7) / 8;
            std::vector<std::uint8_t> line(row);
            for (int s = 0; s < planes; ++s)
                for (int y = 0; y < p.height; ++y) {
                    detail::pack_row(p, y, 0, p.width * per_pixel, p.planar ? s : 0, per_pixel, line);
                    REQUIRE(TIFFWriteScanline(t, line.data(), static_cast<std::uint32_t>(y), static_cast<std::uint16_t>(s)) >= 0);
                }
        }
        REQUIRE(TIFFWriteDirectory(t));
    }
    TIFFClose(t);
}

// A page of `samples` samples per pixel of `bits`, each value a function of
// its place, within 0 .. 2^bits - 1.
inline TiffPage pattern_page(int width, int height, int samples, int bits, unsigned seed = 1) {
    TiffPage p;
    p.width = width, p.height = height, p.samples = samples, p.bits = bits;
    p.photometric = samples >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    if (samples == 2 || samples == 4) p.extra = {EXTRASAMPLE_UNASSALPHA};
    const std::uint32_t top = (bits >= 32 ? 0xffffffffu : (1u << bits) - 1);
    std::uint32_t state = seed * 2654435761u + 12345u;
    p.values.resize(static_cast<std::size_t>(width) * height * samples);
    for (double& v : p.values) {
        state = state * 1664525u + 1013904223u;
        v = static_cast<double>((state >> 8) & top);
    }
    return p;
}

}  // namespace imgpar::test

#endif
