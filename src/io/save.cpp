#include "src/io/save.hpp"

#include <climits>
#include <filesystem>
#include <mutex>
#include <system_error>

#include <stb_image_write.h>

#include "src/error.hpp"
#include "src/io/atomic_write.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/sample_depth.hpp"

namespace imgpar {

namespace {

void append_bytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(context);
    const auto* p = static_cast<const std::uint8_t*>(data);
    out->insert(out->end(), p, p + size);
}

// Gray or RGB as they are; gray+alpha and RGBA without their alpha, copied
// into `storage`.
ConstViewU8 without_alpha(ConstViewU8 img, ImageU8& storage) {
    if (!has_alpha(img.channels)) return img;
    const int keep = img.channels - 1;
    storage = ImageU8(img.width, img.height, keep);
    for (int y = 0; y < img.height; ++y) {
        const std::uint8_t* s = img.data + static_cast<std::size_t>(y) * img.stride;
        std::uint8_t* d = storage.data() + static_cast<std::size_t>(y) * storage.row_bytes();
        for (int x = 0; x < img.width; ++x, s += img.channels, d += keep)
            for (int c = 0; c < keep; ++c) d[c] = s[c];
    }
    return storage.view();
}

// stb's PNG level is a global variable: set and used under a lock, so that
// threads saving at once each get theirs. (stb treats levels below 5 as 5.)
int stb_png_to_func(std::vector<std::uint8_t>& out, ConstViewU8 src, int level) {
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    stbi_write_png_compression_level = level;
    return stbi_write_png_to_func(append_bytes, &out, src.width, src.height, src.channels, src.data,
                                  static_cast<int>(src.stride));
}

}  // namespace

void check_jpeg_quality(int quality) {
    if (quality < 1 || quality > 100)
        throw usage_error("--quality", std::to_string(quality) + " is out of range (allowed: 1 to 100)");
}

int output_quality(ImageFormat format, const SaveOptions& options) {
    if (options.quality_given || format == ImageFormat::Jpeg) return options.quality;
    return format == ImageFormat::Webp ? kDefaultWebpQuality : format == ImageFormat::Avif ? kDefaultAvifQuality
                                                                                          : options.quality;
}

std::string output_settings_text(ImageFormat format, const SaveOptions& options) {
    if (format == ImageFormat::Webp && options.lossless) return ", lossless";
    if (format == ImageFormat::Jpeg || format == ImageFormat::Webp || format == ImageFormat::Avif)
        return ", quality " + std::to_string(output_quality(format, options));
    return "";
}

void check_output_size(const std::string& path, ImageFormat format, int width, int height) {
    const int most = format == ImageFormat::Jpeg ? kMaxJpegSide : format == ImageFormat::Webp ? kMaxWebpSide : 0;
    if (most == 0 || (width <= most && height <= most)) return;
    throw output_error(path, "the output would be " + std::to_string(width) + "x" + std::to_string(height) + ", and a " +
                                 format_label(format) + " holds at most " + std::to_string(most) +
                                 " pixels across and down (write PNG, or make it smaller)");
}

ImageFormat output_format(const std::string& path, std::optional<ImageFormat> requested) {
    if (path == "-") {
        if (requested) return *requested;
        throw usage_error("-", "writing to standard output needs --format png|jpg|bmp|webp|avif|tif");
    }
    const std::optional<ImageFormat> named = format_from_extension(path);
    if (named == ImageFormat::Gif)
        throw usage_error(path, "imgpar reads GIF but does not write it (name a .png, .webp or .tif output, or give --format)");
    if (!requested) {
        if (named) return *named;
        // An existing directory is an output that cannot be written (exit
        // 1), as it is with --format, not a name that fails to say a format.
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) throw output_error(path, "is a directory");
        throw usage_error(path, "cannot tell the output format from the file name (use .png, .jpg, .jpeg, .bmp, .webp, "
                                ".avif, .tif or .tiff, or --format)");
    }
    // JPEG bytes in a file called .png would mislead every program that
    // trusts the name; --format is for names that do not say.
    if (named && *named != *requested)
        throw usage_error(path, std::string("its extension says ") + format_name(*named) + " but --format says " +
                                    format_name(*requested) + " (rename it, or leave --format out)");
    return *requested;
}

