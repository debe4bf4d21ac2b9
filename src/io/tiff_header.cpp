// TIFF pages' directories: which page, its layout, the memory decoding it
// takes, and whether its strips or tiles are all in the file.
#include "src/io/tiff_codec.hpp"

#include "src/error.hpp"

#if IMGPAR_HAVE_LIBTIFF
#include <algorithm>

#include "src/io/tiff_layout.hpp"
#endif

namespace imgpar {

const char* tiff_compression_name(TiffCompression c) {
    switch (c) {
        case TiffCompression::None: return "none";
        case TiffCompression::Lzw: return "lzw";
        case TiffCompression::Deflate: return "deflate";
    }
    return "none";
}

#if IMGPAR_HAVE_LIBTIFF

bool tiff_codec_available() { return true; }

std::string tiff_codec_name() {
    // TIFFGetVersion: "LIBTIFF, Version 4.5.0\nCopyright ...".
    std::string v = TIFFGetVersion();
    const auto at = v.find("Version ");
    if (at == std::string::npos) return "libtiff";
    v = v.substr(at + 8);
    return "libtiff " + v.substr(0, v.find_first_of("\n "));
}

namespace {

// A page beyond the last, said with the pages there are.
[[noreturn]] void no_such_page(const std::string& name, int page, int pages) {
    throw input_error(name, "page " + std::to_string(page) + " does not exist: the TIFF has " + std::to_string(pages) +
                                (pages == 1 ? " page (0)" : " pages (0 to " + std::to_string(pages - 1) + ")"));
}

// The first strip or tile whose data is missing or lies past the end of
// the file, as a sentence; "" when all are there. A page needs at least a
// byte of the file for each (libtiff cuts one uncompressed strip into
// strips of about 8 KiB, each within it; other strips need an offset and a
// count in the file), so a count above the file's size is said at once,
// and the walk is bounded by the file's size.
std::string missing_data(TiffFile& f, const TiffLayout& l, std::uint64_t file_bytes) {
    const char* what = l.tiled ? "tile" : "strip";
    if (l.striles > 1 && static_cast<std::uint64_t>(l.striles) > file_bytes)
        return "the page has " + std::to_string(l.striles) + " " + what + "s, more than a file of " +
               std::to_string(file_bytes) + " bytes can hold";
    for (std::uint32_t i = 0; i < l.striles; ++i) {
        int err = 0;
        const std::uint64_t offset = TIFFGetStrileOffsetWithErr(f.get(), i, &err);
        const std::uint64_t count = err ? 0 : TIFFGetStrileByteCountWithErr(f.get(), i, &err);
        if (err || count == 0)
            return std::string(what) + " " + std::to_string(i) + " of " + std::to_string(l.striles) + " has no data";
        if (offset > file_bytes || count > file_bytes - offset)
            return std::string(what) + " " + std::to_string(i) + " of " + std::to_string(l.striles) + " lies at bytes " +
                   std::to_string(offset) + " to " + std::to_string(offset + count) + ", past the end of the file (" +
                   std::to_string(file_bytes) + " bytes)";
    }
    return "";
}

// A little-endian EXIF block whose first directory holds one entry:
// Orientation (0x0112, SHORT, 1) = `orientation`.
std::vector<std::uint8_t> orientation_exif(std::uint16_t orientation) {
    return {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0,
            static_cast<std::uint8_t>(orientation), 0, 0, 0, 0, 0, 0, 0};
}

// The photometric interpretation's name, with the alpha its extra sample
// adds: "gray+alpha", "RGBA", "CMYK+alpha".
std::string tiff_color_space(const TiffLayout& l) {
    const std::string colour = tiff_colour_name(l.photometric);
    if (!l.alpha) return colour;
    return colour == "RGB" ? "RGBA" : colour + "+alpha";
}

std::uint64_t decoder_bytes(TIFF* t, const TiffLayout& l) {
    const std::uint64_t pixels = std::uint64_t{l.width} * l.height;
    const std::uint64_t fixed = (std::uint64_t{1} << 20) + std::uint64_t{l.striles} * 16;  // libtiff's state, offsets
    if (l.path == TiffPath::Rgba) return fixed + pixels * 4 + (l.tiled ? TIFFTileSize64(t) : TIFFStripSize64(t));
    const std::uint64_t strile = l.tiled ? TIFFTileSize64(t) : TIFFStripSize64(t);
    const std::uint64_t stored = pixels * static_cast<std::uint64_t>(l.samples) * static_cast<std::uint64_t>(l.kept_bytes());
    const std::uint64_t wide = l.bits > 8 ? pixels * static_cast<std::uint64_t>(l.channels) * 2 : 0;
    return fixed + strile + stored + wide;
}

// The XMP packet, the IPTC records and the description of the current
// directory (see TiffHeaderInfo). libtiff hands RichTIFFIPTC over in 4-byte
// units; the zero bytes padding the last one are dropped.
void read_text_metadata(TIFF* t, TiffHeaderInfo& h) {
    std::uint32_t size = 0;
    void* data = nullptr;
    if (TIFFGetField(t, TIFFTAG_XMLPACKET, &size, &data) && data && size > 0) {
        const auto* p = static_cast<const std::uint8_t*>(data);
        h.xmp.assign(p, p + size);
    }
    size = 0;
    data = nullptr;
    if (TIFFGetField(t, TIFFTAG_RICHTIFFIPTC, &size, &data) && data && size > 0) {
        const auto* p = static_cast<const std::uint8_t*>(data);
        const std::size_t bytes = static_cast<std::size_t>(size) * (TIFFFieldWithTag(t, TIFFTAG_RICHTIFFIPTC) &&
                                                                            TIFFFieldDataType(TIFFFieldWithTag(t, TIFFTAG_RICHTIFFIPTC)) == TIFF_LONG
                                                                        ? 4
                                                                        : 1);
        h.iptc.assign(p, p + bytes);
        while (!h.iptc.empty() && h.iptc.back() == 0) h.iptc.pop_back();
    }
    char* description = nullptr;
    if (TIFFGetField(t, TIFFTAG_IMAGEDESCRIPTION, &description) && description && *description) h.description = description;
}

}  // namespace

TiffHeaderInfo tiff_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes, int page,
                                std::uint64_t max_memory) {
    TiffFile f(name, bytes, max_memory);
    TiffHeaderInfo h;
    // libtiff walks the chain of directories and stops at a loop.
    const tdir_t count = TIFFNumberOfDirectories(f.get());
    h.pages = static_cast<int>(std::min<tdir_t>(count, 1 << 30));
    if (page < 0 || page >= h.pages) no_such_page(name, page, h.pages);
    if (page > 0 && !TIFFSetDirectory(f.get(), static_cast<tdir_t>(page)))
        throw input_error(name, "page " + std::to_string(page) + "'s directory is unreadable (" +
                                    f.take_error("libtiff could not read it") + ")");
    h.page = page;
    const TiffLayout l = read_tiff_layout(f);
    h.width = static_cast<int>(std::min<std::uint32_t>(l.width, 0x7fffffff));
    h.height = static_cast<int>(std::min<std::uint32_t>(l.height, 0x7fffffff));
    h.channels = l.channels;
    h.bit_depth = l.bits;
    h.floating = l.floating;
    h.color_space = tiff_color_space(l);
    h.compression = tiff_compression_label(l.compression);
    h.tiled = l.tiled;
    h.separate_planes = l.separate;
    h.associated_alpha = l.associated;
    h.decoder_bytes = decoder_bytes(f.get(), l);
    h.truncated = missing_data(f, l, bytes.size());
    std::uint32_t icc_size = 0;
    void* icc = nullptr;
    if (TIFFGetField(f.get(), TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc && icc_size > 0) {
        const auto* p = static_cast<const std::uint8_t*>(icc);
        h.icc.assign(p, p + icc_size);
    }
    std::uint16_t orientation = ORIENTATION_TOPLEFT;
    if (TIFFGetField(f.get(), TIFFTAG_ORIENTATION, &orientation) && orientation >= 2 && orientation <= 8)
        h.exif = orientation_exif(orientation);
    read_text_metadata(f.get(), h);
    return h;
}

#endif

bool tiff_keeps_whole_exif(const std::vector<std::uint8_t>& exif) { return exif.size() <= 26; }

#if !IMGPAR_HAVE_LIBTIFF

bool tiff_codec_available() { return false; }
std::string tiff_codec_name() { return ""; }

TiffHeaderInfo tiff_read_header(const std::string& name, const std::vector<std::uint8_t>&, int, std::uint64_t) {
    throw input_error(name, "TIFF files are not supported by this build (imgpar was built without libtiff)");
}
ImageU16 tiff_decode_u16(const std::string& name, const std::vector<std::uint8_t>&, const TiffHeaderInfo&,
                         std::vector<std::string>&, bool, std::uint64_t) {
    throw input_error(name, "TIFF files are not supported by this build (imgpar was built without libtiff)");
}
ImageU8 tiff_decode(const std::string& name, const std::vector<std::uint8_t>&, const TiffHeaderInfo&,
                    std::vector<std::string>&, bool, std::uint64_t) {
    throw input_error(name, "TIFF files are not supported by this build (imgpar was built without libtiff)");
}
std::vector<std::uint8_t> tiff_encode(ConstViewU8, const TiffEncodeOptions&) {
    throw output_error("TIFF", "this build has no TIFF encoder (imgpar was built without libtiff)");
}
std::vector<std::uint8_t> tiff_encode(ConstViewU16, const TiffEncodeOptions&) {
    throw output_error("TIFF", "this build has no TIFF encoder (imgpar was built without libtiff)");
}
void tiff_encode_to_file(int, const std::string& name, ConstViewU8, const TiffEncodeOptions&) {
    throw output_error(name, "this build has no TIFF encoder (imgpar was built without libtiff)");
}
void tiff_encode_to_file(int, const std::string& name, ConstViewU16, const TiffEncodeOptions&) {
    throw output_error(name, "this build has no TIFF encoder (imgpar was built without libtiff)");
}

#endif

}  // namespace imgpar
