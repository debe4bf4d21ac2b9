// Fuzz target: the split JPEG decode (src/gpu/jpeg_idct.hpp) on the CPU, for
// every file it takes: the coefficients read by libjpeg-turbo and copied out
// in pieces that cross rows and components, each block through the inverse
// DCT the GPU runs (src/io/jpeg_idct.hpp), the planes upsampled and converted
// as the GPU does (src/io/jpeg_color.hpp). Where every block is safe, the
// pixels must be decode_image's exactly, and a file one reader refuses the
// other must refuse too: the GPU's answer is this one.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_color.hpp"
#include "src/io/jpeg_idct.hpp"
#include "src/io/load.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using imgpar::JpegCoefficients;

struct Planes {
    std::vector<std::uint8_t> data[3];
    std::size_t pitch[3] = {};
};

// Every block through the inverse DCT; false when one is unsafe.
bool idct_planes(const JpegCoefficients& k, Planes& p) {
    std::vector<std::int16_t> blocks(k.blocks * 64);
    for (std::size_t first = 0; first < k.blocks; first += 5)
        k.copy_blocks(first, std::min<std::size_t>(5, k.blocks - first), blocks.data() + first * 64);
    bool safe = true;
    for (int c = 0; c < k.components; ++c) {
        const JpegCoefficients::Component& comp = k.component[static_cast<std::size_t>(c)];
        p.pitch[c] = static_cast<std::size_t>(comp.blocks_wide) * 8;
        p.data[c].resize(p.pitch[c] * static_cast<std::size_t>(comp.blocks_high) * 8);
        for (int by = 0; by < comp.blocks_high; ++by)
            for (int bx = 0; bx < comp.blocks_wide; ++bx) {
                const std::int16_t* block =
                    blocks.data() + (comp.first_block + static_cast<std::size_t>(by) * comp.blocks_wide + bx) * 64;
                std::uint8_t* at = p.data[c].data() + static_cast<std::size_t>(by) * 8 * p.pitch[c] + static_cast<std::size_t>(bx) * 8;
                safe = imgpar::jpeg_idct::idct_islow(block, comp.quant.data(), at, static_cast<int>(p.pitch[c])) && safe;
            }
    }
    return safe;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!imgpar::jpeg_coefficients_suit(data, size)) return 0;
    const std::vector<std::uint8_t> bytes(data, data + size);
    const imgpar::LoadOptions options = imgpar::fuzz::load_options();
    imgpar::fuzz::expect_errors_of({imgpar::ErrorKind::Input}, [&] {
        const imgpar::ImageHeader header = imgpar::read_image_header("fuzz", bytes, options);  // the pixel limit
        std::vector<std::string> warnings;
        imgpar::JpegDecodeOptions jpeg;
        jpeg.max_memory = options.max_memory;
        JpegCoefficients k;
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
        Planes p;
        if (!idct_planes(k, p)) return;  // the GPU hands such a file back to libjpeg-turbo
        FUZZ_CHECK(expected.channels() == (k.components == 1 ? 1 : 3));
        for (int y = 0; y < k.height; ++y)
            for (int x = 0; x < k.width; ++x) {
                const int luma = p.data[0][static_cast<std::size_t>(y) * p.pitch[0] + static_cast<std::size_t>(x)];
                if (k.components == 1) {
                    FUZZ_CHECK(expected.at(x, y, 0) == luma);
                    continue;
                }
                const auto plane = [&](int c) {
                    const JpegCoefficients::Component& comp = k.component[static_cast<std::size_t>(c)];
                    return imgpar::ChromaPlane{p.data[c].data(), p.pitch[c], comp.width, comp.height};
                };
                std::uint8_t rgb[3];
                imgpar::ycbcr_to_rgb(luma, imgpar::upsampled_chroma(plane(1), k.layout, x, y),
                                     imgpar::upsampled_chroma(plane(2), k.layout, x, y), rgb);
                for (int c = 0; c < 3; ++c) FUZZ_CHECK(expected.at(x, y, c) == rgb[c]);
            }
    });
    return 0;
}
