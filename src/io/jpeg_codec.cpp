#include "src/io/jpeg_codec.hpp"

#include "src/error.hpp"

#if IMGPAR_HAVE_LIBJPEG
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include <jerror.h>
#include <jpeglib.h>
#endif

namespace imgpar {

ChromaSubsampling parse_chroma_subsampling(const std::string& text) {
    if (text == "auto") return ChromaSubsampling::Auto;
    if (text == "444") return ChromaSubsampling::S444;
    if (text == "422") return ChromaSubsampling::S422;
    if (text == "420") return ChromaSubsampling::S420;
    throw usage_error("--chroma-subsampling", "'" + text + "' is not one of auto, 444, 422, 420");
}

#if IMGPAR_HAVE_LIBJPEG
namespace {

// libjpeg reports a fatal error through error_exit, which must not return:
// it jumps back to the setjmp in the function that called libjpeg, which
// throws from there (no C++ object lives between the two).
struct JpegErrors {
    jpeg_error_mgr mgr{};
    std::jmp_buf jump{};
    char message[JMSG_LENGTH_MAX] = {};
    std::vector<std::string>* warnings = nullptr;
};

[[noreturn]] void on_error(j_common_ptr info) {
    auto* e = reinterpret_cast<JpegErrors*>(info->err);
    (*info->err->format_message)(info, e->message);
    std::longjmp(e->jump, 1);
}

// Level -1 is a warning (corrupt but recoverable data); other levels are trace
// messages, which are not shown.
void on_message(j_common_ptr info, int level) {
    auto* e = reinterpret_cast<JpegErrors*>(info->err);
    if (level >= 0 || !e->warnings) return;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    if (e->warnings->size() < 4) e->warnings->push_back(std::string("JPEG data: ") + text);
}

void set_errors(jpeg_decompress_struct& d, JpegErrors& e) {
    d.err = jpeg_std_error(&e.mgr);
    e.mgr.error_exit = on_error;
    e.mgr.emit_message = on_message;
}

// Adobe's CMYK JPEGs store inverted inks: R = C * K / 255 with C and K as read.
void cmyk_row_to_rgb(const std::uint8_t* cmyk, std::uint8_t* rgb, int width) {
    for (int x = 0; x < width; ++x, cmyk += 4, rgb += 3) {
        const unsigned k = cmyk[3];
        for (int c = 0; c < 3; ++c) rgb[c] = static_cast<std::uint8_t>((cmyk[c] * k + 127u) / 255u);
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

ImageU8 jpeg_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, int width, int height,
                    std::vector<std::string>& warnings) {
    auto state = std::make_unique<Decode>();
    Decode& j = *state;
    jpeg_decompress_struct& d = j.d;
    ImageU8& out = j.out;
    std::vector<std::uint8_t>& cmyk = j.cmyk;
    j.e.warnings = &warnings;
    set_errors(d, j.e);
    if (setjmp(j.e.jump)) throw input_error(name, std::string("cannot decode JPEG data: ") + j.e.message);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, bytes.data(), static_cast<unsigned long>(bytes.size()));
    jpeg_read_header(&d, TRUE);
    if (d.image_width != static_cast<JDIMENSION>(width) || d.image_height != static_cast<JDIMENSION>(height))
        throw input_error(name, "decoded size differs from the header (corrupt file)");
    const bool ink = d.jpeg_color_space == JCS_CMYK || d.jpeg_color_space == JCS_YCCK;
    d.out_color_space = d.num_components == 1 ? JCS_GRAYSCALE : ink ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&d);
    const int channels = ink ? 3 : d.output_components;
    out = ImageU8(static_cast<int>(d.output_width), static_cast<int>(d.output_height), channels);
    if (ink) cmyk.resize(static_cast<std::size_t>(d.output_width) * 4);
    while (d.output_scanline < d.output_height) {
        std::uint8_t* row = out.data() + static_cast<std::size_t>(d.output_scanline) * out.row_bytes();
        JSAMPROW target = ink ? cmyk.data() : row;
        jpeg_read_scanlines(&d, &target, 1);
        if (ink) cmyk_row_to_rgb(cmyk.data(), row, out.width());
    }
    jpeg_finish_decompress(&d);
    return std::move(out);
}

namespace {

// The input's EXIF block (APP1, after the JFIF segment, where readers look
// for it) and ICC profile (APP2 chunks, written by libjpeg-turbo).
void write_metadata(jpeg_compress_struct& c, const ImageMetadata& m) {
    constexpr std::size_t kMaxSegmentData = 65533;
    static const char kExifId[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (!m.exif.empty() && m.exif.size() + sizeof kExifId <= kMaxSegmentData) {
        std::vector<std::uint8_t> app1(kExifId, kExifId + sizeof kExifId);
        app1.insert(app1.end(), m.exif.begin(), m.exif.end());
        jpeg_write_marker(&c, JPEG_APP0 + 1, app1.data(), static_cast<unsigned>(app1.size()));
    }
    if (!m.icc.empty()) jpeg_write_icc_profile(&c, m.icc.data(), static_cast<unsigned>(m.icc.size()));
}

}  // namespace

std::vector<std::uint8_t> jpeg_encode(ConstViewU8 image, int quality, ChromaSubsampling chroma,
                                      const ImageMetadata* metadata) {
    if (image.channels != 1 && image.channels != 3) throw usage_error("jpeg", "JPEG holds gray or RGB pixels");
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
        if (chroma == ChromaSubsampling::Auto) chroma = quality > 90 ? ChromaSubsampling::S444 : ChromaSubsampling::S420;
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

#else

bool jpeg_codec_available() { return false; }
std::string jpeg_codec_name() { return "stb_image"; }
ImageU8 jpeg_decode(const std::string& name, const std::vector<std::uint8_t>&, int, int, std::vector<std::string>&) {
    throw input_error(name, "this build has no libjpeg-turbo");
}
std::vector<std::uint8_t> jpeg_encode(ConstViewU8, int, ChromaSubsampling, const ImageMetadata*) {
    throw output_error("jpeg", "this build has no libjpeg-turbo");
}

#endif

}  // namespace imgpar
