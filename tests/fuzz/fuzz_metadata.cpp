// Fuzz target: the metadata readers, which walk a file's markers or chunks
// by lengths the file gives: EXIF and ICC from a JPEG's APP1/APP2 segments
// (the ICC chunks joined by their sequence numbers), eXIf and iCCP from a
// PNG's chunks (the profile inflated, up to its bound), EXIF and ICCP from a
// WebP's chunks (through libwebpdemux), and the EXIF
// orientation read from, and written into, the TIFF structure found (or from
// the input itself, taken as one).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/io/metadata.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/webp_codec.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

void check_exif(const std::vector<std::uint8_t>& exif) {
    const int orientation = imgpar::exif_orientation(exif);
    FUZZ_CHECK(orientation >= 0 && orientation <= 8);
    std::vector<std::uint8_t> upright = exif;
    if (imgpar::set_exif_orientation(upright, 1)) {
        FUZZ_CHECK(upright.size() == exif.size());
        FUZZ_CHECK(imgpar::exif_orientation(upright) == 1);
    } else {
        FUZZ_CHECK(upright == exif);
    }
}

void check_metadata(const imgpar::ImageMetadata& m, std::size_t input_size) {
    FUZZ_CHECK(m.exif.size() <= input_size);
    check_exif(m.exif);
    FUZZ_CHECK(!imgpar::describe_metadata(m).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    // None of these throws: a malformed segment or chunk is skipped.
    imgpar::fuzz::expect_errors_of({}, [&] {
        const imgpar::ImageMetadata jpeg = imgpar::read_jpeg_metadata(data, size);
        FUZZ_CHECK(jpeg.icc.size() <= size);
        check_metadata(jpeg, size);

        const imgpar::PngMetadataChunks chunks = imgpar::find_png_metadata_chunks(data, size);
        FUZZ_CHECK(chunks.exif.size() + chunks.icc_deflated.size() <= size);
        check_metadata(imgpar::png_read_metadata(bytes), size);

        const imgpar::ImageMetadata webp = imgpar::webp_read_metadata(bytes);
        FUZZ_CHECK(webp.icc.size() <= size);
        check_metadata(webp, size);

        check_exif(bytes);
    });
    return 0;
}
