// Fuzz target: the whole decode of an image file, as every command that reads
// one does it: decode_image sniffs the format from the bytes, checks the
// header against the pixel limit, then decodes with libjpeg-turbo, libpng,
// libwebp, libavif (dav1d), giflib or stb (stb for all three in a build without libjpeg-turbo and libpng: the
// decode_stb run of scripts/fuzz.sh). A decoded image is then turned upright
// as --auto-orient does, which reads its EXIF orientation.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/io/load.hpp"
#include "src/io/metadata.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    imgpar::fuzz::expect_errors_of({imgpar::ErrorKind::Input}, [&] {
        const imgpar::LoadedImage loaded = imgpar::decode_image("fuzz", bytes, imgpar::fuzz::load_options());
        const imgpar::ImageU8& image = loaded.image;
        const imgpar::ImageHeader& header = loaded.header;
        FUZZ_CHECK(image.width() == header.width && image.height() == header.height);
        FUZZ_CHECK(image.channels() == header.channels && image.channels() >= 1 && image.channels() <= 4);
        FUZZ_CHECK(image.pixel_count() <= imgpar::fuzz::kMaxPixels);
        FUZZ_CHECK(image.size_bytes() == image.pixel_count() * static_cast<std::size_t>(image.channels()));

        const int orientation = imgpar::exif_orientation(header.metadata.exif);
        FUZZ_CHECK(orientation >= 0 && orientation <= 8);
        const imgpar::ImageU8 upright = imgpar::apply_orientation(image.cview(), orientation);
        const bool swapped = orientation >= 5;
        FUZZ_CHECK(upright.width() == (swapped ? image.height() : image.width()));
        FUZZ_CHECK(upright.height() == (swapped ? image.width() : image.height()));
    });
    return 0;
}
