#include "src/io/avif_codec.hpp"

#include <algorithm>
#include <memory>

#include "src/error.hpp"
#include "src/io/codec_pixels.hpp"
#include "src/io/exif_payload.hpp"
#include "src/io/sample_depth.hpp"
#include "src/parallel.hpp"

#if defined(IMGPAR_HAVE_LIBAVIF)
#include <avif/avif.h>
#endif

namespace imgpar {

#if defined(IMGPAR_HAVE_LIBAVIF)

namespace {

struct DecoderDelete {
    void operator()(avifDecoder* d) const { avifDecoderDestroy(d); }
};
using Decoder = std::unique_ptr<avifDecoder, DecoderDelete>;

std::string reason(avifResult r, const avifDiagnostics& diag) {
    std::string s = avifResultToString(r);
    if (diag.error[0] != '\0') s += std::string(" (") + diag.error + ")";
    return s;
}

// A decoder over `bytes`, its container parsed: sizes above `max_pixels`
// are refused by libavif too, before any AV1 data is read.
Decoder parse(const std::string& name, const std::vector<std::uint8_t>& bytes, std::uint64_t max_pixels) {
    Decoder d(avifDecoderCreate());
    if (!d) throw input_error(name, "out of memory starting the AVIF decoder");
    d->maxThreads = std::max(1, cpu_thread_count());
    d->imageSizeLimit = static_cast<std::uint32_t>(std::min<std::uint64_t>(max_pixels, AVIF_DEFAULT_IMAGE_SIZE_LIMIT));
    // An image sequence is read as its first frame; libavif's default limit
    // on its frame count (about 2.6 million) bounds the tables it parses.
    d->ignoreXMP = AVIF_TRUE;
    avifResult r = avifDecoderSetIOMemory(d.get(), bytes.data(), bytes.size());
    if (r == AVIF_RESULT_OK) r = avifDecoderParse(d.get());
    if (r != AVIF_RESULT_OK) throw input_error(name, "the AVIF could not be read: " + reason(r, d->diag));
    return d;
}

// libavif's RGB conversion of the decoded frame into `data` (RGB or RGBA,
// `depth` 8 or 16 bits), then the gray channel taken where the file is
// monochrome.
template <typename T>
Image<T> convert(const std::string& name, avifDecoder* d, const AvifHeaderInfo& h) {
    const avifResult r = avifDecoderNextImage(d);
    if (r != AVIF_RESULT_OK) throw input_error(name, "the AVIF's image data could not be decoded: " + reason(r, d->diag));
    const avifImage* img = d->image;
    if (static_cast<int>(img->width) != h.width || static_cast<int>(img->height) != h.height)
        throw input_error(name, "the decoded AVIF image's size differs from its header (corrupt file)");
    const bool alpha = has_alpha(h.channels);
    Image<T> rgb(h.width, h.height, alpha ? 4 : 3);
    avifRGBImage out;
    avifRGBImageSetDefaults(&out, img);
    out.format = alpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
    out.depth = sizeof(T) * 8;
    out.pixels = reinterpret_cast<std::uint8_t*>(rgb.data());
    out.rowBytes = static_cast<std::uint32_t>(rgb.row_bytes());
    const avifResult c = avifImageYUVToRGB(img, &out);
    if (c != AVIF_RESULT_OK) throw input_error(name, std::string("the AVIF's colours could not be converted: ") + avifResultToString(c));
    if (h.channels >= 3) return rgb;
    Image<T> gray(h.width, h.height, h.channels);
    for (int y = 0; y < h.height; ++y) {
        const T* s = rgb.view().row(y);
        T* g = gray.view().row(y);
        for (int x = 0; x < h.width; ++x, s += rgb.channels(), g += h.channels) {
            g[0] = s[0];
            if (alpha) g[1] = s[3];
        }
    }
    return gray;
}

}  // namespace

bool avif_codec_available() { return true; }

bool avif_encoder_available() { return avifCodecName(AVIF_CODEC_CHOICE_AUTO, AVIF_CODEC_FLAG_CAN_ENCODE) != nullptr; }

std::string avif_codec_name() {
    const char* dec = avifCodecName(AVIF_CODEC_CHOICE_AUTO, AVIF_CODEC_FLAG_CAN_DECODE);
    const char* enc = avifCodecName(AVIF_CODEC_CHOICE_AUTO, AVIF_CODEC_FLAG_CAN_ENCODE);
    return std::string("libavif ") + avifVersion() + " (decoder " + (dec ? dec : "none") + ", encoder " +
           (enc ? enc : "none") + ")";
}

AvifHeaderInfo avif_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const Decoder d = parse(name, bytes, AVIF_DEFAULT_IMAGE_SIZE_LIMIT);
    const avifImage* img = d->image;
    AvifHeaderInfo h;
    h.width = static_cast<int>(std::min<std::uint32_t>(img->width, INT32_MAX));
    h.height = static_cast<int>(std::min<std::uint32_t>(img->height, INT32_MAX));
    h.bit_depth = static_cast<int>(img->depth);
    h.channels = (img->yuvFormat == AVIF_PIXEL_FORMAT_YUV400 ? 1 : 3) + (d->alphaPresent ? 1 : 0);
    h.frames = std::max(1, d->imageCount);
    const std::uint64_t pixels = static_cast<std::uint64_t>(h.width) * static_cast<std::uint64_t>(h.height);
    const std::uint64_t sample = h.bit_depth > 8 ? 2 : 1;
    // The decoder's output frame, a reference frame and libavif's copy of
    // it, each up to 4:4:4 with alpha; a deep file's 16-bit RGB(A) image.
    h.decoder_bytes = 3 * 4 * pixels * sample + (h.bit_depth > 8 ? 2 * 4 * pixels : 0) + (std::uint64_t{8} << 20);
    h.metadata.icc.assign(img->icc.data, img->icc.data + img->icc.size);
    const auto* e = img->exif.data;
    h.metadata.exif = exif_without_prefix(e, img->exif.size);
    if (h.metadata.exif.empty()) h.metadata.exif = exif_without_prefix(e, img->exif.size, true);
    return h;
}

