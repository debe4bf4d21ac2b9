#include "src/io/tiff_layout.hpp"

#if IMGPAR_HAVE_LIBTIFF

#include <algorithm>

#include "src/error.hpp"

namespace imgpar {

std::string tiff_colour_name(int photometric) {
    switch (photometric) {
        case PHOTOMETRIC_MINISWHITE: return "gray (min-is-white)";
        case PHOTOMETRIC_MINISBLACK: return "gray";
        case PHOTOMETRIC_RGB: return "RGB";
        case PHOTOMETRIC_PALETTE: return "palette";
        case PHOTOMETRIC_MASK: return "transparency mask";
        case PHOTOMETRIC_SEPARATED: return "CMYK";
        case PHOTOMETRIC_YCBCR: return "YCbCr";
        case PHOTOMETRIC_CIELAB: return "CIE L*a*b*";
        case PHOTOMETRIC_ICCLAB: return "ICC L*a*b*";
        case PHOTOMETRIC_ITULAB: return "ITU L*a*b*";
        case PHOTOMETRIC_LOGL: return "LogL";
        case PHOTOMETRIC_LOGLUV: return "LogLuv";
        case PHOTOMETRIC_CFA: return "colour filter array";
        default: return "photometric " + std::to_string(photometric);
    }
}

std::string tiff_compression_label(int compression) {
    switch (compression) {
        case COMPRESSION_NONE: return "none";
        case COMPRESSION_CCITTRLE: return "CCITT RLE";
        case COMPRESSION_CCITTFAX3: return "CCITT Group 3";
        case COMPRESSION_CCITTFAX4: return "CCITT Group 4";
        case COMPRESSION_LZW: return "LZW";
        case COMPRESSION_OJPEG: return "old-style JPEG";
        case COMPRESSION_JPEG: return "JPEG";
        case COMPRESSION_ADOBE_DEFLATE: return "Deflate";
        case COMPRESSION_DEFLATE: return "Deflate (old code)";
        case COMPRESSION_PACKBITS: return "PackBits";
        case COMPRESSION_LZMA: return "LZMA";
        case COMPRESSION_ZSTD: return "Zstandard";
        case COMPRESSION_WEBP: return "WebP";
        case COMPRESSION_JBIG: return "JBIG";
        case COMPRESSION_LERC: return "LERC";
        default: return "compression " + std::to_string(compression);
    }
}

namespace {

// The colour samples a pixel of this interpretation has, or 0 for those
// imgpar leaves to libtiff's RGBA interface.
int colour_samples(int photometric, int inkset, int samples) {
    switch (photometric) {
        case PHOTOMETRIC_MINISWHITE:
        case PHOTOMETRIC_MINISBLACK:
        case PHOTOMETRIC_PALETTE: return 1;
        case PHOTOMETRIC_RGB: return 3;
        case PHOTOMETRIC_SEPARATED: return inkset == INKSET_CMYK && samples >= 4 ? 4 : 0;
        default: return 0;
    }
}

}  // namespace

TiffLayout read_tiff_layout(TiffFile& f) {
    TIFF* t = f.get();
    const std::string& name = f.name();
    auto fail = [&](const std::string& why) -> void { throw input_error(name, why); };
    TiffLayout l;
    std::uint16_t u16 = 0;
    if (!TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &l.width) || !TIFFGetField(t, TIFFTAG_IMAGELENGTH, &l.height))
        fail("the TIFF directory has no image width or length");
    if (l.width == 0 || l.height == 0) fail("the header gives a zero image size");
    TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &u16);
    l.samples = u16;
    TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &u16);
    l.bits = u16;
    std::uint16_t format = SAMPLEFORMAT_UINT;
    TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLEFORMAT, &format);
    std::uint16_t photometric = 0;
    if (!TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &photometric))
        photometric = l.samples >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;  // as libtiff's readers guess
    l.photometric = photometric;
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(t, TIFFTAG_COMPRESSION, &compression);
    l.compression = compression;
    std::uint16_t planar = PLANARCONFIG_CONTIG;
    TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &planar);
    l.separate = planar == PLANARCONFIG_SEPARATE && l.samples > 1;
    std::uint16_t inkset = INKSET_CMYK;
    TIFFGetFieldDefaulted(t, TIFFTAG_INKSET, &inkset);

    if (l.samples < 1 || l.samples > 16)
        fail("the TIFF has " + std::to_string(l.samples) + " samples per pixel (supported: 1 to 16)");
    if (!TIFFIsCODECConfigured(compression))
        fail("the TIFF's compression (" + tiff_compression_label(compression) + ") is not one this build's libtiff decodes");
    if (format == SAMPLEFORMAT_IEEEFP) {
        if (l.bits != 32 && l.bits != 64)
            fail("the TIFF has " + std::to_string(l.bits) + "-bit float samples (supported: 32- and 64-bit)");
        l.floating = true;
    } else if (format != SAMPLEFORMAT_UINT && format != SAMPLEFORMAT_VOID) {
        fail(std::string("the TIFF has ") + (format == SAMPLEFORMAT_INT ? "signed integer" : "complex") +
             " samples (supported: unsigned integers and 32-bit floats)");
    } else if (l.bits != 1 && l.bits != 2 && l.bits != 4 && l.bits != 8 && l.bits != 16) {
        fail("the TIFF has " + std::to_string(l.bits) + "-bit samples (supported: 1, 2, 4, 8 and 16, and 32-bit float)");
    }

    // JPEG pages stored as YCbCr decode to RGB through libjpeg.
    if (compression == COMPRESSION_JPEG && photometric == PHOTOMETRIC_YCBCR) {
        TIFFSetField(t, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        l.photometric = PHOTOMETRIC_RGB;
    }
    l.colour_samples = colour_samples(l.photometric, inkset, l.samples);
    const bool exotic = l.colour_samples == 0 || compression == COMPRESSION_OJPEG;
    if (l.colour_samples > l.samples) fail("the TIFF's " + tiff_colour_name(l.photometric) + " pixels have " +
                                           std::to_string(l.samples) + " samples, too few");
    if (l.photometric == PHOTOMETRIC_PALETTE && l.bits > 8) fail("the TIFF has a palette of 16-bit indices (supported: up to 8)");

    std::uint16_t extra_count = 0;
    std::uint16_t* extra = nullptr;
    TIFFGetField(t, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    if (l.samples > l.colour_samples && !exotic) {
        const int kind = extra_count > 0 && extra ? extra[0] : EXTRASAMPLE_UNSPECIFIED;
        // An unspecified extra sample is taken as alpha when it is the only
        // one (gray+1, RGB+1), as libvips and ImageMagick take it.
        l.alpha = kind == EXTRASAMPLE_ASSOCALPHA || kind == EXTRASAMPLE_UNASSALPHA ||
                  (kind == EXTRASAMPLE_UNSPECIFIED && l.samples == l.colour_samples + 1);
        l.associated = kind == EXTRASAMPLE_ASSOCALPHA;
    }

    if (exotic) {
        char message[1024] = "";
        if (l.bits > 8 || !TIFFRGBAImageOK(t, message))
            fail("the TIFF's colour model (" + tiff_colour_name(photometric) + ", " + std::to_string(l.bits) +
                 "-bit, " + tiff_compression_label(compression) + ") is not supported" +
                 (message[0] ? std::string(" (") + message + ")" : std::string()));
        l.path = TiffPath::Rgba;
        l.alpha = extra_count > 0;
        l.channels = l.alpha ? 4 : 3;
    } else {
        const int colour_out = l.colour_samples == 1 && l.photometric != PHOTOMETRIC_PALETTE ? 1 : 3;
        l.channels = colour_out + (l.alpha ? 1 : 0);
    }

    l.tiled = TIFFIsTiled(t) != 0;
    if (l.tiled) {
        if (!TIFFGetField(t, TIFFTAG_TILEWIDTH, &l.tile_width) || !TIFFGetField(t, TIFFTAG_TILELENGTH, &l.tile_height) ||
            l.tile_width == 0 || l.tile_height == 0)
            fail("the TIFF's tile size is missing or zero");
        l.striles = TIFFNumberOfTiles(t);
    } else {
        TIFFGetFieldDefaulted(t, TIFFTAG_ROWSPERSTRIP, &l.rows_per_strip);
        l.rows_per_strip = std::min(std::max<std::uint32_t>(l.rows_per_strip, 1), l.height);
        l.striles = TIFFNumberOfStrips(t);
    }
    return l;
}

}  // namespace imgpar

#endif
