// Fuzz target: what imgpar reads from a file without decoding its pixels:
// read_image_header as `info` calls it (header only: no memory budget, no
// check that the data is whole), with the checks in front of the decoders;
// the size peeked straight from the header bytes; and the JPEG layout and the
// walk through its scan that decide whether the GPU's hardware decoder may
// take a file.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/io/header_peek.hpp"
#include "src/io/image_format.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/io/jpeg_scan.hpp"
#include "src/io/load.hpp"
#include "src/io/metadata.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);

    if (const auto format = imgpar::sniff_format(data, size)) (void)imgpar::peek_dimensions(*format, bytes);

    const imgpar::JpegLayout layout = imgpar::read_jpeg_layout(data, size);
    (void)layout.ycbcr_huffman_8bit();
    (void)layout.chroma_layout();
    if (layout.valid) FUZZ_CHECK(layout.components >= 0 && layout.components <= 255);
    if (imgpar::jpeg_scan_is_clean(data, size)) FUZZ_CHECK(layout.valid && layout.width > 0 && layout.height > 0);

    imgpar::fuzz::expect_errors_of({imgpar::ErrorKind::Input}, [&] {
        const imgpar::ImageHeader h = imgpar::read_image_header("fuzz", bytes, imgpar::fuzz::load_options(0));
        FUZZ_CHECK(h.width > 0 && h.height > 0);
        FUZZ_CHECK(static_cast<std::uint64_t>(h.width) * static_cast<std::uint64_t>(h.height) <=
                   imgpar::fuzz::kMaxPixels);
        FUZZ_CHECK(h.channels >= 1 && h.channels <= 4);
        // 8 or 16 (PNG), 10 and 12 too (AVIF), 1, 2, 4, 32 and 64 (TIFF).
        FUZZ_CHECK(h.bit_depth == 8 || h.bit_depth == 10 || h.bit_depth == 12 || h.bit_depth == 16 ||
                   (h.format == imgpar::ImageFormat::Tiff && (h.bit_depth == 1 || h.bit_depth == 2 ||
                                                              h.bit_depth == 4 || h.bit_depth == 32 || h.bit_depth == 64)));
        FUZZ_CHECK(h.pages >= 1 && h.page >= 0 && h.page < h.pages);
        FUZZ_CHECK(h.file_bytes == size);
        FUZZ_CHECK(h.metadata.exif.size() <= size);
        (void)imgpar::describe_metadata(h.metadata);
    });
    return 0;
}
