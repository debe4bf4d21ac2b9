#include "src/io/encode_memory.hpp"

#include <algorithm>
#include <cmath>

#include "src/io/jpeg_codec.hpp"
#include "src/io/png_codec.hpp"
#include "src/parallel.hpp"

namespace imgpar {

namespace {

std::uint64_t u64(double v) { return static_cast<std::uint64_t>(std::ceil(std::max(v, 0.0))); }

// Freed blocks up to this size stay in the heap for the next file, and so
// in the process's memory (cli/main.cpp, keep_freed_memory); the blocks of
// a buffer that doubles as it grows, up to this size, add up to twice it.
constexpr std::uint64_t kKeptBlocks = std::uint64_t{64} << 20;

// A buffer that doubles as it fills (a byte vector appended to, as stb's
// writers through save.cpp's append_bytes; libjpeg-turbo's memory
// destination) of `bytes` at the end: its last two blocks while the smaller
// is copied (twice its size at most), and the smaller blocks the heap kept.
std::uint64_t doubled(std::uint64_t bytes) { return 2 * bytes + std::min(bytes, kKeptBlocks); }

// stb_image_write's BMP: 24 bits a pixel (gray and gray+alpha as RGB), 32
// with alpha; rows padded to 4 bytes; a 54-byte header (122 with alpha).
std::uint64_t bmp_file_bytes(const ImageShape& s) {
    const std::uint64_t pixel = s.channels == 4 ? 4 : 3;
    const std::uint64_t row = (static_cast<std::uint64_t>(s.width) * pixel + 3) / 4 * 4;
    return 122 + row * static_cast<std::uint64_t>(s.height);
}

// Coded samples of a JPEG of `shape`: gray one a pixel; colour's luma one
// and each chroma component one per 1, 2 or 4 pixels.
double jpeg_samples(const ImageShape& s, ChromaSubsampling chroma) {
    const double pixels = static_cast<double>(s.width) * static_cast<double>(s.height);
    if (s.channels < 3) return pixels;
    const double share = chroma == ChromaSubsampling::S444 ? 1.0 : chroma == ChromaSubsampling::S422 ? 0.5 : 0.25;
    return pixels * (1.0 + 2.0 * share);
}

// jpeg_encode (src/io/jpeg_codec.cpp): libjpeg-turbo writes into a buffer
// that doubles as it fills, copied into the result. An image of 2,000,000
// pixels or more is encoded in stripes of about 2^20 pixels on every
// thread: the stripes' files, joined into the result, and each busy
// thread's stripe in flight (its buffer, kept blocks and copy). The
// compressor's own rows and tables come beside each.
std::uint64_t jpeg_memory(const ImageShape& s, const SaveOptions& o, std::uint64_t metadata_bytes) {
    const ChromaSubsampling chroma = resolved_chroma(o.chroma, o.quality);
    const double per_sample = jpeg_bytes_per_sample_bound(o.quality);
    const double file = per_sample * jpeg_samples(s, chroma) + static_cast<double>(metadata_bytes) + 2048;
    const int stored = s.channels >= 3 ? 3 : 1;
    const double compressor = 64.0 * s.width * stored + (256 << 10);
    // Alpha goes before encoding: the image without it is a copy.
    const double opaque = s.channels == 2 || s.channels == 4
                              ? static_cast<double>(s.width) * s.height * (s.channels - 1)
                              : 0.0;
    // jpeg_codec.cpp's kStripedPixels and kStripePixels.
    constexpr double kStripedPixels = 2'000'000, kStripePixels = 1 << 20;
    const double pixels = static_cast<double>(s.width) * s.height;
    const double buffer = static_cast<double>(doubled(u64(file)));
    if (!jpeg_codec_available()) return u64(opaque + buffer + compressor);  // stb, appended
    // The buffer at its end (the file, and blocks kept) and its copy: within doubled().
    if (pixels < kStripedPixels) return u64(opaque + buffer + compressor);
    const double stripe_pixels = std::max(kStripePixels, 16.0 * s.width);
    const double stripe = file * std::min(1.0, stripe_pixels / pixels);
    return u64(opaque + 2 * file + cpu_thread_count() * (3 * stripe + compressor));
}

}  // namespace

double jpeg_bytes_per_sample_bound(int quality) {
    // Measured on noise, gray at 4:4:4 (the most per sample), then +15%.
    static const double kQuality[] = {0, 50, 75, 90, 95, 100};
    static const double kBytes[] = {0.45, 0.5, 0.65, 0.9, 1.15, 1.8};
    const double q = std::clamp(static_cast<double>(quality), 0.0, 100.0);
    for (int i = 1; i < 6; ++i)
        if (q <= kQuality[i]) {
            const double t = (q - kQuality[i - 1]) / (kQuality[i] - kQuality[i - 1]);
            return kBytes[i - 1] + t * (kBytes[i] - kBytes[i - 1]);
        }
    return kBytes[5];
}

std::uint64_t encode_memory(ImageFormat format, const ImageShape& shape, const SaveOptions& options,
                            std::uint64_t metadata_bytes) {
    const std::uint64_t image = shape.bytes();
    if (shape.type == SampleType::U16 && !format_holds_16_bits(format)) {
        // Reduced to an 8-bit copy first (save_image), which is encoded.
        ImageShape reduced = shape;
        reduced.type = SampleType::U8;
        return reduced.bytes() + encode_memory(format, reduced, options, metadata_bytes);
    }
    switch (format) {
        case ImageFormat::Png: {
            if (!png_codec_available()) {
                // stb: the filtered rows, zlib's output grown by doubling,
                // the file made of it, appended to the result.
                const std::uint64_t filtered = image + static_cast<std::uint64_t>(shape.height);
                return filtered + doubled(filtered) + doubled(filtered + metadata_bytes);
            }
            const int threads = options.threads > 0 ? options.threads : cpu_thread_count();
            if (shape.type == SampleType::U16)  // rows of twice the bytes, and their big-endian copy
                return image + png_encode_memory(2 * shape.width, shape.height, shape.channels, threads, metadata_bytes);
            return png_encode_memory(shape.width, shape.height, shape.channels, threads, metadata_bytes);
        }
        case ImageFormat::Jpeg: return jpeg_memory(shape, options, metadata_bytes);
        case ImageFormat::Bmp: return doubled(bmp_file_bytes(shape));
        // libwebp: the picture's ARGB (lossless) or YUV planes with alpha,
        // a gray input's RGB copy, the memory writer's doubling buffer of
        // the file (bounded by the pixels), the muxer's copy with metadata.
        // Measured beside the decoded image on a 16 MP RGB photo (48 MB):
        // lossy 40 MB, lossless 350 MB; this gives 84 and 432 MB.
        case ImageFormat::Webp:
            if (!options.lossless) return image + doubled(image / 4) + metadata_bytes;
            return 4 * image + 6 * image / std::max(shape.channels, 1) + doubled(image) + metadata_bytes;
        // libavif: the YUVA planes, the AV1 encoder's frames and lookahead
        // (libaom keeps several at speed 8), the output. Measured on the
        // same photo: 470 MB; this gives 648 MB.
        case ImageFormat::Avif: return 12 * image + doubled(image / 2) + metadata_bytes;
        case ImageFormat::Gif: break;  // not written
        case ImageFormat::Tiff:
            return tiff_encode_memory(shape.width, shape.height, shape.channels,
                                      static_cast<int>(sample_bytes(shape.type)), metadata_bytes);
    }
    return 3 * image;
}

}  // namespace imgpar
