// What a photo carries besides its pixels and imgpar keeps: the EXIF block
// (camera, date, orientation...), the ICC colour profile, the XMP packet,
// the IPTC-IIM records and text comments, read from the input and written to
// the output when its format can hold them:
//   JPEG: APP1 "Exif", APP1 XMP (and extended XMP), APP2 ICC_PROFILE, APP13
//         "Photoshop 3.0" resource 0x0404 (IPTC), COM;
//   PNG:  eXIf, iCCP, iTXt "XML:com.adobe.xmp", zTXt "Raw profile type iptc"
//         (ImageMagick's and exiftool's carrier: PNG has no standard one),
//         tEXt/zTXt/iTXt text.
// The codecs of other formats fill the fields their format carries; a field
// left empty is simply not written. What was found but could not be kept
// (malformed, over a limit) is dropped and said in `problems`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"

namespace imgpar {

// A text comment: a JPEG COM segment, or a PNG text chunk.
struct Comment {
    // PNG's keyword (1-79 Latin-1 bytes: "Comment", "Title", "Author"...);
    // a JPEG COM has none and is read as "Comment" (ImageMagick's and
    // exiftool's mapping), so COM <-> PNG "Comment" round-trips.
    std::string keyword = "Comment";
    // The bytes as stored: UTF-8 when `utf8` (PNG iTXt), else Latin-1 (PNG
    // tEXt/zTXt) or whatever a COM holds (ASCII or UTF-8 in practice).
    std::string text;
    bool utf8 = false;
    bool operator==(const Comment& o) const { return keyword == o.keyword && text == o.text && utf8 == o.utf8; }
};

// Bounds on what one file's metadata may take (hostile files claim more):
// beyond them a kind is dropped with a problem said, never read further.
constexpr std::size_t kMaxXmpBytes = std::size_t{16} << 20;        // the packet, extended XMP included
constexpr std::size_t kMaxIptcBytes = std::size_t{1} << 20;        // IPTC-IIM records
constexpr std::size_t kMaxCommentBytes = std::size_t{1} << 20;     // one comment's text, inflated
constexpr std::size_t kMaxCommentsTotal = std::size_t{4} << 20;    // all comments' text together
constexpr std::size_t kMaxComments = 256;                           // comments kept

struct ImageMetadata {
    std::vector<std::uint8_t> exif;  // the TIFF structure (starts "II*\0" or "MM\0*"), without JPEG's "Exif\0\0"
    std::vector<std::uint8_t> icc;   // the ICC profile, whole
    std::vector<std::uint8_t> xmp;   // the XMP packet (UTF-8 XML), as stored: JPEG's standard packet
    // JPEG's extended XMP (the rest of a packet too large for one APP1): the
    // serialized bytes joined in order, and their GUID (32 hex digits, the
    // MD5 the main packet names in xmpNote:HasExtendedXMP). Empty otherwise.
    std::vector<std::uint8_t> xmp_extended;
    std::string xmp_extended_guid;
    std::vector<std::uint8_t> iptc;  // IPTC-IIM records (each 0x1C, record, dataset, size, data), bare
    std::vector<Comment> comments;   // in file order
    // What was found but not kept, one line each ("extended XMP: 2 of its 3
    // chunks are missing; dropped"). Not written anywhere; said as warnings.
    std::vector<std::string> problems;
    bool empty() const {
        return exif.empty() && icc.empty() && xmp.empty() && xmp_extended.empty() && iptc.empty() && comments.empty();
    }
    // Bytes held by the kept fields (what a writer copies).
    std::uint64_t bytes() const;
};

// EXIF orientation: 1 as stored; 2 mirrored; 3 rotated 180; 4 flipped; 5
// transposed; 6 to be rotated 90 clockwise; 7 transversed; 8 to be rotated
// 90 counter-clockwise. 0 when the EXIF block has none (or is unreadable).
int exif_orientation(const std::vector<std::uint8_t>& exif);

// Sets the orientation tag in place when the block has one (after the
// pixels were turned upright, to 1). Returns whether it had one.
bool set_exif_orientation(std::vector<std::uint8_t>& exif, int orientation);

// The image as it is meant to be seen: `orientation` (2..8) applied to the
// pixels; 0 and 1 return a copy.
ImageU8 apply_orientation(ConstViewU8 image, int orientation);
ImageU16 apply_orientation(ConstViewU16 image, int orientation);

// "upright", "mirrored", "rotated 180", "flipped", "transposed",
// "rotated 90 clockwise", "transversed", "rotated 90 counter-clockwise"
// (how it must be turned to be upright), or "" for 0.
const char* orientation_name(int orientation);

// "EXIF 1234 bytes (orientation 6, rotated 90 clockwise), ICC profile 3144
// bytes ("sRGB IEC61966-2.1"), XMP 2048 bytes, IPTC 120 bytes, 1 comment
// ("Scanned at..." shortened to 60 characters)", or "none".
std::string describe_metadata(const ImageMetadata& m);

// The profile's description (its 'desc' tag: v2 ASCII or v4 'mluc' English
// or first record, as UTF-8), or "" when it has none or is malformed.
std::string icc_description(const std::vector<std::uint8_t>& icc);

// `text` with control characters escaped and cut to about `max` characters
// (an ellipsis says so): what reports show of a comment.
std::string shortened_text(const std::string& text, std::size_t max);

// Appends `c` unless it passes kMaxComments, kMaxCommentBytes or
// kMaxCommentsTotal; then it is dropped and said in m.problems.
void add_comment(ImageMetadata& m, Comment c);

// The metadata in a JPEG's segments before the first scan: APP1 Exif, APP1
// XMP and extended XMP (its chunks joined by offset), APP2 ICC_PROFILE (its
// chunks joined in order), APP13 Photoshop 3.0's IPTC resource (0x0404; the
// other Photoshop resources are not kept), COM. A malformed segment is
// skipped, never read past; a kind found but not kept is said in `problems`.
ImageMetadata read_jpeg_metadata(const std::uint8_t* data, std::size_t size);

// One marker segment: its marker (0xE1...) and payload (after the length).
struct JpegSegment {
    int marker = 0;
    std::vector<std::uint8_t> payload;
};

// The segments that carry `m` in a JPEG, in the order written: APP1 Exif,
// APP1 XMP, APP1 extended XMP (chunks of at most 65,458 bytes), APP2
// ICC_PROFILE (chunks of 65,519, as libjpeg-turbo cuts them), APP13
// Photoshop 3.0 with one IPTC resource, COM per comment (a keyword other
// than "Comment" leads its text: "Title: ..."). What cannot go into a JPEG
// (a packet over a segment's 64 KiB) is left out and, given `left_out`,
// said there.
std::vector<JpegSegment> jpeg_metadata_segments(const ImageMetadata& m, std::vector<std::string>* left_out);

// `jpeg` (a JPEG another encoder wrote: the GPU's) with `m` added as
// imgpar's libjpeg-turbo path writes it: after SOI and the JFIF segment (if
// one follows SOI), jpeg_metadata_segments(m). `jpeg` is returned unchanged
// when `m` is empty.
std::vector<std::uint8_t> insert_jpeg_metadata(const std::vector<std::uint8_t>& jpeg, const ImageMetadata& m);

// The metadata chunks of a PNG, as stored: eXIf's EXIF block and iCCP's
// profile still deflated (zlib format), before the image data; the text
// chunks (tEXt, zTXt, iTXt: keyword, then the rest) anywhere up to IEND,
// at most kMaxComments * 4 of them, pointing into `data` (not copied: a
// text is checked against its bound before any copy is made). Chunks are
// walked by their lengths, never past `size`; CRCs are the decoder's to check.
struct PngTextChunk {
    char type = 't';  // 't' tEXt, 'z' zTXt, 'i' iTXt
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
};
struct PngMetadataChunks {
    std::vector<std::uint8_t> exif;
    std::vector<std::uint8_t> icc_deflated;
    std::vector<PngTextChunk> texts;
    std::size_t texts_skipped = 0;  // text chunks past the count bound
};
PngMetadataChunks find_png_metadata_chunks(const std::uint8_t* data, std::size_t size);

}  // namespace imgpar
