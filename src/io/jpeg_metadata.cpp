// A JPEG's metadata segments, read and written by imgpar itself rather than
// through a metadata library: they are opaque blocks behind fixed
// signatures, found by walking the markers by their lengths (bounded by the
// file, never read past), and written as libjpeg-turbo's jpeg_write_marker
// takes them. exiv2 was weighed and not taken: it parses a whole file again
// in its own buffers, throws on what it dislikes (a hostile file would have
// to be caught around every call), has had a steady run of CVEs in exactly
// these parsers, and would add a large C++ runtime dependency to the
// offline GPU machine for what is a few hundred lines here.
#include <algorithm>
#include <cstring>
#include <map>

#include "src/io/jpeg_layout.hpp"
#include "src/io/metadata.hpp"

namespace imgpar {

namespace {

constexpr std::size_t kMaxSegmentData = 65533;  // a segment's length field counts itself
const std::string kExifId("Exif\0\0", 6);
const std::string kXmpId("http://ns.adobe.com/xap/1.0/\0", 29);
const std::string kXmpExtensionId("http://ns.adobe.com/xmp/extension/\0", 35);
const std::string kIccId("ICC_PROFILE\0", 12);
const std::string kPhotoshopId("Photoshop 3.0\0", 14);
constexpr std::size_t kGuidBytes = 32;
constexpr std::size_t kXmpExtensionHead = 35 + kGuidBytes + 8;  // id, GUID, full length, offset
constexpr unsigned kIptcResource = 0x0404;
// Distinct extended-XMP GUIDs looked at: a file has one; each chunk is
// matched against those seen, so a forged flood of them must not be.
constexpr std::size_t kMaxXmpGuids = 16;

bool starts_with(const std::uint8_t* p, std::size_t n, const std::string& id) {
    return n >= id.size() && std::memcmp(p, id.data(), id.size()) == 0;
}

std::uint32_t be32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

void put_be32(std::vector<std::uint8_t>& out, std::size_t v) {
    out.insert(out.end(), {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16),
                           static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)});
}

// The GUID the standard packet names for its extended part
// (xmpNote:HasExtendedXMP, as an attribute or an element), or "".
std::string named_guid(const std::vector<std::uint8_t>& xmp) {
    static const std::string kTag = "HasExtendedXMP";
    const std::string text(xmp.begin(), xmp.end());
    const std::size_t at = text.find(kTag);
    if (at == std::string::npos) return "";
    const std::size_t start = text.find_first_of("\"'>", at + kTag.size());
    if (start == std::string::npos || start + 1 + kGuidBytes > text.size()) return "";
    return text.substr(start + 1, kGuidBytes);
}

// Extended XMP: chunks of one serialized packet, each giving the whole
// length and its own offset, grouped by GUID. Kept only when the chunks of
// the named (else the first) GUID agree on the length and cover it exactly
// once; the bytes are copied only then, so a hostile file costs no more than
// its own size.
void join_extended_xmp(const std::vector<std::pair<std::string, std::vector<const std::uint8_t*>>>& by_guid,
                       const std::vector<std::vector<std::size_t>>& sizes, ImageMetadata& m) {
    if (by_guid.empty()) return;
    if (m.xmp.empty()) {
        m.problems.push_back("extended XMP without its standard XMP packet; dropped");
        return;
    }
    const std::string wanted = named_guid(m.xmp);
    std::size_t pick = 0;
    if (!wanted.empty()) {
        pick = by_guid.size();
        for (std::size_t g = 0; g < by_guid.size(); ++g)
            if (by_guid[g].first == wanted) pick = g;
        if (pick == by_guid.size()) {
            m.problems.push_back("extended XMP: no chunk has the GUID the XMP packet names; dropped");
            return;
        }
    }
    const auto& chunks = by_guid[pick].second;
    const auto& chunk_sizes = sizes[pick];
    const std::uint32_t length = be32(chunks[0] + kXmpExtensionHead - 8);
    std::map<std::uint32_t, std::size_t> by_offset;  // offset -> chunk index
    for (std::size_t k = 0; k < chunks.size(); ++k) {
        if (be32(chunks[k] + kXmpExtensionHead - 8) != length) {
            m.problems.push_back("extended XMP: its chunks disagree on its length; dropped");
            return;
        }
        by_offset[be32(chunks[k] + kXmpExtensionHead - 4)] = k;
    }
    if (length > kMaxXmpBytes - std::min(kMaxXmpBytes, m.xmp.size())) {
        m.problems.push_back("extended XMP: " + std::to_string(length) + " bytes claimed, over the limit of " +
                             std::to_string(kMaxXmpBytes >> 20) + " MiB for XMP; dropped");
        return;
    }
    std::uint64_t covered = 0;
    for (const auto& [offset, k] : by_offset) {
        if (offset != covered || covered + chunk_sizes[k] > length) {
            m.problems.push_back("extended XMP: its chunks leave gaps or overlap (" + std::to_string(by_offset.size()) +
                                 " chunks for " + std::to_string(length) + " bytes); dropped");
            return;
        }
        covered += chunk_sizes[k];
    }
    if (covered != length) {
        m.problems.push_back("extended XMP: truncated (" + std::to_string(covered) + " of " + std::to_string(length) +
                             " bytes present); dropped");
        return;
    }
    m.xmp_extended.reserve(length);
    for (const auto& [offset, k] : by_offset)
        m.xmp_extended.insert(m.xmp_extended.end(), chunks[k] + kXmpExtensionHead,
                              chunks[k] + kXmpExtensionHead + chunk_sizes[k]);
    m.xmp_extended_guid = by_guid[pick].first;
}

