// Fuzz target: the split JPEG decode (src/gpu/jpeg_idct.hpp) on the CPU, for
// every file it takes: the coefficients read by libjpeg-turbo and copied out
// in pieces that cross rows and components, each block through the inverse
// DCT the GPU runs (src/io/jpeg_idct.hpp), the planes upsampled and converted
// as the GPU does (src/io/jpeg_color.hpp). Where every block is safe, the
// pixels must be decode_image's exactly, and a file one reader refuses the
// other must refuse too: the GPU's answer is this one.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/io/jpeg_coefficients.hpp"
#include "src/io/load.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/support/split_decode_reference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!imgpar::jpeg_coefficients_suit(data, size)) return 0;
    const std::vector<std::uint8_t> bytes(data, data + size);
    const imgpar::LoadOptions options = imgpar::fuzz::load_options();
    imgpar::fuzz::expect_errors_of({imgpar::ErrorKind::Input}, [&] {
        const imgpar::ImageHeader header = imgpar::read_image_header("fuzz", bytes, options);  // the pixel limit
        std::vector<std::string> warnings;
        imgpar::JpegDecodeOptions jpeg;
        jpeg.max_memory = options.max_memory;
        imgpar::JpegCoefficients k;
        bool read = true;
        try {
            k = imgpar::jpeg_read_coefficients("fuzz", bytes, header.width, header.height, warnings, jpeg);
        } catch (const imgpar::Error&) {
            read = false;
        }
        bool decoded = true;
        imgpar::ImageU8 expected;
        try {
            expected = imgpar::decode_image("fuzz", bytes, options).image;
        } catch (const imgpar::Error&) {
            decoded = false;
        }
        FUZZ_CHECK(read == decoded);
        if (!read) return;
        FUZZ_CHECK(k.width == header.width && k.height == header.height && (k.components == 1 || k.components == 3));
        // Copied out in pieces of 5 blocks, which cross rows and components.
        const imgpar::test::SplitPlanes planes = imgpar::test::split_planes(k, 5);
        if (planes.unsafe_blocks > 0) return;  // the GPU hands such a file back to libjpeg-turbo
        const imgpar::ImageU8 split = imgpar::test::split_pixels(planes, k);
        FUZZ_CHECK(expected.channels() == split.channels());
        FUZZ_CHECK(std::equal(expected.data(), expected.data() + expected.size_bytes(), split.data()));
    });
    return 0;
}