std::vector<std::uint8_t> encode_image(ConstViewU8 img, ImageFormat format, int quality,
                                       std::vector<std::string>& warnings) {
    SaveOptions options;
    options.quality = quality;
    return encode_image(img, format, options, warnings);
}

void note_metadata_left_out(const ImageMetadata& m, ImageFormat format, std::vector<std::string>& warnings) {
    std::vector<std::string> left_out;
    if (format == ImageFormat::Jpeg && jpeg_codec_available()) (void)jpeg_metadata_segments(m, &left_out);
    if (format == ImageFormat::Png && png_codec_available()) (void)png_metadata_chunks(m, &left_out);
    if (format == ImageFormat::Tiff) {
        if (m.comments.size() > 1)
            left_out.push_back(std::to_string(m.comments.size() - 1) +
                               " comment(s) after the first (TIFF holds one, as ImageDescription)");
        if (!m.xmp_extended.empty()) left_out.push_back("JPEG's extended XMP (TIFF takes the main packet)");
    }
    for (const std::string& what : left_out) warnings.push_back("metadata not written: " + what);
}

namespace {

TiffEncodeOptions tiff_options(const SaveOptions& options, std::vector<std::string>& warnings) {
    TiffEncodeOptions tiff;
    tiff.compression = options.tiff_compression;
    tiff.metadata = options.metadata;
    if (options.metadata && !tiff_keeps_whole_exif(options.metadata->exif))
        warnings.push_back("TIFF output: of the EXIF block only the orientation is written (TIFF's Orientation tag)");
    return tiff;
}

}  // namespace

std::vector<std::uint8_t> encode_image(ConstViewU16 img, ImageFormat format, const SaveOptions& options,
                                       std::vector<std::string>& warnings) {
    check_image_shape(img.width, img.height, img.channels);
    const bool sixteen = format_holds_16_bits(format) && (format != ImageFormat::Png || png_codec_available());
    if (!sixteen || options.depth == 8) {
        if (options.depth != 8)
            warnings.push_back(std::string(format_label(format)) +
                               " output holds 8 bits per sample: the 16-bit image reduced to 8 bits (rounded to nearest)");
        const ImageU8 reduced = reduce_to_8_bits(img);
        SaveOptions eight = options;
        eight.depth = 0;
        return encode_image(reduced.view(), format, eight, warnings);
    }
    if (options.metadata) note_metadata_left_out(*options.metadata, format, warnings);
    if (format == ImageFormat::Png) {
        check_png_compression(options.compression);
        PngEncodeOptions png;
        png.compression = options.compression;
        png.threads = options.threads;
        png.metadata = options.metadata;
        return png_encode(img, png);
    }
    return tiff_encode(img, tiff_options(options, warnings));
}

void check_output_depth(const std::string& path, ImageFormat format, int depth) {
    if (depth == 16 && !format_holds_16_bits(format))
        throw output_error(path, std::string(format_label(format)) +
                                     " holds 8 bits per sample; --depth 16 suits PNG and TIFF outputs");
}

