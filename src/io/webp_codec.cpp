#include "src/io/webp_codec.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "src/error.hpp"
#include "src/io/codec_pixels.hpp"
#include "src/io/exif_payload.hpp"

#if defined(IMGPAR_HAVE_LIBWEBP)
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>
#endif

namespace imgpar {

#if defined(IMGPAR_HAVE_LIBWEBP)

namespace {

struct DemuxDelete {
    void operator()(WebPDemuxer* d) const { WebPDemuxDelete(d); }
};
using Demuxer = std::unique_ptr<WebPDemuxer, DemuxDelete>;

Demuxer demux(const std::vector<std::uint8_t>& bytes) {
    WebPData data{bytes.data(), bytes.size()};
    WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
    // Partial: a cut file still tells its chunks up to the cut.
    Demuxer d(WebPDemuxPartial(&data, &state));
    if (state == WEBP_DEMUX_PARSE_ERROR) return nullptr;
    return d;
}

std::string status_text(VP8StatusCode s) {
    switch (s) {
        case VP8_STATUS_OK: return "ok";
        case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
        case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
        case VP8_STATUS_BITSTREAM_ERROR: return "the bitstream is corrupt";
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "it uses a feature libwebp does not support";
        case VP8_STATUS_SUSPENDED: return "decoding was suspended";
        case VP8_STATUS_USER_ABORT: return "decoding was aborted";
        case VP8_STATUS_NOT_ENOUGH_DATA: return "the data ends before the image does";
    }
    return "unknown error";
}

std::uint32_t le32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[3]} << 24);
}

// The first frame of an animation drawn on its canvas (disposal and
// blending as the file says), by libwebpdemux's animation decoder.
void decode_first_frame(const std::string& name, const std::vector<std::uint8_t>& bytes, ImageU8& out) {
    WebPAnimDecoderOptions o;
    if (!WebPAnimDecoderOptionsInit(&o)) throw input_error(name, "libwebp's animation decoder is unusable");
    o.color_mode = MODE_RGBA;
    o.use_threads = 1;
    WebPData data{bytes.data(), bytes.size()};
    std::unique_ptr<WebPAnimDecoder, void (*)(WebPAnimDecoder*)> dec(WebPAnimDecoderNew(&data, &o), WebPAnimDecoderDelete);
    std::uint8_t* canvas = nullptr;
    int timestamp = 0;
    if (!dec || !WebPAnimDecoderGetNext(dec.get(), &canvas, &timestamp))
        throw input_error(name, "the WebP animation's first frame is corrupt or truncated");
    const int keep = out.channels();
    for (int y = 0; y < out.height(); ++y) {
        const std::uint8_t* s = canvas + static_cast<std::size_t>(y) * static_cast<std::size_t>(out.width()) * 4;
        std::uint8_t* d = out.view().row(y);
        for (int x = 0; x < out.width(); ++x, s += 4, d += keep) std::memcpy(d, s, static_cast<std::size_t>(keep));
    }
}

// A file cut short, decoded as far as it goes by the incremental decoder;
// the rows it does not reach stay black. Returns the rows decoded.
int decode_partial(const std::string& name, const std::vector<std::uint8_t>& bytes, ImageU8& out) {
    WebPDecBuffer buffer;
    WebPInitDecBuffer(&buffer);
    buffer.colorspace = out.channels() == 4 ? MODE_RGBA : MODE_RGB;
    buffer.is_external_memory = 1;
    buffer.u.RGBA.rgba = out.data();
    buffer.u.RGBA.stride = static_cast<int>(out.row_bytes());
    buffer.u.RGBA.size = out.size_bytes();
    std::unique_ptr<WebPIDecoder, void (*)(WebPIDecoder*)> dec(WebPINewDecoder(&buffer), WebPIDelete);
    if (!dec) throw input_error(name, "out of memory starting the WebP decoder");
    const VP8StatusCode s = WebPIAppend(dec.get(), bytes.data(), bytes.size());
    if (s != VP8_STATUS_OK && s != VP8_STATUS_SUSPENDED) throw input_error(name, "the WebP is corrupt: " + status_text(s));
    int last_y = 0;
    (void)WebPIDecGetRGB(dec.get(), &last_y, nullptr, nullptr, nullptr);
    return last_y;
}

// Decodes the top-left pixel alone (libwebp's cropping: the headers, the
// entropy codes and the first rows), so that a header claiming a canvas its
// data cannot fill is refused before the image, up to 16383 x 16383, is
// allocated and cleared.
void check_first_pixel(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) throw input_error(name, "libwebp's decoder is unusable");
    config.options.use_cropping = 1;
    config.options.crop_width = 1;
    config.options.crop_height = 1;
    config.output.colorspace = MODE_RGBA;
    const VP8StatusCode s = WebPDecode(bytes.data(), bytes.size(), &config);
    WebPFreeDecBuffer(&config.output);
    if (s != VP8_STATUS_OK) throw input_error(name, "the WebP could not be decoded: " + status_text(s));
}

}  // namespace

