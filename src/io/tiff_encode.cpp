// Writing one TIFF page through libtiff: strips of about 64 KiB (libtiff's
// and libvips' habit: small enough to stream, large enough to compress
// well), the horizontal predictor with LZW and Deflate (it halves a
// photo's Deflate size), unassociated alpha.
#include "src/io/tiff_codec.hpp"

#if IMGPAR_HAVE_LIBTIFF

#include <algorithm>
#include <cstring>

#include "src/error.hpp"
#include "src/huge_pages.hpp"
#include "src/io/tiff_file.hpp"

namespace imgpar {

namespace {

constexpr std::size_t kStripBytes = std::size_t{1} << 16;

std::uint16_t compression_tag(TiffCompression c) {
    switch (c) {
        case TiffCompression::None: return COMPRESSION_NONE;
        case TiffCompression::Lzw: return COMPRESSION_LZW;
        case TiffCompression::Deflate: return COMPRESSION_ADOBE_DEFLATE;
    }
    return COMPRESSION_NONE;
}

// The XMP packet (XMLPacket), the IPTC records (RichTIFFIPTC, padded to
// 4-byte units as the tag's LONG type wants) and the first comment
// (ImageDescription, where libvips and ImageMagick put it): what TIFF has
// for the metadata a JPEG or PNG carries.
void write_text_metadata(TIFF* t, const ImageMetadata& m, std::vector<std::uint8_t>& iptc) {
    if (!m.xmp.empty()) TIFFSetField(t, TIFFTAG_XMLPACKET, static_cast<std::uint32_t>(m.xmp.size()), m.xmp.data());
    if (!m.iptc.empty()) {
        iptc = m.iptc;
        const TIFFField* field = TIFFFieldWithTag(t, TIFFTAG_RICHTIFFIPTC);
        const bool longs = field && TIFFFieldDataType(field) == TIFF_LONG;
        if (longs) iptc.resize((iptc.size() + 3) / 4 * 4, 0);
        TIFFSetField(t, TIFFTAG_RICHTIFFIPTC, static_cast<std::uint32_t>(longs ? iptc.size() / 4 : iptc.size()),
                     iptc.data());
    }
    if (!m.comments.empty()) TIFFSetField(t, TIFFTAG_IMAGEDESCRIPTION, m.comments.front().text.c_str());
}

// Past 4 GiB a classic TIFF's offsets overflow: BigTIFF (libtiff, libvips
// and ImageMagick read it).
template <typename T>
bool needs_big_tiff(ImageView<const T> img) {
    return static_cast<double>(img.row_bytes()) * img.height > 3.5 * (1ull << 30);
}

// The page into `f`, which is open for writing.
template <typename T>
void encode(TiffFile& f, ImageView<const T> img, const TiffEncodeOptions& options) {
    const std::size_t row_bytes = img.row_bytes();
    TIFF* t = f.get();
    const std::uint32_t rows = static_cast<std::uint32_t>(
        std::clamp<std::size_t>(kStripBytes / std::max<std::size_t>(row_bytes, 1), 1, static_cast<std::size_t>(img.height)));
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(img.width));
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(img.height));
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(img.channels));
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(8 * sizeof(T)));
    TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, img.channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    // The EXIF orientation (a JPEG's, or a TIFF's read as one) is TIFF's own tag.
    const int orientation = options.metadata ? exif_orientation(options.metadata->exif) : 0;
    TIFFSetField(t, TIFFTAG_ORIENTATION, orientation >= 1 && orientation <= 8 ? orientation : ORIENTATION_TOPLEFT);
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, rows);
    TIFFSetField(t, TIFFTAG_COMPRESSION, compression_tag(options.compression));
    if (options.compression != TiffCompression::None) TIFFSetField(t, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    if (img.channels == 2 || img.channels == 4) {
        const std::uint16_t extra[1] = {EXTRASAMPLE_UNASSALPHA};
        TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, extra);
    }
    std::vector<std::uint8_t> iptc;  // alive until the directory is written
    if (options.metadata) write_text_metadata(t, *options.metadata, iptc);
    if (options.metadata && !options.metadata->icc.empty())
        TIFFSetField(t, TIFFTAG_ICCPROFILE, static_cast<std::uint32_t>(options.metadata->icc.size()),
                     options.metadata->icc.data());
    std::vector<std::uint8_t> strip(row_bytes * rows);
    for (std::uint32_t s = 0, y0 = 0; y0 < static_cast<std::uint32_t>(img.height); ++s, y0 += rows) {
        const std::uint32_t n = std::min<std::uint32_t>(rows, static_cast<std::uint32_t>(img.height) - y0);
        for (std::uint32_t y = 0; y < n; ++y) std::memcpy(strip.data() + y * row_bytes, img.row(static_cast<int>(y0 + y)), row_bytes);
        if (TIFFWriteEncodedStrip(t, s, strip.data(), static_cast<tmsize_t>(n * row_bytes)) < 0)
            throw output_error(f.name(), f.write_errno != 0
                                             ? std::string("write failed: ") + std::strerror(f.write_errno)
                                             : "libtiff failed to write strip " + std::to_string(s) + ": " +
                                                   f.take_error("unknown error"));
    }
    f.close_for_write();
}

