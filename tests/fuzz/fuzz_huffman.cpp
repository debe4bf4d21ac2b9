// Fuzz target: the parallel Huffman decoding's CPU twin
// (src/io/jpeg_huffman_cpu.hpp) on hostile scans, with the GPU's
// subsequences and its slowest order of walks, against the scan walk and
// libjpeg-turbo: a file it takes must be one the walk finds clean, and its
// coefficients must be libjpeg-turbo's. (A clean file it does not take is one
// whose decoders never fell into step, or a layout it leaves alone: both go
// to libjpeg-turbo, as the GPU leaves them.)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_huffman_cpu.hpp"
#include "src/io/jpeg_scan.hpp"
#include "src/io/load.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The GPU's subsequences, its slowest order of walks.
    const imgpar::JpegHuffmanResult r =
        imgpar::decode_jpeg_huffman_cpu(data, size, 256, imgpar::JpegHuffmanWalkOrder::LastToFirst);
    const bool clean = imgpar::jpeg_scan_is_clean(data, size);
    if (!r.taken) return 0;  // a scan it refuses may still be clean: never in step, or a layout it leaves alone
    FUZZ_CHECK(clean);
    const std::vector<std::uint8_t> bytes(data, data + size);
    const imgpar::LoadOptions options = imgpar::fuzz::load_options();
    imgpar::fuzz::expect_errors_of({imgpar::ErrorKind::Input}, [&] {
        const imgpar::ImageHeader header = imgpar::read_image_header("fuzz", bytes, options);  // the pixel limit
        std::vector<std::string> warnings;
        imgpar::JpegDecodeOptions jpeg;
        jpeg.max_memory = options.max_memory;
        const imgpar::JpegCoefficients k =
            imgpar::jpeg_read_coefficients("fuzz", bytes, header.width, header.height, warnings, jpeg);
        // (Its warnings may be about the rest of the file: a JFIF revision, metadata.)
        FUZZ_CHECK(r.blocks.size() == k.blocks * 64);
        std::vector<std::int16_t> want(k.blocks * 64);
        k.copy_blocks(0, k.blocks, want.data());
        FUZZ_CHECK(std::equal(want.begin(), want.end(), r.blocks.begin()));
    });
    return 0;
}