bool webp_codec_available() { return true; }

std::string webp_codec_name() {
    const int v = WebPGetDecoderVersion();
    return "libwebp " + std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) + "." + std::to_string(v & 0xff);
}

WebpHeaderInfo webp_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    WebPBitstreamFeatures f;
    const VP8StatusCode s = WebPGetFeatures(bytes.data(), bytes.size(), &f);
    if (s != VP8_STATUS_OK) throw input_error(name, "the WebP header is invalid: " + status_text(s));
    WebpHeaderInfo h;
    h.width = f.width;
    h.height = f.height;
    h.channels = f.has_alpha ? 4 : 3;
    h.lossless = f.format == 2;
    h.animated = f.has_animation != 0;
    h.riff_bytes = bytes.size() >= 8 ? std::uint64_t{le32(bytes.data() + 4)} + 8 : 0;
    const std::uint64_t pixels = static_cast<std::uint64_t>(h.width) * static_cast<std::uint64_t>(h.height);
    if (h.animated) {
        const Demuxer d = demux(bytes);
        if (!d) throw input_error(name, "the WebP animation's chunks are malformed");
        h.frames = static_cast<int>(WebPDemuxGetI(d.get(), WEBP_FF_FRAME_COUNT));
        // Two RGBA canvases (the frame and the one before, for disposal)
        // and a frame decoded as ARGB, at most the canvas.
        h.decoder_bytes = 12 * pixels;
    } else {
        // Lossless: the ARGB pixels and a few rows of transforms; lossy:
        // the alpha plane, and macroblock rows on the filter threads.
        h.decoder_bytes = h.lossless ? 4 * pixels + 64 * static_cast<std::uint64_t>(h.width)
                                     : pixels + 512 * static_cast<std::uint64_t>(h.width) + (1u << 20);
    }
    return h;
}

ImageMetadata webp_read_metadata(const std::vector<std::uint8_t>& bytes) {
    ImageMetadata m;
    const Demuxer d = demux(bytes);
    if (!d || !(WebPDemuxGetI(d.get(), WEBP_FF_FORMAT_FLAGS) & (EXIF_FLAG | ICCP_FLAG))) return m;
    WebPChunkIterator it;
    if (WebPDemuxGetChunk(d.get(), "ICCP", 1, &it)) {
        m.icc.assign(it.chunk.bytes, it.chunk.bytes + it.chunk.size);
        WebPDemuxReleaseChunkIterator(&it);
    }
    if (WebPDemuxGetChunk(d.get(), "EXIF", 1, &it)) {
        m.exif = exif_without_prefix(it.chunk.bytes, it.chunk.size);
        WebPDemuxReleaseChunkIterator(&it);
    }
    return m;
}

ImageU8 webp_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const WebpHeaderInfo& h,
                    std::vector<std::string>& warnings, bool allow_partial) {
    if (h.riff_bytes <= bytes.size() && !h.animated) check_first_pixel(name, bytes);
    ImageU8 out(h.width, h.height, h.channels);
    if (h.animated) {
        decode_first_frame(name, bytes, out);
        warnings.push_back("animated WebP of " + std::to_string(h.frames) + " frames: the first frame is read");
        return out;
    }
    if (h.riff_bytes > bytes.size()) {  // (read_header refused it unless allow_partial)
        const int rows = decode_partial(name, bytes, out);
        if (rows >= h.height) return out;
        const std::string how = std::to_string(rows) + " of " + std::to_string(h.height) + " rows decoded";
        if (!allow_partial) throw input_error(name, "WebP data is truncated: " + how);
        warnings.push_back("WebP data is truncated: " + how + ", the rest black (--allow-partial)");
        return out;
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) throw input_error(name, "libwebp's decoder is unusable");
    config.options.use_threads = 1;
    config.output.colorspace = h.channels == 4 ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out.data();
    config.output.u.RGBA.stride = static_cast<int>(out.row_bytes());
    config.output.u.RGBA.size = out.size_bytes();
    const VP8StatusCode s = WebPDecode(bytes.data(), bytes.size(), &config);
    WebPFreeDecBuffer(&config.output);  // (nothing of ours: the memory is external)
    if (s != VP8_STATUS_OK) throw input_error(name, "the WebP could not be decoded: " + status_text(s));
    return out;
}