// IPTC-IIM from Photoshop's image resources ("8BIM", id, a padded Pascal
// name, a size, the data padded to even): resource 0x0404's data.
void read_iptc(const std::vector<std::uint8_t>& r, ImageMetadata& m) {
    std::size_t i = 0;
    while (i + 12 <= r.size()) {
        if (std::memcmp(r.data() + i, "8BIM", 4) != 0) break;
        const unsigned id = static_cast<unsigned>(r[i + 4] << 8 | r[i + 5]);
        const std::size_t name = (1 + static_cast<std::size_t>(r[i + 6]) + 1) & ~std::size_t{1};
        if (i + 6 + name + 4 > r.size()) break;
        const std::size_t size = be32(r.data() + i + 6 + name);
        const std::size_t data = i + 6 + name + 4;
        if (size > r.size() - data) break;
        if (id == kIptcResource) {
            if (size > kMaxIptcBytes)
                m.problems.push_back("IPTC: " + std::to_string(size) + " bytes, over the limit of " +
                                     std::to_string(kMaxIptcBytes >> 20) + " MiB; dropped");
            else
                m.iptc.assign(r.begin() + static_cast<std::ptrdiff_t>(data),
                              r.begin() + static_cast<std::ptrdiff_t>(data + size));
            return;
        }
        i = data + size + (size & 1);
    }
    if (i < r.size() && r.size() - i >= 4)
        m.problems.push_back("IPTC: the Photoshop resource block is malformed at byte " + std::to_string(i) +
                             "; what follows is not read");
}

}  // namespace

void add_comment(ImageMetadata& m, Comment c) {
    std::size_t total = 0;
    for (const Comment& k : m.comments) total += k.text.size();
    if (m.comments.size() < kMaxComments && c.text.size() <= kMaxCommentBytes && total + c.text.size() <= kMaxCommentsTotal) {
        m.comments.push_back(std::move(c));
        return;
    }
    // Said once: a flood of comments is one problem, not thousands of lines.
    static const std::string kSaid = "comments past the limits";
    for (const std::string& p : m.problems)
        if (p.compare(0, kSaid.size(), kSaid) == 0) return;
    m.problems.push_back(kSaid + " of " + std::to_string(kMaxComments) + " comments, " +
                         std::to_string(kMaxCommentBytes >> 20) + " MiB each and " +
                         std::to_string(kMaxCommentsTotal >> 20) + " MiB in all are dropped (the first: \"" +
                         shortened_text(c.keyword, 40) + "\", " + std::to_string(c.text.size()) + " bytes)");
}

