#include "src/io/jpeg_codec.hpp"

#include "src/error.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/parallel.hpp"

#if IMGPAR_HAVE_LIBJPEG
#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include <jerror.h>
#include <jpeglib.h>

#include "src/io/jpeg_errors.hpp"
#endif

namespace imgpar {

ChromaSubsampling parse_chroma_subsampling(const std::string& text) {
    if (text == "auto") return ChromaSubsampling::Auto;
    if (text == "444") return ChromaSubsampling::S444;
    if (text == "422") return ChromaSubsampling::S422;
    if (text == "420") return ChromaSubsampling::S420;
    throw usage_error("--chroma-subsampling", "'" + text + "' is not one of auto, 444, 422, 420");
}

ChromaSubsampling resolved_chroma(ChromaSubsampling chroma, int quality) {
    if (chroma != ChromaSubsampling::Auto) return chroma;
    return quality > 90 ? ChromaSubsampling::S444 : ChromaSubsampling::S420;
}

#if IMGPAR_HAVE_LIBJPEG
namespace {

using jpeg_errors::JpegErrors;
using jpeg_errors::on_error;
using jpeg_errors::set_errors;

// CMYK to RGB with no colour management (ImageMagick's and Pillow's naive
// conversion): R = (1 - C)(1 - K), read on 0..255 as round((255 - C)(255 - K)
// / 255). A file with an Adobe segment (Photoshop's, and libjpeg's own for
// CMYK and YCCK) stores inverted inks, 255 - C, so R = round(C' K' / 255) of
// what is stored; a file without one stores the inks as they are (Pillow's
// rule).
void cmyk_row_to_rgb(const std::uint8_t* cmyk, std::uint8_t* rgb, int width, bool inverted) {
    const unsigned flip = inverted ? 0u : 255u;
    for (int x = 0; x < width; ++x, cmyk += 4, rgb += 3) {
        const unsigned k = cmyk[3] ^ flip;
        for (int c = 0; c < 3; ++c) rgb[c] = static_cast<std::uint8_t>(((cmyk[c] ^ flip) * k + 127u) / 255u);
    }
}

// Everything the decoder touches after setjmp lives here, behind a
// reference, so a longjmp leaves no local in an indeterminate state.
struct Decode {
    jpeg_decompress_struct d{};
    JpegErrors e{};
    ImageU8 out;
    std::vector<std::uint8_t> cmyk;
    ~Decode() { jpeg_destroy_decompress(&d); }
};

struct Encode {
    jpeg_compress_struct c{};
    JpegErrors e{};
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    ~Encode() {
        jpeg_destroy_compress(&c);
        std::free(buffer);
    }
};

}  // namespace

bool jpeg_codec_available() { return true; }

std::string jpeg_codec_name() {
#ifdef LIBJPEG_TURBO_VERSION
#define IMGPAR_TEXT(x) #x
#define IMGPAR_VERSION_TEXT(x) IMGPAR_TEXT(x)
    return std::string("libjpeg-turbo ") + IMGPAR_VERSION_TEXT(LIBJPEG_TURBO_VERSION);
#undef IMGPAR_VERSION_TEXT
#undef IMGPAR_TEXT
#else
    return "libjpeg " + std::to_string(JPEG_LIB_VERSION);
#endif
}

namespace {

// Decodes rows [first, end) of the file into `out` (all rows when `out` is
// empty: it is made here). A band after the first skips the rows before it
// with jpeg_skip_scanlines, which runs only the entropy decoder over them, so
// bands decode on several threads to the very pixels of one whole decode.
void decode_rows(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height, int first,
                 int end, ImageU8& out, std::vector<std::string>& warnings, const JpegDecodeOptions& options) {
    auto state = std::make_unique<Decode>();
    Decode& j = *state;
    jpeg_decompress_struct& d = j.d;
    std::vector<std::uint8_t>& cmyk = j.cmyk;
    j.e.warnings = &warnings;
    j.e.allow_partial = options.allow_partial;
    set_errors(d, j.e);
    if (setjmp(j.e.jump)) throw jpeg_errors::decode_error(name, j.e);
    jpeg_errors::start_decoder(d, name, bytes, width, height, options);
    const bool ink = d.jpeg_color_space == JCS_CMYK || d.jpeg_color_space == JCS_YCCK;
    d.out_color_space = d.num_components == 1 ? JCS_GRAYSCALE : ink ? JCS_CMYK : JCS_RGB;
    d.scale_num = 1;
    d.scale_denom = static_cast<unsigned>(options.scale_denom);
    jpeg_start_decompress(&d);
    const int channels = ink ? 3 : d.output_components;
    if (ink && first == 0)  // said once, by the band that starts the image
        warnings.push_back(std::string(d.jpeg_color_space == JCS_YCCK ? "YCCK" : "CMYK") +
                           " JPEG converted to RGB without colour management (" +
                           (d.saw_Adobe_marker ? "inverted inks, as Adobe writes them" : "inks as stored, no Adobe segment") +
                           "): colours are approximate");
    if (out.width() == 0)
        out = ImageU8(static_cast<int>(d.output_width), static_cast<int>(d.output_height), channels);
    if (ink) cmyk.resize(static_cast<std::size_t>(d.output_width) * 4);
#ifdef LIBJPEG_TURBO_VERSION
    if (first > 0) jpeg_skip_scanlines(&d, static_cast<JDIMENSION>(first));
#endif
    while (d.output_scanline < static_cast<JDIMENSION>(end)) {
        std::uint8_t* row = out.data() + static_cast<std::size_t>(d.output_scanline) * out.row_bytes();
        JSAMPROW target = ink ? cmyk.data() : row;
        jpeg_read_scanlines(&d, &target, 1);
        if (ink) cmyk_row_to_rgb(cmyk.data(), row, out.width(), d.saw_Adobe_marker != 0);
    }
    if (end == static_cast<int>(d.output_height)) {
        jpeg_finish_decompress(&d);
    } else {
        jpeg_abort_decompress(&d);
    }
}

// Below this many pixels, or rows per band, one thread decodes the file.
constexpr std::uint64_t kMinParallelPixels = 2'000'000;
constexpr int kMinBandRows = 256;
// Skipping a row (entropy decoding only) costs about this share of decoding
// it (measured with libjpeg-turbo 2.1 on photos).
constexpr double kSkipCost = 0.3;

// Where each band starts (and, last, the height), so that every band ends at
// about the same time: band k skips start[k] rows and decodes the rest of
// its own, so later bands are shorter. Starts fall on 16-row boundaries
// (whole iMCU rows, which skip fastest).
std::vector<int> band_starts(int height, int bands) {
    const double t = height * kSkipCost / (1.0 - std::pow(1.0 - kSkipCost, bands));
    std::vector<int> starts(static_cast<std::size_t>(bands) + 1, height);
    starts[0] = 0;
    for (int k = 1; k < bands; ++k) {
        const double at = t * (1.0 - std::pow(1.0 - kSkipCost, k)) / kSkipCost;
        const int rounded = static_cast<int>(at) / 16 * 16;
        starts[static_cast<std::size_t>(k)] =
            std::clamp(rounded, starts[static_cast<std::size_t>(k) - 1] + 16, height - 16 * (bands - k));
    }
    return starts;
}

// Whether the file can be decoded in bands: sequential (a progressive file
// would make every band decode all of its coefficients), libjpeg-turbo.
bool sequential_jpeg(const std::vector<std::uint8_t>& bytes) {
#ifdef LIBJPEG_TURBO_VERSION
    const JpegLayout l = read_jpeg_layout(bytes.data(), bytes.size());
    return l.valid && (l.frame_marker == 0xC0 || l.frame_marker == 0xC1);
#else
    (void)bytes;
    return false;
#endif
}

}  // namespace

JpegHeaderInfo jpeg_read_header_info(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    auto state = std::make_unique<Decode>();
    Decode& j = *state;
    jpeg_decompress_struct& d = j.d;
    set_errors(d, j.e);
    if (setjmp(j.e.jump)) throw input_error(name, std::string("the JPEG header is invalid or truncated (") + j.e.message + ")");
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, bytes.data(), static_cast<unsigned long>(bytes.size()));
    jpeg_read_header(&d, TRUE);
    JpegHeaderInfo h;
    h.width = static_cast<int>(d.image_width);
    h.height = static_cast<int>(d.image_height);
    h.components = d.num_components;
    if (h.components != 1 && h.components != 3 && h.components != 4)
        throw input_error(name, "the JPEG has " + std::to_string(h.components) + " colour components (1, 3 or 4 are supported)");
    h.channels = h.components == 1 ? 1 : 3;
    h.progressive = d.progressive_mode != 0;
    // libjpeg-turbo keeps every coefficient when the image comes in several
    // scans (progressive, or components scanned one by one: jdinput.c), in
    // blocks rounded up to whole MCUs.
    if (h.progressive || d.comps_in_scan < d.num_components) {
        for (int c = 0; c < d.num_components; ++c) {
            const jpeg_component_info& k = d.comp_info[c];
            const auto round_up = [](std::uint64_t v, std::uint64_t m) { return (v + m - 1) / m * m; };
            h.coefficient_bytes += round_up(k.width_in_blocks, static_cast<std::uint64_t>(k.h_samp_factor)) *
                                   round_up(k.height_in_blocks, static_cast<std::uint64_t>(k.v_samp_factor)) *
                                   sizeof(JBLOCK);
        }
    }
    return h;
}

