// Decoding a TIFF page: its strips or tiles, read one at a time through
// libtiff (which decompresses, undoes the predictor and swaps bytes), are
// unpacked into an image of the samples as stored, then converted.
#include "src/io/tiff_codec.hpp"

#if IMGPAR_HAVE_LIBTIFF

#include <algorithm>
#include <cstring>

#include "src/error.hpp"
#include "src/io/sample_depth.hpp"
#include "src/io/tiff_samples.hpp"

namespace imgpar {

namespace {

// A float sample as 16 bits: [0, 1] to 0..65535, rounded to nearest,
// clamped; NaN and negatives to 0.
std::uint16_t float_to_u16(double v) {
    if (!(v > 0.0)) return 0;
    if (v >= 1.0) return 65535;
    return static_cast<std::uint16_t>(v * 65535.0 + 0.5);
}

// `count` samples from a row of a strip or tile (byte-aligned, as TIFF rows
// are) to dst[0], dst[step], ...
template <typename T>
void unpack(const std::uint8_t* src, const TiffLayout& l, std::size_t count, T* dst, std::size_t step) {
    if (l.bits == 8) {
        if (step == 1) {
            std::memcpy(dst, src, count);
            return;
        }
        for (std::size_t i = 0; i < count; ++i) dst[i * step] = static_cast<T>(src[i]);
    } else if (l.bits < 8) {
        const int per_byte = 8 / l.bits;
        const unsigned mask = (1u << l.bits) - 1;
        for (std::size_t i = 0; i < count; ++i) {
            const int shift = 8 - l.bits * (1 + static_cast<int>(i % per_byte));
            dst[i * step] = static_cast<T>((src[i / per_byte] >> shift) & mask);
        }
    } else if (l.floating && l.bits == 64) {
        for (std::size_t i = 0; i < count; ++i) {
            double v;
            std::memcpy(&v, src + 8 * i, 8);
            dst[i * step] = static_cast<T>(float_to_u16(v));
        }
    } else if (l.floating) {
        for (std::size_t i = 0; i < count; ++i) {
            float v;
            std::memcpy(&v, src + 4 * i, 4);
            dst[i * step] = static_cast<T>(float_to_u16(v));
        }
    } else {  // 16 bits, in this machine's order (libtiff swapped them)
        for (std::size_t i = 0; i < count; ++i) {
            std::uint16_t v;
            std::memcpy(&v, src + 2 * i, 2);
            dst[i * step] = static_cast<T>(v);
        }
    }
}

// Reads strips or tiles in turn, into one reused buffer or straight into
// the image. A strile that libtiff cannot decode throws, or with
// `allow_partial` stays black (what decoded of it before the damage is
// kept) and is counted.
struct StrileReader {
    TiffFile& f;
    const TiffLayout& l;
    bool allow_partial;
    std::vector<std::uint8_t> buffer;
    std::uint32_t failed = 0;
    std::string first_failure;

    const std::uint8_t* read(std::uint32_t index) {
        // A strip that fails part way keeps what decoded, the rest black:
        // the buffer starts black (only needed where a failure goes on).
        if (allow_partial) std::fill(buffer.begin(), buffer.end(), std::uint8_t{0});
        read_into(index, buffer.data(), buffer.size());
        return buffer.data();
    }

