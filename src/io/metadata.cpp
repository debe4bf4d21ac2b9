#include "src/io/metadata.hpp"

#include <algorithm>
#include <cstring>

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

namespace {

template <typename T>
Image<T> oriented(ImageView<const T> src, int orientation) {
    if (orientation < 2 || orientation > 8) return Image<T>::copy_of(src);
    const bool swap = orientation >= 5;  // 5..8 exchange width and height
    const int w = swap ? src.height : src.width;
    const int h = swap ? src.width : src.height;
    const int c = src.channels;
    Image<T> out(w, h, c);
    for (int y = 0; y < h; ++y) {
        T* d = out.row(y);
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
            std::memcpy(d + static_cast<std::size_t>(x) * c, src.pixel(sx, sy), static_cast<std::size_t>(c) * sizeof(T));
        }
    }
    return out;
}

}  // namespace

ImageU8 apply_orientation(ConstViewU8 src, int orientation) { return oriented(src, orientation); }
ImageU16 apply_orientation(ConstViewU16 src, int orientation) { return oriented(src, orientation); }

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
    std::vector<std::string> parts;
    if (!m.exif.empty()) {
        std::string s = "EXIF " + std::to_string(m.exif.size()) + " bytes";
        if (const int o = exif_orientation(m.exif)) s += " (orientation " + std::to_string(o) + ", " + orientation_name(o) + ")";
        parts.push_back(s);
    }
    if (!m.icc.empty()) {
        std::string s = "ICC profile " + std::to_string(m.icc.size()) + " bytes";
        const std::string d = icc_description(m.icc);
        if (!d.empty()) s += " (\"" + shortened_text(d, 60) + "\")";
        parts.push_back(s);
    }
    if (!m.xmp.empty() || !m.xmp_extended.empty())
        parts.push_back("XMP " + std::to_string(m.xmp.size()) + " bytes" +
                        (m.xmp_extended.empty() ? std::string()
                                                : " (and " + std::to_string(m.xmp_extended.size()) + " extended)"));
    if (!m.iptc.empty()) parts.push_back("IPTC " + std::to_string(m.iptc.size()) + " bytes");
    if (!m.comments.empty()) {
        std::string s = std::to_string(m.comments.size()) + (m.comments.size() == 1 ? " comment" : " comments") + " (";
        for (std::size_t k = 0; k < m.comments.size() && k < 3; ++k) {
            const Comment& c = m.comments[k];
            s += (k ? ", " : "") + (c.keyword == "Comment" ? std::string() : shortened_text(c.keyword, 30) + ": ") +
                 "\"" + shortened_text(c.text, 60) + "\"";
        }
        parts.push_back(s + (m.comments.size() > 3 ? ", ...)" : ")"));
    }
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : ", ") + p;
    return s.empty() ? "none" : s;
}

PngMetadataChunks find_png_metadata_chunks(const std::uint8_t* d, std::size_t size) {
    PngMetadataChunks m;
    bool image_data = false;
    std::size_t i = 8;  // after the signature
    while (i + 12 <= size) {
        const std::size_t length = static_cast<std::size_t>(d[i]) << 24 | static_cast<std::size_t>(d[i + 1]) << 16 |
                                   static_cast<std::size_t>(d[i + 2]) << 8 | d[i + 3];
        if (length > size - i - 12) break;
        const std::uint8_t* type = d + i + 4;
        const std::uint8_t* p = d + i + 8;
        if (std::memcmp(type, "IEND", 4) == 0) break;
        if (std::memcmp(type, "IDAT", 4) == 0) image_data = true;
        if (!image_data && std::memcmp(type, "eXIf", 4) == 0 && m.exif.empty()) m.exif.assign(p, p + length);
        if (!image_data && std::memcmp(type, "iCCP", 4) == 0 && m.icc_deflated.empty()) {
            // A name of 1-79 bytes, its NUL, compression method 0, the data.
            const void* nul = std::memchr(p, 0, length < 80 ? length : 80);
            if (nul) {
                const std::size_t at = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - p) + 1;
                if (at + 1 < length && p[at] == 0) m.icc_deflated.assign(p + at + 1, p + length);
            }
        }
        const bool text = std::memcmp(type, "tEXt", 4) == 0 || std::memcmp(type, "zTXt", 4) == 0 ||
                          std::memcmp(type, "iTXt", 4) == 0;
        if (text && m.texts.size() < 4 * kMaxComments)
            m.texts.push_back(PngTextChunk{static_cast<char>(type[0]), p, length});
        else if (text)
            ++m.texts_skipped;
        i += 12 + length;
    }
    return m;
}

