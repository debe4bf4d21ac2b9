#include "src/io/jpeg_coefficients.hpp"

#include "src/error.hpp"
#include "src/io/jpeg_layout.hpp"

#if IMGPAR_HAVE_LIBJPEG
#include <algorithm>
#include <cstring>
#include <memory>

#include <jpeglib.h>

#include "src/io/jpeg_errors.hpp"
#endif

namespace imgpar {

bool jpeg_coefficients_suit(const std::uint8_t* data, std::size_t size) {
    return jpeg_coefficients_suit(read_jpeg_layout(data, size));
}

bool jpeg_coefficients_suit(const JpegLayout& l) {
    if (!l.valid || l.precision != 8 || (l.frame_marker != 0xC0 && l.frame_marker != 0xC1)) return false;
    if (l.components == 1) return true;
    return l.components == 3 && l.ycbcr_huffman_8bit() && l.chroma_layout().has_value();
}

#if IMGPAR_HAVE_LIBJPEG
namespace {

// Everything libjpeg touches after setjmp, behind a reference (as in
// jpeg_codec.cpp), so a longjmp leaves no local indeterminate.
struct Read {
    jpeg_decompress_struct d{};
    jpeg_errors::JpegErrors e{};
    jvirt_barray_ptr* arrays = nullptr;
    JpegCoefficients out;
    ~Read() { jpeg_destroy_decompress(&d); }
};

}  // namespace

JpegCoefficients jpeg_read_coefficients(const std::string& name, const std::vector<std::uint8_t>& bytes, int width,
                                        int height, std::vector<std::string>& warnings,
                                        const JpegDecodeOptions& options) {
    auto state = std::make_shared<Read>();
    Read& r = *state;
    jpeg_decompress_struct& d = r.d;
    r.e.warnings = &warnings;
    r.e.allow_partial = options.allow_partial;
    jpeg_errors::set_errors(d, r.e);
    JpegCoefficients& out = r.out;
    if (setjmp(r.e.jump)) throw jpeg_errors::decode_error(name, r.e);
    jpeg_errors::start_decoder(d, name, bytes, width, height, options);
    if (d.progressive_mode || d.data_precision != 8 || (d.num_components != 1 && d.num_components != 3))
        throw input_error(name, "this JPEG's coefficients are not read here (progressive, or not gray or colour)");
    const JpegLayout l = read_jpeg_layout(bytes.data(), bytes.size());
    r.arrays = jpeg_read_coefficients(&d);
    r.e.warnings = nullptr;  // the caller's list is not the copies' to use
    out.width = width;
    out.height = height;
    out.components = d.num_components;
    out.layout = l.components == 3 && l.chroma_layout() ? *l.chroma_layout() : ChromaLayout::Full;
    out.name = name;
    for (int c = 0; c < d.num_components; ++c) {
        const jpeg_component_info& k = d.comp_info[c];
        JpegCoefficients::Component& o = out.component[static_cast<std::size_t>(c)];
        o.blocks_wide = static_cast<int>(k.width_in_blocks);
        o.blocks_high = static_cast<int>(k.height_in_blocks);
        o.width = static_cast<int>(k.downsampled_width);
        o.height = static_cast<int>(k.downsampled_height);
        o.first_block = out.blocks;
        // A component no scan carried has no table: libjpeg-turbo's inverse
        // DCT then multiplies by zeros (its tables start zeroed), so its
        // samples are all mid-gray; zeros here give the same.
        for (int i = 0; i < DCTSIZE2; ++i)
            o.quant[static_cast<std::size_t>(i)] = k.quant_table ? static_cast<std::uint16_t>(k.quant_table->quantval[i]) : 0;
        out.blocks += static_cast<std::size_t>(o.blocks_wide) * static_cast<std::size_t>(o.blocks_high);
    }
    JpegCoefficients result = out;
    result.source = state;  // keeps libjpeg-turbo's arrays for copy_blocks
    return result;
}

namespace {

// copy_blocks' loop, in a frame of its own: libjpeg-turbo's errors jump over it.
bool copy_from_arrays(Read& r, const JpegCoefficients& k, std::size_t first, std::size_t count, std::int16_t* out) {
    for (int c = 0; c < k.components && count > 0; ++c) {
        const JpegCoefficients::Component& comp = k.component[static_cast<std::size_t>(c)];
        const std::size_t end = comp.first_block + static_cast<std::size_t>(comp.blocks_wide) * static_cast<std::size_t>(comp.blocks_high);
        while (count > 0 && first >= comp.first_block && first < end) {
            const std::size_t index = first - comp.first_block;
            const auto row = static_cast<JDIMENSION>(index / static_cast<std::size_t>(comp.blocks_wide));
            const std::size_t column = index % static_cast<std::size_t>(comp.blocks_wide);
            const std::size_t n = std::min(count, static_cast<std::size_t>(comp.blocks_wide) - column);
            JBLOCKARRAY rows = (*r.d.mem->access_virt_barray)(reinterpret_cast<j_common_ptr>(&r.d), r.arrays[c], row, 1, FALSE);
            std::memcpy(out, rows[0][column], n * sizeof(JBLOCK));
            out += n * DCTSIZE2;
            first += n;
            count -= n;
        }
    }
    return count == 0;
}

}  // namespace

void JpegCoefficients::copy_blocks(std::size_t first, std::size_t count, std::int16_t* out) const {
    Read& r = *static_cast<Read*>(source.get());
    // libjpeg-turbo's errors jump here now: the reading function has returned.
    if (setjmp(r.e.jump)) throw jpeg_errors::decode_error(name, r.e);
    if (!copy_from_arrays(r, *this, first, count, out))
        throw input_error(name, "JPEG coefficients: blocks asked for past the last");
}

#else

JpegCoefficients jpeg_read_coefficients(const std::string& name, const std::vector<std::uint8_t>&, int, int,
                                        std::vector<std::string>&, const JpegDecodeOptions&) {
    throw output_error(name, "this imgpar was built without libjpeg-turbo");
}

void JpegCoefficients::copy_blocks(std::size_t, std::size_t, std::int16_t*) const {
    throw output_error(name, "this imgpar was built without libjpeg-turbo");
}

#endif

}  // namespace imgpar