ImageMetadata read_jpeg_metadata(const std::uint8_t* d, std::size_t size) {
    ImageMetadata m;
    std::map<int, std::vector<std::uint8_t>> icc_chunks;  // sequence number (1-based) -> bytes
    int icc_count = 0;
    std::vector<std::pair<std::string, std::vector<const std::uint8_t*>>> extended;  // GUID -> chunk starts
    std::vector<std::vector<std::size_t>> extended_sizes;
    std::vector<std::uint8_t> photoshop;  // APP13 payloads joined: one resource block may span several
    walk_jpeg_segments(d, size, [&](int marker, const std::uint8_t* p, std::size_t n) {
        if (marker == 0xE1 && m.exif.empty() && n > 6 && starts_with(p, n, kExifId)) m.exif.assign(p + 6, p + n);
        if (marker == 0xE1 && m.xmp.empty() && n > kXmpId.size() && starts_with(p, n, kXmpId))
            m.xmp.assign(p + kXmpId.size(), p + n);
        if (marker == 0xE1 && n > kXmpExtensionHead && starts_with(p, n, kXmpExtensionId)) {
            const std::string guid(reinterpret_cast<const char*>(p) + kXmpExtensionId.size(), kGuidBytes);
            auto it = std::find_if(extended.begin(), extended.end(), [&](const auto& e) { return e.first == guid; });
            if (it == extended.end() && extended.size() == kMaxXmpGuids) return true;  // a flood of GUIDs: the rest ignored
            if (it == extended.end()) {
                extended.push_back({guid, {}});
                extended_sizes.emplace_back();
                it = extended.end() - 1;
            }
            it->second.push_back(p);
            extended_sizes[static_cast<std::size_t>(it - extended.begin())].push_back(n - kXmpExtensionHead);
        }
        if (marker == 0xE2 && n > 14 && starts_with(p, n, kIccId)) {
            const int seq = p[12], count = p[13];
            if (seq >= 1 && seq <= count && (icc_count == 0 || icc_count == count)) {
                icc_count = count;
                icc_chunks[seq].assign(p + 14, p + n);
            }
        }
        if (marker == 0xED && starts_with(p, n, kPhotoshopId)) photoshop.insert(photoshop.end(), p + kPhotoshopId.size(), p + n);
        if (marker == 0xFE) add_comment(m, Comment{"Comment", std::string(reinterpret_cast<const char*>(p), n), false});
        return true;
    });
    if (icc_count > 0 && static_cast<int>(icc_chunks.size()) == icc_count)
        for (auto& [seq, bytes] : icc_chunks) m.icc.insert(m.icc.end(), bytes.begin(), bytes.end());
    else if (icc_count > 0)
        m.problems.push_back("ICC profile: " + std::to_string(icc_chunks.size()) + " of its " +
                             std::to_string(icc_count) + " chunks present; dropped");
    join_extended_xmp(extended, extended_sizes, m);
    if (!photoshop.empty()) read_iptc(photoshop, m);
    return m;
}