ImageU8 jpeg_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                    std::vector<std::string>& warnings, const JpegDecodeOptions& options) {
    ImageU8 out;
    const int bands = std::min(cpu_thread_count(), height / kMinBandRows);
    if (options.scale_denom > 1) {  // shrink-on-load: one pass, its rows are the scaled ones
        const int d = options.scale_denom;
        decode_rows(name, bytes, width, height, 0, (height + d - 1) / d, out, warnings, options);
        return out;
    }
    if (bands < 2 || static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) < kMinParallelPixels ||
        !sequential_jpeg(bytes)) {
        decode_rows(name, bytes, width, height, 0, height, out, warnings, options);
        return out;
    }
    // Gray stays gray; colour and CMYK decode to RGB.
    const JpegLayout l = read_jpeg_layout(bytes.data(), bytes.size());
    out = ImageU8(width, height, l.components == 1 ? 1 : 3);
    const std::vector<int> starts = band_starts(height, bands);
    std::vector<std::vector<std::string>> band_warnings(static_cast<std::size_t>(bands));
    parallel_for(bands, 1, [&](int begin, int end) {
        for (int b = begin; b < end; ++b)
            decode_rows(name, bytes, width, height, starts[static_cast<std::size_t>(b)],
                        starts[static_cast<std::size_t>(b) + 1], out, band_warnings[static_cast<std::size_t>(b)], options);
    });
    for (const auto& list : band_warnings)
        for (const std::string& w : list)
            if (warnings.size() < 4 && std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
    return out;
}

