// The one place stb's implementations are compiled, and imgpar's calls into
// stb_image (src/io/stb_decode.hpp). Only the decoders imgpar supports are
// enabled: PNG, JPEG and BMP. GIF, TGA, HDR, PSD, PIC and PNM stay out, which
// is where most of stb_image's security history lies. Files are read by
// imgpar itself (size checks, stdin), so stb's stdio helpers are compiled
// out too.
#include <climits>
#include "src/io/stb_decode.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "src/error.hpp"

namespace {
// Set while a partial file decodes (src/io/stb_decode.hpp, zero_fill).
thread_local bool stb_zero_allocations = false;
void* stb_allocate(std::size_t size) { return stb_zero_allocations ? std::calloc(1, size) : std::malloc(size); }
}  // namespace

#define STBI_MALLOC(size) stb_allocate(size)
#define STBI_REALLOC(p, size) std::realloc(p, size)
#define STBI_FREE(p) std::free(p)
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_FAILURE_USERMSG
#define STB_IMAGE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#define STB_IMAGE_WRITE_IMPLEMENTATION

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#include <stb_image.h>
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace imgpar {

namespace {

// stb's reason for the call just made: cleared before each call, so it is
// never another file's.
std::string reason() {
    const char* why = stbi__g_failure_reason;
    return why ? why : "no reason given";
}

struct ZeroFill {
    explicit ZeroFill(bool on) { stb_zero_allocations = on; }
    ~ZeroFill() { stb_zero_allocations = false; }
};

struct Free {
    void operator()(void* p) const { stbi_image_free(p); }
};

}  // namespace

StbHeader stb_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes, ImageFormat format,
                          bool transparent_color) {
    stbi__g_failure_reason = nullptr;
    stbi__context s;
    stbi__start_mem(&s, bytes.data(), static_cast<int>(bytes.size()));
    StbHeader h;
    int ok = 0;
    switch (format) {
        case ImageFormat::Png: ok = stbi__png_info(&s, &h.width, &h.height, &h.channels); break;
        case ImageFormat::Jpeg: ok = stbi__jpeg_info(&s, &h.width, &h.height, &h.channels); break;
        case ImageFormat::Bmp:
            ok = stbi__bmp_info(&s, &h.width, &h.height, &h.channels);
            // stb gives a top-down BMP's height as stored, negative (its
            // decoder flips such files itself). INT_MIN stays refused.
            if (ok && h.height < 0 && h.height != INT_MIN) h.height = -h.height;
            break;
        default: break;  // (the other formats have their own libraries: load.cpp)
    }
    if (!ok) throw input_error(name, std::string("the ") + format_label(format) + " header is invalid or truncated (" + reason() + ")");
    if (format == ImageFormat::Png) {
        stbi__start_mem(&s, bytes.data(), static_cast<int>(bytes.size()));
        h.sixteen_bit = stbi__png_is16(&s) != 0;
        if (transparent_color) ++h.channels;
    }
    return h;
}

ImageU8 stb_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, ImageFormat format,
                   const StbHeader& header, bool zero_fill) {
    stbi__g_failure_reason = nullptr;
    const ZeroFill zero(zero_fill);
    const int length = static_cast<int>(bytes.size());
    const auto failed = [&] {
        return input_error(name, std::string("cannot decode ") + format_label(format) + " data: " + reason() +
                                     " (the file is corrupt, truncated or uses an unsupported variant)");
    };
    const auto check_size = [&](int w, int h) {
        if (w != header.width || h != header.height)
            throw input_error(name, "decoded size differs from the header (corrupt file)");
    };
    // Asking for the header's channel count gets a buffer of exactly that
    // many (stb reports a PNG's channels without the alpha its transparent
    // colour adds, and would convert nothing).
    const int channels = header.channels;
    int w = 0, h = 0, in_file = 0;
    if (header.sixteen_bit) {
        std::unique_ptr<stbi_us, Free> pixels(stbi_load_16_from_memory(bytes.data(), length, &w, &h, &in_file, channels));
        if (!pixels) throw failed();
        check_size(w, h);
        ImageU8 out(w, h, channels);
        const stbi_us* from = pixels.get();
        std::uint8_t* to = out.data();
        for (std::size_t i = 0, n = out.sample_count(); i < n; ++i) to[i] = scale_16_to_8(from[i]);
        return out;
    }
    std::unique_ptr<stbi_uc, Free> pixels(stbi_load_from_memory(bytes.data(), length, &w, &h, &in_file, channels));
    if (!pixels) throw failed();
    check_size(w, h);
    ImageU8 out(w, h, channels);
    std::memcpy(out.data(), pixels.get(), out.size_bytes());
    return out;
}

}  // namespace imgpar