namespace {

struct PictureFree {
    void operator()(WebPPicture* p) const { WebPPictureFree(p); }
};

// libwebp's own bytes with the metadata chunks added through the muxer,
// which writes the VP8X header they need.
std::vector<std::uint8_t> with_metadata(const std::uint8_t* data, std::size_t size, const ImageMetadata& m) {
    std::unique_ptr<WebPMux, void (*)(WebPMux*)> mux(nullptr, WebPMuxDelete);
    const WebPData image{data, size};
    mux.reset(WebPMuxCreate(&image, 0));
    if (!mux) throw output_error("webp", "libwebp's muxer could not read the encoded image");
    const auto set = [&](const char* fourcc, const std::vector<std::uint8_t>& bytes) {
        const WebPData chunk{bytes.data(), bytes.size()};
        if (!bytes.empty() && WebPMuxSetChunk(mux.get(), fourcc, &chunk, 0) != WEBP_MUX_OK)
            throw output_error("webp", std::string("libwebp's muxer refused the ") + fourcc + " chunk");
    };
    set("ICCP", m.icc);
    set("EXIF", m.exif);
    WebPData assembled{nullptr, 0};
    if (WebPMuxAssemble(mux.get(), &assembled) != WEBP_MUX_OK)
        throw output_error("webp", "libwebp's muxer could not assemble the file");
    std::vector<std::uint8_t> out(assembled.bytes, assembled.bytes + assembled.size);
    WebPDataClear(&assembled);
    return out;
}

}  // namespace

std::vector<std::uint8_t> webp_encode(ConstViewU8 img, const WebpEncodeOptions& options) {
    if (img.width > kMaxWebpSide || img.height > kMaxWebpSide)
        throw usage_error("encode", "WebP holds at most " + std::to_string(kMaxWebpSide) + " pixels a side");
    if (options.quality < 1 || options.quality > 100)
        throw usage_error("--quality", std::to_string(options.quality) + " is out of range (allowed: 1 to 100)");
    WebPConfig config;
    if (!WebPConfigInit(&config)) throw output_error("webp", "libwebp's encoder is unusable");
    config.lossless = options.lossless ? 1 : 0;
    config.quality = options.lossless ? 75.0f : static_cast<float>(options.quality);  // lossless: cwebp's effort
    config.method = 4;
    config.thread_level = 1;
    config.exact = options.lossless ? 1 : 0;
    WebPPicture pic;
    if (!WebPPictureInit(&pic)) throw output_error("webp", "libwebp's encoder is unusable");
    std::unique_ptr<WebPPicture, PictureFree> owned(&pic);
    pic.width = img.width;
    pic.height = img.height;
    pic.use_argb = config.lossless;
    // WebP has no gray layouts: gray and gray+alpha go in as RGB(A).
    const bool alpha = has_alpha(img.channels);
    ImageU8 colour;
    const ConstViewU8 src = img.channels <= 2 ? (colour = gray_as_rgb(img)).cview() : img;
    const int stride = static_cast<int>(src.stride);
    const int ok = alpha ? WebPPictureImportRGBA(&pic, src.data, stride) : WebPPictureImportRGB(&pic, src.data, stride);
    if (!ok) throw output_error("webp", "out of memory importing the image into libwebp");
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    std::unique_ptr<WebPMemoryWriter, void (*)(WebPMemoryWriter*)> written(&writer, WebPMemoryWriterClear);
    pic.writer = WebPMemoryWrite;
    pic.custom_ptr = &writer;
    if (!WebPEncode(&config, &pic))
        throw output_error("webp", "libwebp could not encode the image (error " + std::to_string(pic.error_code) + ")");
    if (options.metadata && !options.metadata->empty()) return with_metadata(writer.mem, writer.size, *options.metadata);
    return std::vector<std::uint8_t>(writer.mem, writer.mem + writer.size);
}

#else  // no libwebp

namespace {
[[noreturn]] void absent(const std::string& name) {
    throw input_error(name, "this build of imgpar has no WebP codec (build it with libwebp-dev installed)");
}
}  // namespace

bool webp_codec_available() { return false; }
std::string webp_codec_name() { return ""; }
WebpHeaderInfo webp_read_header(const std::string& name, const std::vector<std::uint8_t>&) { absent(name); }
ImageMetadata webp_read_metadata(const std::vector<std::uint8_t>&) { return {}; }
ImageU8 webp_decode(const std::string& name, const std::vector<std::uint8_t>&, const WebpHeaderInfo&,
                    std::vector<std::string>&, bool) {
    absent(name);
}
std::vector<std::uint8_t> webp_encode(ConstViewU8, const WebpEncodeOptions&) {
    throw output_error("webp", "this build of imgpar has no WebP codec (build it with libwebp-dev installed)");
}

#endif

}  // namespace imgpar