namespace {

// The input's metadata, after the JFIF segment (where readers look for
// it), in the segments insert_jpeg_metadata writes too (one list for both,
// so the GPU encoder's files carry the same bytes).
void write_metadata(jpeg_compress_struct& c, const ImageMetadata& m) {
    for (const JpegSegment& s : jpeg_metadata_segments(m, nullptr))
        jpeg_write_marker(&c, s.marker, s.payload.data(), static_cast<unsigned>(s.payload.size()));
}

}  // namespace

namespace {

// One JPEG of `image` (a whole image, or one stripe of one).
std::vector<std::uint8_t> encode_whole(ConstViewU8 image, int quality, ChromaSubsampling chroma,
                                       const ImageMetadata* metadata) {
    auto state = std::make_unique<Encode>();
    Encode& j = *state;
    jpeg_compress_struct& c = j.c;
    c.err = jpeg_std_error(&j.e.mgr);
    j.e.mgr.error_exit = on_error;
    if (setjmp(j.e.jump)) throw output_error("jpeg", std::string("encoder failed: ") + j.e.message);
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, &j.buffer, &j.size);
    c.image_width = static_cast<JDIMENSION>(image.width);
    c.image_height = static_cast<JDIMENSION>(image.height);
    c.input_components = image.channels;
    c.in_color_space = image.channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, quality, TRUE);
    if (image.channels == 3) {
        // jpeg_set_defaults gives luma 2x2 sampling factors against chroma's
        // 1x1 (4:2:0); the other layouts change luma's.
        c.comp_info[0].h_samp_factor = chroma == ChromaSubsampling::S444 ? 1 : 2;
        c.comp_info[0].v_samp_factor = chroma == ChromaSubsampling::S420 ? 2 : 1;
    }
    jpeg_start_compress(&c, TRUE);
    if (metadata) write_metadata(c, *metadata);
    while (c.next_scanline < c.image_height) {
        // libjpeg takes non-const rows but only reads them.
        JSAMPROW row = const_cast<std::uint8_t*>(image.data + static_cast<std::size_t>(c.next_scanline) * image.stride);
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    return std::vector<std::uint8_t>(j.buffer, j.buffer + j.size);
}

