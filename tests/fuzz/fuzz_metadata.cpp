// Fuzz target: the metadata readers, which walk a file's markers or chunks
// by lengths the file gives: EXIF, ICC (chunks joined by sequence number),
// XMP and extended XMP (chunks joined by offset), Photoshop's IPTC resource
// and COM from a JPEG's segments; eXIf, iCCP, XMP, raw profiles and text
// from a PNG's chunks (each inflated up to its bound); EXIF and ICCP from a
// WebP's chunks (through libwebpdemux); what is read is written back by both
// writers and read again unchanged; the ICC profile's description, and the
// EXIF orientation read from, and written into, the TIFF structure found (or
// from the input itself, taken as one).
#include <cstddef>
#include <cstdint>
#include <string>
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
    FUZZ_CHECK(m.xmp.size() + m.xmp_extended.size() <= imgpar::kMaxXmpBytes);
    FUZZ_CHECK(m.iptc.size() <= imgpar::kMaxIptcBytes);
    FUZZ_CHECK(m.comments.size() <= imgpar::kMaxComments);
    check_exif(m.exif);
    FUZZ_CHECK(!imgpar::describe_metadata(m).empty());
    (void)imgpar::icc_description(m.icc);
}

// Written into a JPEG and read back: every kind the JPEG holds comes back
// as it was (a JPEG's own comments have no keyword to lose).
void check_jpeg_round_trip(const imgpar::ImageMetadata& m) {
    std::vector<std::string> left_out;
    (void)imgpar::jpeg_metadata_segments(m, &left_out);
    const std::vector<std::uint8_t> bare = {0xFF, 0xD8, 0xFF, 0xD9};
    const std::vector<std::uint8_t> jpeg = imgpar::insert_jpeg_metadata(bare, m);
    const imgpar::ImageMetadata back = imgpar::read_jpeg_metadata(jpeg.data(), jpeg.size());
    if (!left_out.empty()) return;
    FUZZ_CHECK(back.exif == m.exif);
    FUZZ_CHECK(back.icc == m.icc);
    FUZZ_CHECK(back.xmp == m.xmp);
    FUZZ_CHECK(back.xmp_extended == m.xmp_extended);
    FUZZ_CHECK(back.iptc == m.iptc);
    FUZZ_CHECK(back.comments == m.comments);
}

void check_png_round_trip(const imgpar::ImageMetadata& m) {
    if (!imgpar::png_codec_available()) return;
    std::vector<std::string> left_out;
    std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    const std::vector<std::uint8_t> chunks = imgpar::png_metadata_chunks(m, &left_out);
    png.insert(png.end(), chunks.begin(), chunks.end());
    const imgpar::ImageMetadata back = imgpar::png_read_metadata(png);
    FUZZ_CHECK(back.xmp == m.xmp);
    FUZZ_CHECK(back.iptc == m.iptc);
    if (left_out.empty()) FUZZ_CHECK(back.comments.size() == m.comments.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    // None of these throws: a malformed segment or chunk is skipped.
    imgpar::fuzz::expect_errors_of({}, [&] {
        const imgpar::ImageMetadata jpeg = imgpar::read_jpeg_metadata(data, size);
        FUZZ_CHECK(jpeg.icc.size() <= size);
        check_metadata(jpeg, size);
        check_jpeg_round_trip(jpeg);

        const imgpar::PngMetadataChunks chunks = imgpar::find_png_metadata_chunks(data, size);
        FUZZ_CHECK(chunks.exif.size() + chunks.icc_deflated.size() <= size);
        const imgpar::ImageMetadata png = imgpar::png_read_metadata(bytes);
        check_metadata(png, size);
        check_png_round_trip(png);

        const imgpar::ImageMetadata webp = imgpar::webp_read_metadata(bytes);
        FUZZ_CHECK(webp.icc.size() <= size);
        check_metadata(webp, size);

        check_exif(bytes);
    });
    return 0;
}
