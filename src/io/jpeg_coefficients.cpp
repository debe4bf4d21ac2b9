#include "src/io/jpeg_coefficients.hpp"

#include "src/error.hpp"
#include "src/io/jpeg_layout.hpp"

#if IMGPAR_HAVE_LIBJPEG
#include <cstring>
#include <memory>
#include <utility>

#include <jpeglib.h>

#include "src/io/jpeg_errors.hpp"
#endif

namespace imgpar {

bool jpeg_coefficients_suit(const std::uint8_t* data, std::size_t size) {
    const JpegLayout l = read_jpeg_layout(data, size);
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
    JpegCoefficients out;
    ~Read() { jpeg_destroy_decompress(&d); }
};

}  // namespace

JpegCoefficients jpeg_read_coefficients(const std::string& name, const std::vector<std::uint8_t>& bytes, int width,
                                        int height, std::vector<std::string>& warnings,
                                        const JpegDecodeOptions& options) {
    auto state = std::make_unique<Read>();
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
    jvirt_barray_ptr* arrays = jpeg_read_coefficients(&d);
    out.width = width;
    out.height = height;
    out.components = d.num_components;
    out.layout = l.components == 3 && l.chroma_layout() ? *l.chroma_layout() : ChromaLayout::Full;
    std::size_t total = 0;
    for (int c = 0; c < d.num_components; ++c) {
        const jpeg_component_info& k = d.comp_info[c];
        JpegCoefficients::Component& o = out.component[static_cast<std::size_t>(c)];
        o.blocks_wide = static_cast<int>(k.width_in_blocks);
        o.blocks_high = static_cast<int>(k.height_in_blocks);
        o.width = static_cast<int>(k.downsampled_width);
        o.height = static_cast<int>(k.downsampled_height);
        o.offset = total;
        for (int i = 0; i < DCTSIZE2; ++i) o.quant[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(k.quant_table->quantval[i]);
        total += static_cast<std::size_t>(o.blocks_wide) * static_cast<std::size_t>(o.blocks_high) * DCTSIZE2;
    }
    out.coefficients.resize(total);
    for (int c = 0; c < d.num_components; ++c) {
        const JpegCoefficients::Component& o = out.component[static_cast<std::size_t>(c)];
        const std::size_t row_values = static_cast<std::size_t>(o.blocks_wide) * DCTSIZE2;
        for (int y = 0; y < o.blocks_high; ++y) {
            JBLOCKARRAY row = (*d.mem->access_virt_barray)(reinterpret_cast<j_common_ptr>(&d), arrays[c],
                                                           static_cast<JDIMENSION>(y), 1, FALSE);
            std::memcpy(out.coefficients.data() + o.offset + static_cast<std::size_t>(y) * row_values, row[0],
                        row_values * sizeof(JCOEF));
        }
    }
    jpeg_finish_decompress(&d);
    return std::move(out);
}

#else

JpegCoefficients jpeg_read_coefficients(const std::string& name, const std::vector<std::uint8_t>&, int, int,
                                        std::vector<std::string>&, const JpegDecodeOptions&) {
    throw output_error(name, "this imgpar was built without libjpeg-turbo");
}

#endif

}  // namespace imgpar