    // `size` bytes of strile `index` into `to` (which starts black).
    void read_into(std::uint32_t index, std::uint8_t* to, std::size_t size) {
        // Data past the end of the file (a cut file, --allow-partial) is
        // passed over without asking libtiff, which would say so at length.
        int err = 0;
        const std::uint64_t offset = TIFFGetStrileOffsetWithErr(f.get(), index, &err);
        const std::uint64_t count = err ? 0 : TIFFGetStrileByteCountWithErr(f.get(), index, &err);
        const bool there = !err && count > 0 && offset <= f.size && count <= f.size - offset;
        const auto n = static_cast<tmsize_t>(size);
        const tmsize_t got = !there ? -1
                             : l.tiled ? TIFFReadEncodedTile(f.get(), index, to, n)
                                       : TIFFReadEncodedStrip(f.get(), index, to, n);
        if (got < 0) {
            const std::string what = std::string(l.tiled ? "tile " : "strip ") + std::to_string(index) + " of " +
                                     std::to_string(l.striles) + ": " +
                                     (there ? f.take_error("unreadable") : std::string("its data is not in the file"));
            if (!allow_partial)
                throw input_error(f.name(), "TIFF data is damaged or truncated (" + what +
                                                "); --allow-partial decodes what is there");
            if (failed++ == 0) first_failure = what;
        }
    }
};

// The sample rows of `out`: width x samples each.
template <typename T>
struct Rows {
    T* data;
    std::size_t row_samples;
    T* row(std::uint32_t y) const { return data + static_cast<std::size_t>(y) * row_samples; }
};

// Strips are tiles as wide as the image: both are read in the file's
// order (plane by plane, then top to bottom, left to right), and the part
// of each within the image unpacked.
template <typename T>
void read_blocks(StrileReader& r, const Rows<T>& out) {
    const TiffLayout& l = r.l;
    const int planes = l.separate ? l.samples : 1;
    const int per_pixel = l.separate ? 1 : l.samples;
    const std::uint32_t bw = l.tiled ? l.tile_width : l.width;
    const std::uint32_t bh = l.tiled ? l.tile_height : l.rows_per_strip;
    const std::size_t row_bytes = (std::size_t{bw} * per_pixel * l.bits + 7) / 8;
    // Contiguous strips of whole 8- or 16-bit samples are the image's rows
    // as they lie in memory: read in place (the image starts black), no copy.
    if (!l.tiled && !l.separate && !l.floating && l.bits == static_cast<int>(8 * sizeof(T))) {
        for (std::uint32_t by = 0, strip = 0; by < l.height; by += bh, ++strip)
            r.read_into(strip, reinterpret_cast<std::uint8_t*>(out.row(by)), std::min(bh, l.height - by) * row_bytes);
        return;
    }
    r.buffer.assign(row_bytes * bh, 0);
    std::uint32_t strip = 0;
    for (int p = 0; p < planes; ++p)
        for (std::uint32_t by = 0; by < l.height; by += bh)
            for (std::uint32_t bx = 0; bx < l.width; bx += bw) {
                const std::uint32_t index =
                    l.tiled ? TIFFComputeTile(r.f.get(), bx, by, 0, static_cast<std::uint16_t>(p)) : strip++;
                const std::uint8_t* data = r.read(index);
                const std::uint32_t rows = std::min(bh, l.height - by);
                const std::uint32_t cols = std::min(bw, l.width - bx);
                for (std::uint32_t y = 0; y < rows; ++y)
                    unpack(data + y * row_bytes, l, std::size_t{cols} * per_pixel,
                           out.row(by + y) + std::size_t{bx} * l.samples + p, static_cast<std::size_t>(planes));
            }
}

// The page's directory again, from the header the caller read.
TiffLayout open_page(TiffFile& f, const TiffHeaderInfo& h) {
    if (h.page > 0 && !TIFFSetDirectory(f.get(), static_cast<tdir_t>(h.page)))
        throw input_error(f.name(), "page " + std::to_string(h.page) + "'s directory is unreadable (" +
                                        f.take_error("libtiff could not read it") + ")");
    const TiffLayout l = read_tiff_layout(f);
    if (static_cast<int>(l.width) != h.width || static_cast<int>(l.height) != h.height || l.channels != h.channels)
        throw input_error(f.name(), "the TIFF's directory changed between reads (corrupt file)");
    return l;
}

void add_warnings(TiffFile& f, std::vector<std::string>& warnings) {
    for (const std::string& w : f.take_warnings()) warnings.push_back("TIFF data: " + w);
}

}  // namespace

template <typename T>
void read_tiff_samples(TiffFile& f, const TiffLayout& l, T* data, std::vector<std::string>& warnings, bool allow_partial) {
    const Rows<T> out{data, std::size_t{l.width} * static_cast<std::size_t>(l.samples)};
    StrileReader r{f, l, allow_partial, {}, 0, {}};
    read_blocks(r, out);
    if (r.failed > 0)
        warnings.push_back("TIFF data is damaged or truncated (" + r.first_failure + (r.failed > 1 ? ", and " + std::to_string(r.failed - 1) + " more" : std::string()) +
                           "): what could not be read is black (--allow-partial)");
}

template void read_tiff_samples<std::uint8_t>(TiffFile&, const TiffLayout&, std::uint8_t*, std::vector<std::string>&, bool);
template void read_tiff_samples<std::uint16_t>(TiffFile&, const TiffLayout&, std::uint16_t*, std::vector<std::string>&,
                                               bool);

namespace {

// The page's pixels: read straight into the image when the samples are
// its pixels, else read as stored and converted.
template <typename T>
Image<T> decode_samples(TiffFile& f, const TiffLayout& l, std::vector<std::string>& warnings, bool allow_partial) {
    if (tiff_samples_are_pixels(l)) {
        Image<T> out(static_cast<int>(l.width), static_cast<int>(l.height), l.channels);
        read_tiff_samples(f, l, out.data(), warnings, allow_partial);
        add_warnings(f, warnings);
        return out;
    }
    std::vector<T> stored(std::size_t{l.width} * l.height * static_cast<std::size_t>(l.samples));
    read_tiff_samples(f, l, stored.data(), warnings, allow_partial);
    add_warnings(f, warnings);
    return convert_tiff_samples(stored, f, l, warnings);
}

}  // namespace

ImageU16 tiff_decode_u16(const std::string& name, const std::vector<std::uint8_t>& bytes, const TiffHeaderInfo& h,
                         std::vector<std::string>& warnings, bool allow_partial, std::uint64_t max_memory) {
    if (h.bit_depth <= 8) throw usage_error("decode", "tiff_decode_u16 is for TIFF pages of more than 8 bits");
    TiffFile f(name, bytes, max_memory);
    const TiffLayout l = open_page(f, h);
    return decode_samples<std::uint16_t>(f, l, warnings, allow_partial);
}

ImageU8 tiff_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const TiffHeaderInfo& h,
                    std::vector<std::string>& warnings, bool allow_partial, std::uint64_t max_memory) {
    if (h.bit_depth > 8) {
        const ImageU16 wide = tiff_decode_u16(name, bytes, h, warnings, allow_partial, max_memory);
        if (h.floating)
            warnings.insert(warnings.begin(), std::to_string(h.bit_depth) +
                                                  "-bit float TIFF converted to 16 bits per sample (0..1 to 0..65535, "
                                                  "clamped, rounded to nearest), then reduced to 8 bits (rounded to nearest)");
        else
            warnings.insert(warnings.begin(), depth_reduced_warning(h.bit_depth, "TIFF"));
        return reduce_to_8_bits(wide.view());
    }
    TiffFile f(name, bytes, max_memory);
    const TiffLayout l = open_page(f, h);
    if (l.path == TiffPath::Rgba) {
        ImageU8 out = read_tiff_rgba(f, l, warnings, allow_partial);
        add_warnings(f, warnings);
        return out;
    }
    return decode_samples<std::uint8_t>(f, l, warnings, allow_partial);
}

}  // namespace imgpar

#endif
