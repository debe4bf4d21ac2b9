// libjpeg-turbo's error and warning handling as imgpar's JPEG readers share it
// (src/io/jpeg_codec.cpp, src/io/jpeg_coefficients.cpp). Include only where
// the build has libjpeg-turbo (IMGPAR_HAVE_LIBJPEG), after jpeglib.h.
#pragma once

#include <csetjmp>
#include <cstdint>
#include <string>
#include <vector>

#include <jerror.h>
#include <jpeglib.h>

#include "src/error.hpp"
#include "src/io/jpeg_codec.hpp"

namespace imgpar::jpeg_errors {

// libjpeg reports a fatal error through error_exit, which must not return:
// it jumps back to the setjmp in the function that called libjpeg, which
// throws from there (no C++ object lives between the two).
struct JpegErrors {
    jpeg_error_mgr mgr{};
    std::jmp_buf jump{};
    char message[JMSG_LENGTH_MAX] = {};
    std::vector<std::string>* warnings = nullptr;
    bool allow_partial = true;
    bool cut_short = false;  // stopped at the end of the scan data (allow_partial unset)
};

[[noreturn]] inline void on_error(j_common_ptr info) {
    auto* e = reinterpret_cast<JpegErrors*>(info->err);
    (*info->err->format_message)(info, e->message);
    std::longjmp(e->jump, 1);
}

// Level -1 is a warning (corrupt but recoverable data); other levels are trace
// messages, which are not shown. Scan data that ends before the image does
// (the file, or a segment between restart markers) is an error unless the
// caller allows partial images: libjpeg-turbo would fill the rest and go on,
// which turns a 300-byte forgery into a gigabyte of gray.
inline void on_message(j_common_ptr info, int level) {
    auto* e = reinterpret_cast<JpegErrors*>(info->err);
    if (level >= 0) return;
    const int code = info->err->msg_code;
    if (!e->allow_partial && (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER)) {
        (*info->err->format_message)(info, e->message);
        e->cut_short = true;
        std::longjmp(e->jump, 1);
    }
    if (!e->warnings) return;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    if (e->warnings->size() < 4) e->warnings->push_back(std::string("JPEG data: ") + text);
}

inline void set_errors(jpeg_decompress_struct& d, JpegErrors& e) {
    d.err = jpeg_std_error(&e.mgr);
    e.mgr.error_exit = on_error;
    e.mgr.emit_message = on_message;
}

// The error imgpar reports for what a decoder's setjmp caught.
inline Error decode_error(const std::string& name, const JpegErrors& e) {
    if (e.cut_short)
        return input_error(name, std::string("JPEG data is truncated or corrupt: the scan data ends before the image does (") +
                                     e.message + "); --allow-partial decodes what is there");
    return input_error(name, std::string("cannot decode JPEG data: ") + e.message);
}

// Makes `d` a decoder of `bytes` (errors through `e`, set up with `options`)
// and reads its header, which must say width x height: a frame of another
// size is refused before anything is allocated. Call after the caller's
// setjmp on e.jump, which libjpeg's errors jump back to.
inline void start_decoder(jpeg_decompress_struct& d, const std::string& name, const std::vector<std::uint8_t>& bytes,
                          int width, int height, const JpegDecodeOptions& options) {
    jpeg_create_decompress(&d);
    if (options.max_memory > 0) d.mem->max_memory_to_use = static_cast<long>(options.max_memory);
    jpeg_mem_src(&d, bytes.data(), static_cast<unsigned long>(bytes.size()));
    jpeg_read_header(&d, TRUE);
    if (d.image_width != static_cast<JDIMENSION>(width) || d.image_height != static_cast<JDIMENSION>(height))
        throw input_error(name, "decoded size differs from the header (corrupt file)");
}

}  // namespace imgpar::jpeg_errors