template <typename T>
std::vector<std::uint8_t> encode_to_memory(ImageView<const T> img, const TiffEncodeOptions& options) {
    check_image_shape(img.width, img.height, img.channels);
    std::vector<std::uint8_t> out;
    // Room for the samples as they are (what no compression, or
    // incompressible pixels, take): the file is then never moved as it grows.
    out.reserve(img.row_bytes() * static_cast<std::size_t>(img.height) + (std::size_t{1} << 16) +
                (options.metadata ? options.metadata->icc.size() : 0));
    advise_huge_pages(out.data(), out.capacity());
    TiffFile f("TIFF", out, needs_big_tiff(img));
    encode(f, img, options);
    return out;
}

template <typename T>
void encode_to_file(int fd, const std::string& name, ImageView<const T> img, const TiffEncodeOptions& options) {
    check_image_shape(img.width, img.height, img.channels);
    TiffFile f(name, fd, needs_big_tiff(img));
    encode(f, img, options);
}

}  // namespace

std::vector<std::uint8_t> tiff_encode(ConstViewU8 image, const TiffEncodeOptions& options) {
    return encode_to_memory(image, options);
}
std::vector<std::uint8_t> tiff_encode(ConstViewU16 image, const TiffEncodeOptions& options) {
    return encode_to_memory(image, options);
}
void tiff_encode_to_file(int fd, const std::string& name, ConstViewU8 image, const TiffEncodeOptions& options) {
    encode_to_file(fd, name, image, options);
}
void tiff_encode_to_file(int fd, const std::string& name, ConstViewU16 image, const TiffEncodeOptions& options) {
    encode_to_file(fd, name, image, options);
}

}  // namespace imgpar

#endif

#include <algorithm>

namespace imgpar {

namespace {

// A strip (64 KiB, or a row when wider) as given, libtiff's copies of it for
// the predictor and the compressor, and its directory's strip tables.
std::uint64_t tiff_strip_memory(int width, int height, int channels, int sample_bytes) {
    const std::uint64_t row = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(channels) *
                              static_cast<std::uint64_t>(sample_bytes);
    const std::uint64_t strip = std::max<std::uint64_t>(std::uint64_t{1} << 16, row);
    const std::uint64_t strips = static_cast<std::uint64_t>(height);  // at most a strip a row
    return 4 * strip + 16 * strips + (std::uint64_t{1} << 20);
}

}  // namespace

std::uint64_t tiff_encode_memory(int width, int height, int channels, int sample_bytes, std::uint64_t metadata_bytes) {
    const std::uint64_t image = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) *
                                static_cast<std::uint64_t>(channels) * static_cast<std::uint64_t>(sample_bytes);
    // The file grows by resizing a vector (up to twice its size while it
    // moves); LZW can exceed the samples by a little on noise.
    const std::uint64_t file = image + image / 8 + metadata_bytes + 4096;
    return 2 * file + tiff_strip_memory(width, height, channels, sample_bytes);
}

std::uint64_t tiff_stream_memory(int width, int height, int channels, int sample_bytes) {
    return tiff_strip_memory(width, height, channels, sample_bytes);
}

}  // namespace imgpar