std::vector<JpegSegment> jpeg_metadata_segments(const ImageMetadata& m, std::vector<std::string>* left_out) {
    std::vector<JpegSegment> out;
    const auto add = [&](int marker, const std::string& id, const std::uint8_t* data, std::size_t n) {
        JpegSegment s{marker, std::vector<std::uint8_t>(id.begin(), id.end())};
        s.payload.insert(s.payload.end(), data, data + n);
        out.push_back(std::move(s));
    };
    const auto say = [&](const std::string& what) {
        if (left_out) left_out->push_back(what);
    };
    if (!m.exif.empty()) {
        if (m.exif.size() + kExifId.size() <= kMaxSegmentData) add(0xE1, kExifId, m.exif.data(), m.exif.size());
        else say("EXIF (" + std::to_string(m.exif.size()) + " bytes): more than a JPEG's APP1 segment holds");
    }
    bool xmp_written = false;
    if (!m.xmp.empty()) {
        xmp_written = m.xmp.size() + kXmpId.size() <= kMaxSegmentData;
        if (xmp_written) add(0xE1, kXmpId, m.xmp.data(), m.xmp.size());
        else say("XMP (" + std::to_string(m.xmp.size()) + " bytes): more than a JPEG's APP1 segment holds, and "
                 "imgpar does not split a packet into extended XMP");
    }
    if (!m.xmp_extended.empty()) {
        if (xmp_written && m.xmp_extended_guid.size() == kGuidBytes) {
            constexpr std::size_t kPiece = kMaxSegmentData - kXmpExtensionHead;
            for (std::size_t at = 0; at < m.xmp_extended.size(); at += kPiece) {
                std::vector<std::uint8_t> head(m.xmp_extended_guid.begin(), m.xmp_extended_guid.end());
                put_be32(head, m.xmp_extended.size());
                put_be32(head, at);
                head.insert(head.end(), m.xmp_extended.begin() + static_cast<std::ptrdiff_t>(at),
                            m.xmp_extended.begin() +
                                static_cast<std::ptrdiff_t>(std::min(m.xmp_extended.size(), at + kPiece)));
                add(0xE1, kXmpExtensionId, head.data(), head.size());
            }
        } else {
            say("extended XMP (" + std::to_string(m.xmp_extended.size()) + " bytes): its standard packet is not written");
        }
    }
    if (!m.icc.empty()) {
        constexpr std::size_t kIccChunk = kMaxSegmentData - 12 - 2;  // 65,519, as jpeg_write_icc_profile cuts it
        const std::size_t chunks = (m.icc.size() + kIccChunk - 1) / kIccChunk;
        if (chunks <= 255) {  // the chunk count is one byte
            for (std::size_t k = 0; k < chunks; ++k) {
                const std::size_t n = std::min(kIccChunk, m.icc.size() - k * kIccChunk);
                std::vector<std::uint8_t> piece = {static_cast<std::uint8_t>(k + 1), static_cast<std::uint8_t>(chunks)};
                piece.insert(piece.end(), m.icc.data() + k * kIccChunk, m.icc.data() + k * kIccChunk + n);
                add(0xE2, kIccId, piece.data(), piece.size());
            }
        } else {
            say("ICC profile (" + std::to_string(m.icc.size()) + " bytes): more than 255 APP2 segments hold");
        }
    }
    if (!m.iptc.empty()) {
        // One 8BIM resource, split over as many APP13 segments as it needs
        // (readers join a Photoshop block's segments, as read_iptc's caller does).
        std::vector<std::uint8_t> block = {'8', 'B', 'I', 'M', kIptcResource >> 8, kIptcResource & 0xFF, 0, 0};
        put_be32(block, m.iptc.size());
        block.insert(block.end(), m.iptc.begin(), m.iptc.end());
        if (block.size() & 1) block.push_back(0);
        constexpr std::size_t kPiece = kMaxSegmentData - 14;
        for (std::size_t at = 0; at < block.size(); at += kPiece)
            add(0xED, kPhotoshopId, block.data() + at, std::min(kPiece, block.size() - at));
    }
    for (const Comment& c : m.comments) {
        // A COM has no keyword: other keywords than PNG's "Comment" lead the text.
        const std::string text = c.keyword == "Comment" ? c.text : c.keyword + ": " + c.text;
        if (text.size() <= kMaxSegmentData)
            add(0xFE, "", reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
        else
            say("comment \"" + shortened_text(c.keyword, 40) + "\" (" + std::to_string(text.size()) +
                " bytes): more than a JPEG's COM segment holds");
    }
    return out;
}

std::vector<std::uint8_t> insert_jpeg_metadata(const std::vector<std::uint8_t>& jpeg, const ImageMetadata& m) {
    if (m.empty() || jpeg.size() < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return jpeg;
    std::size_t at = 2;
    if (jpeg.size() >= 6 && jpeg[2] == 0xFF && jpeg[3] == 0xE0) {
        const std::size_t length = (std::size_t{jpeg[4]} << 8) | jpeg[5];
        if (4 + length <= jpeg.size()) at = 4 + length;
    }
    std::vector<std::uint8_t> segments;
    for (const JpegSegment& s : jpeg_metadata_segments(m, nullptr)) {
        const std::size_t length = 2 + s.payload.size();
        segments.insert(segments.end(), {0xFF, static_cast<std::uint8_t>(s.marker), static_cast<std::uint8_t>(length >> 8),
                                         static_cast<std::uint8_t>(length & 0xFF)});
        segments.insert(segments.end(), s.payload.begin(), s.payload.end());
    }
    std::vector<std::uint8_t> out;
    out.reserve(jpeg.size() + segments.size());
    out.insert(out.end(), jpeg.begin(), jpeg.begin() + static_cast<std::ptrdiff_t>(at));
    out.insert(out.end(), segments.begin(), segments.end());
    out.insert(out.end(), jpeg.begin() + static_cast<std::ptrdiff_t>(at), jpeg.end());
    return out;
}

}  // namespace imgpar