ImageU8 avif_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const AvifHeaderInfo& h,
                    std::uint64_t max_pixels) {
    if (h.bit_depth > 8) return reduce_to_8_bits(avif_decode_16(name, bytes, h, max_pixels).cview());
    const Decoder d = parse(name, bytes, max_pixels);
    return convert<std::uint8_t>(name, d.get(), h);
}

ImageU16 avif_decode_16(const std::string& name, const std::vector<std::uint8_t>& bytes, const AvifHeaderInfo& h,
                        std::uint64_t max_pixels) {
    const Decoder d = parse(name, bytes, max_pixels);
    return convert<std::uint16_t>(name, d.get(), h);
}

namespace {

struct ImageDelete {
    void operator()(avifImage* i) const { avifImageDestroy(i); }
};
struct EncoderDelete {
    void operator()(avifEncoder* e) const { avifEncoderDestroy(e); }
};

}  // namespace

std::vector<std::uint8_t> avif_encode(ConstViewU8 img, const AvifEncodeOptions& options) {
    if (!avif_encoder_available())
        throw output_error("avif", "this build's libavif can decode AVIF but has no AV1 encoder: write another format");
    if (options.quality < 1 || options.quality > 100)
        throw usage_error("--quality", std::to_string(options.quality) + " is out of range (allowed: 1 to 100)");
    const bool gray = img.channels <= 2, alpha = has_alpha(img.channels);
    // 4:4:4: decoders upsample 4:2:0 chroma each their own way (libavif
    // bilinear, libheif and so libvips otherwise: up to 83 levels apart at
    // sharp edges), so a 4:2:0 file has no one set of pixels.
    const avifPixelFormat yuv = gray ? AVIF_PIXEL_FORMAT_YUV400 : AVIF_PIXEL_FORMAT_YUV444;
    std::unique_ptr<avifImage, ImageDelete> image(
        avifImageCreate(static_cast<std::uint32_t>(img.width), static_cast<std::uint32_t>(img.height), 8, yuv));
    if (!image) throw output_error("avif", "out of memory creating the AVIF image");
    // sRGB, as imgpar's other outputs are taken to be (an ICC profile, when
    // the input had one, says otherwise and wins).
    image->yuvRange = AVIF_RANGE_FULL;
    image->colorPrimaries = AVIF_COLOR_PRIMARIES_BT709;
    image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_SRGB;
    image->matrixCoefficients = AVIF_MATRIX_COEFFICIENTS_BT601;
    if (options.metadata) {
        if (!options.metadata->icc.empty())
            avifImageSetProfileICC(image.get(), options.metadata->icc.data(), options.metadata->icc.size());
        if (!options.metadata->exif.empty())
            avifImageSetMetadataExif(image.get(), options.metadata->exif.data(), options.metadata->exif.size());
    }
    // libavif converts RGB(A); gray goes in as R = G = B, whose luma is the
    // gray value itself in full range.
    ImageU8 colour;
    const ConstViewU8 src = gray ? (colour = gray_as_rgb(img)).cview() : img;
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image.get());
    rgb.format = alpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
    rgb.depth = 8;
    rgb.pixels = const_cast<std::uint8_t*>(src.data);  // read only by avifImageRGBToYUV
    rgb.rowBytes = static_cast<std::uint32_t>(src.stride);
    avifResult r = avifImageRGBToYUV(image.get(), &rgb);
    if (r != AVIF_RESULT_OK) throw output_error("avif", std::string("libavif could not convert the colours: ") + avifResultToString(r));

    std::unique_ptr<avifEncoder, EncoderDelete> encoder(avifEncoderCreate());
    if (!encoder) throw output_error("avif", "out of memory starting the AVIF encoder");
    encoder->maxThreads = std::max(1, cpu_thread_count());
    encoder->speed = kAvifEncodeSpeed;
    const int quantizer = ((100 - options.quality) * 63 + 50) / 100;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS;
    avifRWData out = AVIF_DATA_EMPTY;
    r = avifEncoderWrite(encoder.get(), image.get(), &out);
    if (r != AVIF_RESULT_OK)
        throw output_error("avif", "libavif could not encode the image: " + reason(r, encoder->diag));
    std::vector<std::uint8_t> bytes(out.data, out.data + out.size);
    avifRWDataFree(&out);
    return bytes;
}

#else  // no libavif

namespace {
const char* const kAbsent = "this build of imgpar has no AVIF codec (build it with libavif-dev installed)";
}

bool avif_codec_available() { return false; }
bool avif_encoder_available() { return false; }
std::string avif_codec_name() { return ""; }
AvifHeaderInfo avif_read_header(const std::string& name, const std::vector<std::uint8_t>&) {
    throw input_error(name, kAbsent);
}
ImageU8 avif_decode(const std::string& name, const std::vector<std::uint8_t>&, const AvifHeaderInfo&, std::uint64_t) {
    throw input_error(name, kAbsent);
}
ImageU16 avif_decode_16(const std::string& name, const std::vector<std::uint8_t>&, const AvifHeaderInfo&, std::uint64_t) {
    throw input_error(name, kAbsent);
}
std::vector<std::uint8_t> avif_encode(ConstViewU8, const AvifEncodeOptions&) { throw output_error("avif", kAbsent); }

#endif

}  // namespace imgpar