// Large images are encoded in stripes of whole MCU rows on several threads,
// each stripe a JPEG of its own, then joined into one: the first stripe's
// headers (its frame's height set to the image's, and a restart interval of
// one stripe), the stripes' entropy-coded data separated by restart markers,
// which reset what each stripe's encoder started from (the DC predictions).
// The pixels decoded are those of a one-piece encode; the stripes, and so the
// bytes, depend on the image's size only, not on the thread count.
constexpr std::uint64_t kStripedPixels = 2'000'000;
constexpr std::uint64_t kStripePixels = 1 << 20;

struct Stripes {
    int rows = 0;   // per stripe, a multiple of 16 (the tallest MCU)
    int count = 0;
    unsigned restart_interval = 0;  // MCUs per stripe
};

Stripes plan_stripes(int width, int height, int mcu_width, int mcu_height) {
    Stripes s;
    const std::uint64_t mcus_per_row = (static_cast<std::uint64_t>(width) + static_cast<std::uint64_t>(mcu_width) - 1) /
                                       static_cast<std::uint64_t>(mcu_width);
    std::uint64_t mcu_rows = std::max<std::uint64_t>(16 / static_cast<std::uint64_t>(mcu_height),
                                                     kStripePixels / static_cast<std::uint64_t>(width) / 16 * 16 /
                                                         static_cast<std::uint64_t>(mcu_height));
    // The restart interval is a 16-bit count of MCUs.
    while (mcu_rows > 1 && mcus_per_row * mcu_rows > 65535) mcu_rows /= 2;
    if (mcus_per_row * mcu_rows > 65535) return s;
    s.rows = static_cast<int>(mcu_rows) * mcu_height;
    s.count = (height + s.rows - 1) / s.rows;
    s.restart_interval = static_cast<unsigned>(mcus_per_row * mcu_rows);
    return s;
}

// Where a JPEG's entropy-coded data starts: after its SOS segment.
std::size_t scan_data_start(const std::vector<std::uint8_t>& j) {
    std::size_t i = 2;
    while (i + 4 <= j.size()) {
        const std::size_t length = static_cast<std::size_t>(j[i + 2]) << 8 | j[i + 3];
        if (j[i + 1] == 0xDA) return i + 2 + length;
        i += 2 + length;
    }
    throw output_error("jpeg", "encoder output has no scan");
}

// A one-piece encode's markers (`j` up to `data0`, the end of its SOS
// segment) for a frame of `width` x `height`, with a restart interval (DRI,
// before SOS) when `interval` is not 0.
std::vector<std::uint8_t> reframed_headers(const std::vector<std::uint8_t>& j, std::size_t data0, int width, int height,
                                           unsigned interval) {
    std::vector<std::uint8_t> out(j.begin(), j.begin() + static_cast<std::ptrdiff_t>(data0));
    std::size_t sos = 0;
    for (std::size_t i = 2; i + 4 <= data0;) {
        const int marker = out[i + 1];
        const std::size_t length = static_cast<std::size_t>(out[i + 2]) << 8 | out[i + 3];
        if (marker == 0xC0 || marker == 0xC1) {
            out[i + 5] = static_cast<std::uint8_t>(height >> 8);
            out[i + 6] = static_cast<std::uint8_t>(height & 0xFF);
            out[i + 7] = static_cast<std::uint8_t>(width >> 8);
            out[i + 8] = static_cast<std::uint8_t>(width & 0xFF);
        }
        if (marker == 0xDA) sos = i;
        i += 2 + length;
    }
    if (interval) {
        const std::uint8_t dri[6] = {0xFF, 0xDD, 0x00, 0x04, static_cast<std::uint8_t>(interval >> 8),
                                     static_cast<std::uint8_t>(interval & 0xFF)};
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(sos), dri, dri + 6);
    }
    return out;
}

