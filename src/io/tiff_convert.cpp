// A TIFF page's samples as stored, converted to imgpar's pixels: gray,
// gray+alpha, RGB or RGBA, with unassociated alpha.
#include "src/io/tiff_samples.hpp"

#if IMGPAR_HAVE_LIBTIFF

#include <algorithm>
#include <limits>

#include "src/error.hpp"

namespace imgpar {

namespace {

// Divides premultiplied colour by its alpha, rounded to nearest, clamped
// (damaged files can hold colour above alpha); zero alpha gives black.
template <typename T>
T unassociate(std::uint32_t c, std::uint32_t a) {
    constexpr std::uint32_t top = std::numeric_limits<T>::max();
    if (a == 0) return 0;
    const std::uint64_t v = (std::uint64_t{c} * top + a / 2) / a;
    return static_cast<T>(std::min<std::uint64_t>(v, top));
}

// The colour map as 16-bit values. Some writers store 8-bit values in it
// (none above 255): those are widened by 257, as libtiff's RGBA reader does.
struct Palette {
    std::vector<std::uint16_t> r, g, b;
};
Palette read_palette(TiffFile& f, const TiffLayout& l) {
    std::uint16_t *r = nullptr, *g = nullptr, *b = nullptr;
    if (!TIFFGetField(f.get(), TIFFTAG_COLORMAP, &r, &g, &b) || !r || !g || !b)
        throw input_error(f.name(), "the palette TIFF has no colour map");
    const std::size_t n = std::size_t{1} << l.bits;
    Palette p{{r, r + n}, {g, g + n}, {b, b + n}};
    bool wide = false;
    for (std::size_t i = 0; i < n; ++i) wide = wide || p.r[i] > 255 || p.g[i] > 255 || p.b[i] > 255;
    if (!wide)
        for (std::size_t i = 0; i < n; ++i) {
            p.r[i] = static_cast<std::uint16_t>(p.r[i] * 257);
            p.g[i] = static_cast<std::uint16_t>(p.g[i] * 257);
            p.b[i] = static_cast<std::uint16_t>(p.b[i] * 257);
        }
    return p;
}

// (max - x)(max - k) / max, rounded to nearest.
template <typename T>
T ink_to_light(std::uint32_t x, std::uint32_t k) {
    constexpr std::uint64_t top = std::numeric_limits<T>::max();
    return static_cast<T>(((top - x) * (top - k) + top / 2) / top);
}

}  // namespace

bool tiff_samples_are_pixels(const TiffLayout& l) {
    return l.path == TiffPath::Samples && (l.bits == 8 || l.bits == 16 || l.floating) &&
           (l.photometric == PHOTOMETRIC_MINISBLACK || l.photometric == PHOTOMETRIC_RGB) && l.samples == l.channels &&
           !l.associated;
}

template <typename T>
Image<T> convert_tiff_samples(const std::vector<T>& stored, TiffFile& f, const TiffLayout& l,
                              std::vector<std::string>& warnings) {
    constexpr std::uint32_t top = std::numeric_limits<T>::max();
    const bool palette = l.photometric == PHOTOMETRIC_PALETTE;
    const bool cmyk = l.photometric == PHOTOMETRIC_SEPARATED;
    const bool white = l.photometric == PHOTOMETRIC_MINISWHITE;
    // Samples of fewer than 8 bits widen to 8 exactly: times 255, 85 or 17.
    const std::uint32_t widen = l.bits < 8 && !palette ? 255u / ((1u << l.bits) - 1) : 1;
    Palette map;
    if (palette) {
        map = read_palette(f, l);
        warnings.push_back("palette TIFF converted to " + std::string(l.alpha ? "RGBA" : "RGB"));
    }
    if (cmyk)
        warnings.push_back("CMYK TIFF converted to " + std::string(l.alpha ? "RGBA" : "RGB") +
                           " without colour management (R = (1 - C)(1 - K), G = (1 - M)(1 - K), B = (1 - Y)(1 - K))");
    const int kept = l.colour_samples + (l.alpha ? 1 : 0);
    if (l.samples > kept)
        warnings.push_back("TIFF has " + std::to_string(l.samples - kept) + " extra sample" +
                           (l.samples - kept > 1 ? "s" : "") + " per pixel beyond " +
                           (l.alpha ? "its alpha" : "its colour") + ": dropped");
    Image<T> out(static_cast<int>(l.width), static_cast<int>(l.height), l.channels);
    const int colour_out = l.channels - (l.alpha ? 1 : 0);
    for (int y = 0; y < out.height(); ++y) {
        const T* s = stored.data() + static_cast<std::size_t>(y) * l.width * static_cast<std::size_t>(l.samples);
        T* d = out.row(y);
        for (int x = 0; x < out.width(); ++x, s += l.samples, d += l.channels) {
            if (palette) {
                const std::size_t i = s[0];
                if constexpr (sizeof(T) == 1) {
                    d[0] = static_cast<T>((2u * map.r[i] + 257u) / 514u);
                    d[1] = static_cast<T>((2u * map.g[i] + 257u) / 514u);
                    d[2] = static_cast<T>((2u * map.b[i] + 257u) / 514u);
                } else {
                    d[0] = map.r[i], d[1] = map.g[i], d[2] = map.b[i];
                }
            } else if (cmyk) {
                for (int c = 0; c < 3; ++c) d[c] = ink_to_light<T>(s[c] * widen, s[3] * widen);
            } else {
                for (int c = 0; c < colour_out; ++c) {
                    const std::uint32_t v = s[c] * widen;
                    d[c] = static_cast<T>(white ? top - v : v);
                }
            }
            if (!l.alpha) continue;
            const std::uint32_t a = s[l.colour_samples] * widen;
            d[colour_out] = static_cast<T>(a);
            if (l.associated)
                for (int c = 0; c < colour_out; ++c) d[c] = unassociate<T>(d[c], a);
        }
    }
    return out;
}

template ImageU8 convert_tiff_samples<std::uint8_t>(const std::vector<std::uint8_t>&, TiffFile&, const TiffLayout&,
                                                    std::vector<std::string>&);
template ImageU16 convert_tiff_samples<std::uint16_t>(const std::vector<std::uint16_t>&, TiffFile&, const TiffLayout&,
                                                      std::vector<std::string>&);

ImageU8 read_tiff_rgba(TiffFile& f, const TiffLayout& l, std::vector<std::string>& warnings, bool allow_partial) {
    std::vector<std::uint32_t> raster(std::size_t{l.width} * l.height, 0);
    const int ok = TIFFReadRGBAImageOriented(f.get(), l.width, l.height, raster.data(), ORIENTATION_TOPLEFT,
                                             allow_partial ? 0 : 1);
    if (!ok) {
        const std::string why = f.take_error("unreadable");
        if (!allow_partial)
            throw input_error(f.name(), "TIFF data is damaged or truncated (" + why + "); --allow-partial decodes what is there");
        warnings.push_back("TIFF data is damaged or truncated (" + why + "): what could not be read is black (--allow-partial)");
    }
    warnings.push_back("TIFF in " + tiff_colour_name(l.photometric) + " (" + tiff_compression_label(l.compression) +
                       ") converted to " + (l.alpha ? "RGBA" : "RGB") + " by libtiff's RGBA reader");
    ImageU8 out(static_cast<int>(l.width), static_cast<int>(l.height), l.channels);
    const std::uint32_t* p = raster.data();
    for (int y = 0; y < out.height(); ++y) {
        std::uint8_t* d = out.row(y);
        for (int x = 0; x < out.width(); ++x, ++p, d += l.channels) {
            d[0] = static_cast<std::uint8_t>(TIFFGetR(*p));
            d[1] = static_cast<std::uint8_t>(TIFFGetG(*p));
            d[2] = static_cast<std::uint8_t>(TIFFGetB(*p));
            if (l.channels == 4) {
                // The RGBA reader premultiplies: divided out again.
                const std::uint32_t a = TIFFGetA(*p);
                d[3] = static_cast<std::uint8_t>(a);
                for (int c = 0; c < 3; ++c) d[c] = unassociate<std::uint8_t>(d[c], a);
            }
        }
    }
    return out;
}

}  // namespace imgpar

#endif
