// Saving images: the format comes from --format or the output's extension;
// the file is written atomically (see atomic_write.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/image_format.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/tiff_codec.hpp"
#include "src/io/webp_codec.hpp"
#include "src/io/avif_codec.hpp"

namespace imgpar {

// The warning for an image with alpha written as JPEG (by save_image, or by
// whoever encodes a JPEG another way).
inline constexpr const char* kJpegAlphaDropped = "JPEG has no alpha channel: alpha dropped";


constexpr int kDefaultJpegQuality = 92;

// Which outputs a given --compression value suits: a PNG level, a TIFF
// compression, or none (both); Any when it was not given.
enum class CompressionFor { Any, Png, Tiff, Both };

struct SaveOptions {
    std::optional<ImageFormat> format;                   // overrides the extension
    // JPEG, WebP (lossy) and AVIF, 1..100. Each format has its own default
    // (kDefaultJpegQuality, kDefaultWebpQuality, kDefaultAvifQuality): this
    // value is JPEG's unless quality_given says the user chose it for all.
    int quality = kDefaultJpegQuality;
    bool quality_given = false;
    bool lossless = false;                               // WebP only: VP8L, every pixel exact
    ChromaSubsampling chroma = ChromaSubsampling::Auto;  // JPEG only
    int compression = kDefaultPngCompression;            // PNG only, 0..9 (png_codec.hpp)
    TiffCompression tiff_compression = kDefaultTiffCompression;  // TIFF only (tiff_codec.hpp)
    CompressionFor compression_for = CompressionFor::Any;        // what the value given suits
    // PNG only: threads the encoder deflates on; 0: cpu_thread_count() of
    // the calling thread (a batch worker limits it with CpuThreadLimit).
    int threads = 0;
    // Written with the image where the format holds it (JPEG and PNG: the
    // input's EXIF, ICC profile, XMP, IPTC and comments; WebP and AVIF: its
    // EXIF and ICC profile; TIFF: its ICC profile, EXIF orientation, XMP,
    // IPTC and first comment; BMP:
    // none).
    const ImageMetadata* metadata = nullptr;
    // Bits per sample written (--depth): 0 keeps the image's (a 16-bit image
    // in a format that holds only 8 is reduced, with a notice); 8 reduces a
    // 16-bit image, rounded to nearest (reduce_sample_16_to_8); 16 widens
    // an 8-bit one exactly (v * 257), for PNG and TIFF only.
    int depth = 0;
};

// Throws imgpar::Error (usage) unless 1 <= quality <= 100.
void check_jpeg_quality(int quality);

// The quality `format` is written at: options.quality where the user gave
// it (or for JPEG), else the format's own default.
int output_quality(ImageFormat format, const SaveOptions& options);

// How `format` is written, for verbose output: ", quality 90", ", lossless",
// or "" for the formats without a quality.
std::string output_settings_text(ImageFormat format, const SaveOptions& options);

// The format an output will be written in. Throws imgpar::Error (usage) when
// neither `requested` nor the extension of `path` tells ("-" needs --format),
// or when both tell and disagree (--format jpg for x.png).
ImageFormat output_format(const std::string& path, std::optional<ImageFormat> requested);

// The largest side a JPEG may have: libjpeg's limit (the format's, 65535,
// less a margin it keeps).
constexpr int kMaxJpegSide = 65500;

// Throws imgpar::Error (output, naming `path`) when `format` cannot hold an
// image of width x height (a JPEG wider or taller than kMaxJpegSide, a WebP
// than kMaxWebpSide): known
// from the shapes a run declares, so such an output is refused before its
// input is decoded.
void check_output_size(const std::string& path, ImageFormat format, int width, int height);

// Appends a warning for each part of `m` that `format`'s writer leaves out
// although the format holds metadata (an XMP packet over a JPEG segment's
// 64 KiB; JPEG's extended XMP in a PNG): "metadata not written: ...".
void note_metadata_left_out(const ImageMetadata& m, ImageFormat format, std::vector<std::string>& warnings);

// Encodes to bytes in `format` (options.format is not consulted). Warnings
// (alpha dropped by JPEG, metadata left out...) are appended.
std::vector<std::uint8_t> encode_image(ConstViewU8 image, ImageFormat format, const SaveOptions& options,
                                       std::vector<std::string>& warnings);

// The same with every option at its default but the JPEG quality.
std::vector<std::uint8_t> encode_image(ConstViewU8 image, ImageFormat format, int quality,
                                       std::vector<std::string>& warnings);

// The same for 16-bit samples: PNG and TIFF keep them; the other formats
// get the image reduced to 8 bits (rounded to nearest), with a warning
// unless options.depth asked for 8.
std::vector<std::uint8_t> encode_image(ConstViewU16 image, ImageFormat format, const SaveOptions& options,
                                       std::vector<std::string>& warnings);

// Throws imgpar::Error (output, naming `path`) when `depth` (--depth) asks
// for 16 bits of a format that holds 8.
void check_output_depth(const std::string& path, ImageFormat format, int depth);

// Whether save_image writes an image of `type` to `path` as `format` strip by
// strip as it encodes (a TIFF of the image's own depth, to a file replaced
// by a rename), so the encoded file is never held in memory.
bool saves_streamed(const std::string& path, ImageFormat format, SampleType type, int depth);

// Encodes and writes atomically to `path` ("-" = stdout).
void save_image(const std::string& path, ConstViewU8 image, const SaveOptions& options,
                std::vector<std::string>& warnings);
void save_image(const std::string& path, ConstViewU16 image, const SaveOptions& options,
                std::vector<std::string>& warnings);

}  // namespace imgpar
