// libjpeg-turbo's error and warning handling as imgpar's JPEG readers share it
// (src/io/jpeg_codec.cpp, src/io/jpeg_coefficients.cpp), with the bound on
// the work a file's scans may ask for (src/io/jpeg_work_budget.hpp). Include
// only where the build has libjpeg-turbo (IMGPAR_HAVE_LIBJPEG), after jpeglib.h.
#pragma once

#include <csetjmp>
#include <cstdint>
#include <string>
#include <vector>

#include <jerror.h>
#include <jpeglib.h>

#include "src/error.hpp"
#include "src/io/jpeg_check.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_work_budget.hpp"

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

    // The scans libjpeg-turbo has read so far (its progress monitor counts
    // them), the file's size, and why it stopped when they passed the budget.
    jpeg_progress_mgr progress{};
    JpegScanWork work;
    std::uint64_t file_bytes = 0;
    std::string over_budget;
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

// Counts a scan that libjpeg-turbo started since the last call (its blocks,
// as its own per-scan set-up gives them); true, with the reason in
// e.over_budget, when the scans so far pass the budget.
inline bool count_scans(jpeg_decompress_struct& d, JpegErrors& e) {
    if (d.input_scan_number <= e.work.scans || d.comps_in_scan < 1) return false;
    std::uint64_t blocks = 0;
    if (d.comps_in_scan == 1) {
        const jpeg_component_info& k = *d.cur_comp_info[0];
        blocks = static_cast<std::uint64_t>(k.width_in_blocks) * k.height_in_blocks;
    } else {
        blocks = static_cast<std::uint64_t>(d.MCUs_per_row) * d.MCU_rows_in_scan * static_cast<std::uint64_t>(d.blocks_in_MCU);
    }
    while (e.work.scans < d.input_scan_number) e.work.add_scan(blocks);
    e.over_budget = jpeg_work_refusal(e.work, e.file_bytes, false);
    return !e.over_budget.empty();
}

// libjpeg-turbo calls its progress monitor before it reads each piece of
// input, a new scan's data included (jdapistd.c, jdtrans.c), and after each
// row it outputs: the scan is refused before a block of it is decoded.
inline void on_progress(j_common_ptr info) {
    auto* e = reinterpret_cast<JpegErrors*>(info->err);
    if (count_scans(*reinterpret_cast<j_decompress_ptr>(info), *e)) std::longjmp(e->jump, 1);
}

// Refuses a file whose scans ask for more work than its size can hold
// (src/io/jpeg_work_budget.hpp), from its markers before anything is decoded,
// and has libjpeg-turbo's progress monitor count the scans it reads.
// A file of one scan passes over each block once: nothing to walk.
inline void guard_work(jpeg_decompress_struct& d, JpegErrors& e, const std::string& name,
                       const std::vector<std::uint8_t>& bytes) {
    if (d.progressive_mode || d.comps_in_scan < d.num_components) {
        const JpegCheck c = check_jpeg(bytes.data(), bytes.size());
        const std::string too_much = jpeg_work_refusal(c.work, bytes.size());
        if (!too_much.empty()) throw input_error(name, too_much);
    }
    e.work = JpegScanWork{};
    e.work.progressive = d.progressive_mode != 0;
    for (int c = 0; c < d.num_components; ++c)
        e.work.image_blocks +=
            static_cast<std::uint64_t>(d.comp_info[c].width_in_blocks) * d.comp_info[c].height_in_blocks;
    e.file_bytes = bytes.size();
    e.progress.progress_monitor = on_progress;
    d.progress = &e.progress;
}

// The error imgpar reports for what a decoder's setjmp caught.
inline Error decode_error(const std::string& name, const JpegErrors& e) {
    if (!e.over_budget.empty()) return input_error(name, e.over_budget);
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
    guard_work(d, *reinterpret_cast<JpegErrors*>(d.err), name, bytes);
}

}  // namespace imgpar::jpeg_errors