std::vector<std::uint8_t> encode_image(ConstViewU8 img, ImageFormat format, const SaveOptions& options,
                                       std::vector<std::string>& warnings) {
    check_image_shape(img.width, img.height, img.channels);
    if (options.depth == 16 && format_holds_16_bits(format)) {
        const ImageU16 wide = widen_to_16_bits(img);
        return encode_image(wide.view(), format, options, warnings);
    }
    if (options.metadata) note_metadata_left_out(*options.metadata, format, warnings);
    const int quality = options.quality;
    if (format == ImageFormat::Png) {
        check_png_compression(options.compression);
        // imgpar's encoder takes rows with any stride, of any length.
        if (png_codec_available()) {
            PngEncodeOptions png;
            png.compression = options.compression;
            png.threads = options.threads;
            png.metadata = options.metadata;
            return png_encode(img, png);
        }
    }
    if (format == ImageFormat::Tiff) return tiff_encode(img, tiff_options(options, warnings));
    if (img.stride > static_cast<std::size_t>(INT_MAX))
        throw usage_error("encode", "image rows are too long to encode");
    if (format == ImageFormat::Webp) {
        WebpEncodeOptions webp;
        webp.quality = output_quality(format, options);
        webp.lossless = options.lossless;
        webp.metadata = options.metadata;
        return webp_encode(img, webp);
    }
    if (format == ImageFormat::Avif) {
        AvifEncodeOptions avif;
        avif.quality = output_quality(format, options);
        avif.metadata = options.metadata;
        return avif_encode(img, avif);
    }
    if (format == ImageFormat::Gif) throw usage_error("gif", "imgpar reads GIF but does not write it");
    if (format == ImageFormat::Jpeg) {
        check_jpeg_quality(quality);
        if (has_alpha(img.channels)) warnings.push_back(kJpegAlphaDropped);
        if (jpeg_codec_available()) {
            ImageU8 opaque;  // libjpeg-turbo takes rows with any stride
            return jpeg_encode(without_alpha(img, opaque), quality, options.chroma, options.metadata);
        }
        if (options.chroma != ChromaSubsampling::Auto && img.channels >= 3)
            warnings.push_back("this build writes JPEG with stb, which ignores --chroma-subsampling");
    }
    std::vector<std::uint8_t> out;
    int ok = 0;
    // stb's writers (other than PNG) want packed rows.
    ImageU8 packed;
    ConstViewU8 src = img;
    if (format != ImageFormat::Png && img.stride != img.row_bytes()) {
        packed = ImageU8::copy_of(img);
        src = packed.view();
    }
    switch (format) {
        case ImageFormat::Png:  // (stb: a build without libpng)
            ok = stb_png_to_func(out, src, options.compression);
            break;
        case ImageFormat::Jpeg:  // (stb: a build without libjpeg-turbo)
            ok = stbi_write_jpg_to_func(append_bytes, &out, src.width, src.height, src.channels, src.data, quality);
            break;
        case ImageFormat::Bmp:
            if (src.channels == 2) warnings.push_back("BMP has no gray+alpha layout: alpha dropped");
            ok = stbi_write_bmp_to_func(append_bytes, &out, src.width, src.height, src.channels, src.data);
            break;
        default: break;  // (written above by their own libraries)
    }
    if (!ok || out.empty()) throw output_error(format_name(format), "encoder failed");
    return out;
}

namespace {

bool tiff_streams(ImageFormat format, SampleType type, int depth) {
    const int own_depth = 8 * static_cast<int>(sample_bytes(type));
    return format == ImageFormat::Tiff && tiff_codec_available() && (depth == 0 || depth == own_depth);
}

template <typename T>
void save_as(const std::string& path, ImageView<const T> image, const SaveOptions& options,
             std::vector<std::string>& warnings) {
    ImageFormat f = output_format(path, options.format);
    check_output_depth(path, f, options.depth);
    // A TIFF of the image's own depth goes to the file strip by strip as
    // libtiff makes it: an uncompressed 16 MP photo is 48-96 MB that need
    // not be held, copied and written again.
    if (tiff_streams(f, sizeof(T) == 2 ? SampleType::U16 : SampleType::U8, options.depth)) {
        check_image_shape(image.width, image.height, image.channels);
        if (options.metadata) note_metadata_left_out(*options.metadata, f, warnings);
        const TiffEncodeOptions tiff = tiff_options(options, warnings);
        write_file_streamed(
            path, [&](int fd) { tiff_encode_to_file(fd, path, image, tiff); },
            [&] {
                try {
                    return tiff_encode(image, tiff);
                } catch (const Error& e) {
                    if (e.kind() == ErrorKind::Usage) throw;
                    throw output_error(path, e.reason());
                }
            });
        return;
    }
    std::vector<std::uint8_t> bytes;
    try {
        bytes = encode_image(image, f, options, warnings);
    } catch (const Error& e) {
        if (e.kind() == ErrorKind::Usage) throw;
        throw output_error(path, e.reason());
    }
    write_file_atomically(path, bytes.data(), bytes.size());
}

}  // namespace

void save_image(const std::string& path, ConstViewU8 image, const SaveOptions& options,
                std::vector<std::string>& warnings) {
    save_as(path, image, options, warnings);
}

void save_image(const std::string& path, ConstViewU16 image, const SaveOptions& options,
                std::vector<std::string>& warnings) {
    save_as(path, image, options, warnings);
}

bool saves_streamed(const std::string& path, ImageFormat format, SampleType type, int depth) {
    return tiff_streams(format, type, depth) && output_streams(path);
}

}  // namespace imgpar