std::uint64_t ImageMetadata::bytes() const {
    std::uint64_t n = exif.size() + icc.size() + xmp.size() + xmp_extended.size() + iptc.size();
    for (const Comment& c : comments) n += c.keyword.size() + c.text.size() + sizeof(Comment);
    return n;
}

std::string shortened_text(const std::string& text, std::size_t max) {
    std::string s;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (s.size() >= max) {
            // Not in the middle of a UTF-8 sequence.
            while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
            if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0) s.pop_back();
            return s + "...";
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') s += "\\n";
        else if (c < 0x20 || c == 0x7F) s += ' ';
        else s += static_cast<char>(c);
    }
    return s;
}

namespace {

std::uint32_t icc_u32(const std::vector<std::uint8_t>& p, std::size_t at) {
    return std::uint32_t{p[at]} << 24 | std::uint32_t{p[at + 1]} << 16 | std::uint32_t{p[at + 2]} << 8 | p[at + 3];
}

// UTF-16BE (an 'mluc' record) to UTF-8; surrogate pairs joined, lone ones dropped.
std::string utf16be_to_utf8(const std::uint8_t* p, std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i + 1 < n; i += 2) {
        std::uint32_t c = static_cast<std::uint32_t>(p[i] << 8 | p[i + 1]);
        if (c >= 0xD800 && c < 0xDC00 && i + 3 < n) {
            const std::uint32_t low = static_cast<std::uint32_t>(p[i + 2] << 8 | p[i + 3]);
            if (low < 0xDC00 || low >= 0xE000) continue;
            c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
            i += 2;
        } else if (c >= 0xD800 && c < 0xE000) {
            continue;
        }
        if (c == 0) break;
        if (c < 0x80) {
            s += static_cast<char>(c);
        } else if (c < 0x800) {
            s += static_cast<char>(0xC0 | c >> 6);
            s += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            s += static_cast<char>(0xE0 | c >> 12);
            s += static_cast<char>(0x80 | (c >> 6 & 0x3F));
            s += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            s += static_cast<char>(0xF0 | c >> 18);
            s += static_cast<char>(0x80 | (c >> 12 & 0x3F));
            s += static_cast<char>(0x80 | (c >> 6 & 0x3F));
            s += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return s;
}

}  // namespace

std::string icc_description(const std::vector<std::uint8_t>& icc) {
    // A 128-byte header, a tag count, 12-byte entries (signature, offset, size).
    if (icc.size() < 132) return "";
    const std::uint64_t count = icc_u32(icc, 128);
    for (std::uint64_t k = 0; k < count && 132 + 12 * (k + 1) <= icc.size(); ++k) {
        const std::size_t entry = static_cast<std::size_t>(132 + 12 * k);
        if (std::memcmp(icc.data() + entry, "desc", 4) != 0) continue;
        const std::uint64_t offset = icc_u32(icc, entry + 4), size = icc_u32(icc, entry + 8);
        if (offset + size > icc.size() || size < 12) return "";
        const std::uint8_t* t = icc.data() + offset;
        if (std::memcmp(t, "desc", 4) == 0) {  // v2: an ASCII count (with its NUL), the text
            const std::uint64_t n = icc_u32(icc, static_cast<std::size_t>(offset) + 8);
            if (n > size - 12) return "";
            std::string s(reinterpret_cast<const char*>(t + 12), static_cast<std::size_t>(n));
            return s.substr(0, s.find('\0'));
        }
        if (std::memcmp(t, "mluc", 4) == 0 && size >= 16) {  // v4: records of language, country, length, offset
            const std::uint64_t records = icc_u32(icc, static_cast<std::size_t>(offset) + 8);
            const std::uint64_t record_size = icc_u32(icc, static_cast<std::size_t>(offset) + 12);
            if (record_size < 12 || records == 0 || 16 + records * record_size > size) return "";
            std::size_t pick = 0;
            for (std::uint64_t r = 0; r < records; ++r)
                if (std::memcmp(t + 16 + r * record_size, "en", 2) == 0) {
                    pick = static_cast<std::size_t>(r);
                    break;
                }
            const std::uint8_t* rec = t + 16 + pick * record_size;
            const std::uint64_t len = static_cast<std::uint64_t>(rec[4]) << 24 | rec[5] << 16 | rec[6] << 8 | rec[7];
            const std::uint64_t at = static_cast<std::uint64_t>(rec[8]) << 24 | rec[9] << 16 | rec[10] << 8 | rec[11];
            if (at + len > size) return "";
            return utf16be_to_utf8(t + at, static_cast<std::size_t>(len));
        }
        return "";
    }
    return "";
}

}  // namespace imgpar