std::vector<std::uint8_t> join_stripes(const std::vector<std::vector<std::uint8_t>>& parts, int width, int height,
                                       unsigned interval) {
    const std::vector<std::uint8_t>& first = parts[0];
    const std::size_t data0 = scan_data_start(first);
    std::size_t total = 0;
    for (const auto& p : parts) total += p.size() + 2;
    std::vector<std::uint8_t> out = reframed_headers(first, data0, width, height, interval);
    out.reserve(out.size() + total + 6);
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const std::vector<std::uint8_t>& p = parts[k];
        const std::size_t from = k == 0 ? data0 : scan_data_start(p);
        out.insert(out.end(), p.begin() + static_cast<std::ptrdiff_t>(from), p.end() - 2);  // without its EOI
        if (k + 1 < parts.size()) {
            out.push_back(0xFF);
            out.push_back(static_cast<std::uint8_t>(0xD0 + k % 8));
        }
    }
    out.push_back(0xFF);
    out.push_back(0xD9);
    return out;
}

// How jpeg_encode splits an image: count < 2 when it encodes it in one piece.
Stripes stripes_for(int width, int height, int channels, ChromaSubsampling chroma) {
    if (static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) < kStripedPixels) return {};
    const bool color = channels == 3;
    const int mcu_w = color && chroma != ChromaSubsampling::S444 ? 16 : 8;
    const int mcu_h = color && chroma == ChromaSubsampling::S420 ? 16 : 8;
    return plan_stripes(width, height, mcu_w, mcu_h);
}

}  // namespace

std::vector<std::uint8_t> jpeg_encode(ConstViewU8 image, int quality, ChromaSubsampling chroma,
                                      const ImageMetadata* metadata, bool stripes) {
    if (image.channels != 1 && image.channels != 3) throw usage_error("jpeg", "JPEG holds gray or RGB pixels");
    chroma = resolved_chroma(chroma, quality);
    const Stripes plan = stripes ? stripes_for(image.width, image.height, image.channels, chroma) : Stripes{};
    if (plan.count < 2) return encode_whole(image, quality, chroma, metadata);
    std::vector<std::vector<std::uint8_t>> parts(static_cast<std::size_t>(plan.count));
    parallel_for(plan.count, 1, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const int y0 = k * plan.rows;
            const int rows = std::min(plan.rows, image.height - y0);
            const ConstViewU8 stripe = image.rows(y0, rows);
            parts[static_cast<std::size_t>(k)] = encode_whole(stripe, quality, chroma, k == 0 ? metadata : nullptr);
        }
    });
    return join_stripes(parts, image.width, image.height, plan.restart_interval);
}

std::vector<std::uint8_t> jpeg_stream_header(int width, int height, int channels, int quality, ChromaSubsampling chroma) {
    if (width < 1 || height < 1 || width > 65535 || height > 65535)
        throw usage_error("jpeg", "JPEG holds 1 to 65535 pixels across and down, not " + std::to_string(width) + "x" +
                                      std::to_string(height));
    if (quality < 1 || quality > 100) throw usage_error("jpeg", "quality " + std::to_string(quality) + " is not in 1-100");
    const int stored = channels >= 3 ? 3 : 1;  // alpha is not stored
    chroma = resolved_chroma(chroma, quality);
    // The markers do not depend on the pixels, nor on the size but for the
    // frame header's: a small encode with the same settings has them all.
    const ImageU8 small(16, 16, stored);
    const std::vector<std::uint8_t> j = encode_whole(small.view(), quality, chroma, nullptr);
    const Stripes plan = stripes_for(width, height, stored, chroma);
    return reframed_headers(j, scan_data_start(j), width, height, plan.count < 2 ? 0u : plan.restart_interval);
}

#else

bool jpeg_codec_available() { return false; }
std::string jpeg_codec_name() { return "stb_image"; }
JpegHeaderInfo jpeg_read_header_info(const std::string&, const std::vector<std::uint8_t>&) {
    throw output_error("jpeg", "this build has no libjpeg-turbo");
}
ImageU8 jpeg_decode(const std::string& name, const std::vector<std::uint8_t>&, int, int, std::vector<std::string>&,
                    const JpegDecodeOptions&) {
    throw input_error(name, "this build has no libjpeg-turbo");
}
std::vector<std::uint8_t> jpeg_encode(ConstViewU8, int, ChromaSubsampling, const ImageMetadata*, bool) {
    throw output_error("jpeg", "this build has no libjpeg-turbo");
}
std::vector<std::uint8_t> jpeg_stream_header(int, int, int, int, ChromaSubsampling) {
    throw output_error("jpeg", "this build has no libjpeg-turbo");
}

#endif

}  // namespace imgpar
