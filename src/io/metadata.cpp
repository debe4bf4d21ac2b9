#include "src/io/metadata.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "src/io/jpeg_layout.hpp"

namespace imgpar {

namespace {

// The TIFF structure's byte order, and where its first IFD's orientation
// entry's value is (0 when there is none).
struct OrientationEntry {
    bool big_endian = false;
    std::size_t value_at = 0;
};

OrientationEntry find_orientation(const std::vector<std::uint8_t>& t) {
    OrientationEntry e;
    if (t.size() < 8) return e;
    if (t[0] == 'M' && t[1] == 'M')
        e.big_endian = true;
    else if (!(t[0] == 'I' && t[1] == 'I'))
        return e;
    const auto u16 = [&](std::size_t at) {
        return e.big_endian ? static_cast<unsigned>(t[at] << 8 | t[at + 1]) : static_cast<unsigned>(t[at + 1] << 8 | t[at]);
    };
    const auto u32 = [&](std::size_t at) {
        return e.big_endian ? (std::uint32_t{t[at]} << 24 | std::uint32_t{t[at + 1]} << 16 | std::uint32_t{t[at + 2]} << 8 | t[at + 3])
                            : (std::uint32_t{t[at + 3]} << 24 | std::uint32_t{t[at + 2]} << 16 | std::uint32_t{t[at + 1]} << 8 | t[at]);
    };
    if (u16(2) != 42) return e;
    const std::size_t ifd = u32(4);
    if (ifd + 2 > t.size()) return e;
    const unsigned count = u16(ifd);
    for (unsigned i = 0; i < count; ++i) {
        const std::size_t entry = ifd + 2 + 12 * static_cast<std::size_t>(i);
        if (entry + 12 > t.size()) return e;
        // Tag 0x0112, type SHORT (3), one value, stored in the entry itself.
        if (u16(entry) == 0x0112 && u16(entry + 2) == 3 && u32(entry + 4) == 1) {
            e.value_at = entry + 8;
            return e;
        }
    }
    return e;
}

}  // namespace

int exif_orientation(const std::vector<std::uint8_t>& exif) {
    const OrientationEntry e = find_orientation(exif);
    if (!e.value_at) return 0;
    const unsigned v = e.big_endian ? static_cast<unsigned>(exif[e.value_at] << 8 | exif[e.value_at + 1])
                                    : static_cast<unsigned>(exif[e.value_at + 1] << 8 | exif[e.value_at]);
    return v >= 1 && v <= 8 ? static_cast<int>(v) : 0;
}

bool set_exif_orientation(std::vector<std::uint8_t>& exif, int orientation) {
    const OrientationEntry e = find_orientation(exif);
    if (!e.value_at) return false;
    const auto v = static_cast<unsigned>(orientation);
    exif[e.value_at + (e.big_endian ? 0 : 1)] = static_cast<std::uint8_t>(v >> 8);
    exif[e.value_at + (e.big_endian ? 1 : 0)] = static_cast<std::uint8_t>(v & 0xFF);
    return true;
}

ImageU8 apply_orientation(ConstViewU8 src, int orientation) {
    if (orientation < 2 || orientation > 8) return ImageU8::copy_of(src);
    const bool swap = orientation >= 5;  // 5..8 exchange width and height
    const int w = swap ? src.height : src.width;
    const int h = swap ? src.width : src.height;
    const int c = src.channels;
    ImageU8 out(w, h, c);
    for (int y = 0; y < h; ++y) {
        std::uint8_t* d = out.data() + static_cast<std::size_t>(y) * out.row_bytes();
        for (int x = 0; x < w; ++x) {
            // The source pixel shown at (x, y) of the upright image.
            int sx = x, sy = y;
            switch (orientation) {
                case 2: sx = src.width - 1 - x; break;
                case 3: sx = src.width - 1 - x; sy = src.height - 1 - y; break;
                case 4: sy = src.height - 1 - y; break;
                case 5: sx = y; sy = x; break;
                case 6: sx = y; sy = src.height - 1 - x; break;
                case 7: sx = src.width - 1 - y; sy = src.height - 1 - x; break;
                case 8: sx = src.width - 1 - y; sy = x; break;
            }
            std::memcpy(d + static_cast<std::size_t>(x) * c,
                        src.data + static_cast<std::size_t>(sy) * src.stride + static_cast<std::size_t>(sx) * c,
                        static_cast<std::size_t>(c));
        }
    }
    return out;
}

const char* orientation_name(int o) {
    switch (o) {
        case 1: return "upright";
        case 2: return "mirrored";
        case 3: return "rotated 180";
        case 4: return "flipped";
        case 5: return "transposed";
        case 6: return "rotated 90 clockwise";
        case 7: return "transversed";
        case 8: return "rotated 90 counter-clockwise";
        default: return "";
    }
}

std::string describe_metadata(const ImageMetadata& m) {
    std::string s;
    if (!m.exif.empty()) {
        s = "EXIF " + std::to_string(m.exif.size()) + " bytes";
        if (const int o = exif_orientation(m.exif)) s += " (orientation " + std::to_string(o) + ", " + orientation_name(o) + ")";
    }
    if (!m.icc.empty()) s += (s.empty() ? "" : ", ") + std::string("ICC profile ") + std::to_string(m.icc.size()) + " bytes";
    return s.empty() ? "none" : s;
}

ImageMetadata read_jpeg_metadata(const std::uint8_t* d, std::size_t size) {
    ImageMetadata m;
    std::map<int, std::vector<std::uint8_t>> icc_chunks;  // sequence number (1-based) -> bytes
    int icc_count = 0;
    walk_jpeg_segments(d, size, [&](int marker, const std::uint8_t* p, std::size_t n) {
        if (marker == 0xE1 && m.exif.empty() && n > 6 && std::memcmp(p, "Exif\0\0", 6) == 0) m.exif.assign(p + 6, p + n);
        if (marker == 0xE2 && n > 14 && std::memcmp(p, "ICC_PROFILE\0", 12) == 0) {
            const int seq = p[12], count = p[13];
            if (seq >= 1 && seq <= count && (icc_count == 0 || icc_count == count)) {
                icc_count = count;
                icc_chunks[seq].assign(p + 14, p + n);
            }
        }
        return true;
    });
    if (icc_count > 0 && static_cast<int>(icc_chunks.size()) == icc_count)
        for (auto& [seq, bytes] : icc_chunks) m.icc.insert(m.icc.end(), bytes.begin(), bytes.end());
    return m;
}

std::vector<std::uint8_t> insert_jpeg_metadata(const std::vector<std::uint8_t>& jpeg, const ImageMetadata& m) {
    if (m.empty() || jpeg.size() < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return jpeg;
    std::size_t at = 2;
    if (jpeg.size() >= 6 && jpeg[2] == 0xFF && jpeg[3] == 0xE0) {
        const std::size_t length = (std::size_t{jpeg[4]} << 8) | jpeg[5];
        if (4 + length <= jpeg.size()) at = 4 + length;
    }
    std::vector<std::uint8_t> segments;
    const auto add_segment = [&](int marker, const char* id, std::size_t id_size, const std::uint8_t* data,
                                 std::size_t size, int seq, int count) {
        const std::size_t length = 2 + id_size + (seq ? 2 : 0) + size;
        segments.insert(segments.end(), {0xFF, static_cast<std::uint8_t>(marker), static_cast<std::uint8_t>(length >> 8),
                                         static_cast<std::uint8_t>(length & 0xFF)});
        segments.insert(segments.end(), id, id + id_size);
        if (seq) segments.insert(segments.end(), {static_cast<std::uint8_t>(seq), static_cast<std::uint8_t>(count)});
        segments.insert(segments.end(), data, data + size);
    };
    constexpr std::size_t kMaxSegmentData = 65533;  // a segment's length field counts itself
    static const char kExifId[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (!m.exif.empty() && m.exif.size() + sizeof kExifId <= kMaxSegmentData)
        add_segment(0xE1, kExifId, sizeof kExifId, m.exif.data(), m.exif.size(), 0, 0);
    static const char kIccId[12] = {'I', 'C', 'C', '_', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 0};
    constexpr std::size_t kIccChunk = kMaxSegmentData - sizeof kIccId - 2;
    const std::size_t chunks = (m.icc.size() + kIccChunk - 1) / kIccChunk;
    if (chunks <= 255)  // the chunk count is one byte
        for (std::size_t k = 0; k < chunks; ++k) {
            const std::size_t n = std::min(kIccChunk, m.icc.size() - k * kIccChunk);
            add_segment(0xE2, kIccId, sizeof kIccId, m.icc.data() + k * kIccChunk, n, static_cast<int>(k + 1),
                        static_cast<int>(chunks));
        }
    std::vector<std::uint8_t> out;
    out.reserve(jpeg.size() + segments.size());
    out.insert(out.end(), jpeg.begin(), jpeg.begin() + static_cast<std::ptrdiff_t>(at));
    out.insert(out.end(), segments.begin(), segments.end());
    out.insert(out.end(), jpeg.begin() + static_cast<std::ptrdiff_t>(at), jpeg.end());
    return out;
}

PngMetadataChunks find_png_metadata_chunks(const std::uint8_t* d, std::size_t size) {
    PngMetadataChunks m;
    std::size_t i = 8;  // after the signature
    while (i + 12 <= size) {
        const std::size_t length = static_cast<std::size_t>(d[i]) << 24 | static_cast<std::size_t>(d[i + 1]) << 16 |
                                   static_cast<std::size_t>(d[i + 2]) << 8 | d[i + 3];
        if (length > size - i - 12) break;
        const std::uint8_t* type = d + i + 4;
        const std::uint8_t* p = d + i + 8;
        if (std::memcmp(type, "IDAT", 4) == 0 || std::memcmp(type, "IEND", 4) == 0) break;
        if (std::memcmp(type, "eXIf", 4) == 0 && m.exif.empty()) m.exif.assign(p, p + length);
        if (std::memcmp(type, "iCCP", 4) == 0 && m.icc_deflated.empty()) {
            // A name of 1-79 bytes, its NUL, compression method 0, the data.
            const void* nul = std::memchr(p, 0, length < 80 ? length : 80);
            if (nul) {
                const std::size_t at = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - p) + 1;
                if (at + 1 < length && p[at] == 0) m.icc_deflated.assign(p + at + 1, p + length);
            }
        }
        i += 12 + length;
    }
    return m;
}

}  // namespace imgpar
