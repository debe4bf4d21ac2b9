// A PNG's metadata chunks, read and written by imgpar itself (as the JPEG
// segments are, src/io/jpeg_metadata.cpp): eXIf, iCCP, the XMP packet in
// iTXt "XML:com.adobe.xmp", text in tEXt/zTXt/iTXt, and IPTC in
// ImageMagick's "Raw profile type iptc" (PNG has no standard carrier for
// it; exiftool and ImageMagick read and write this one). Every inflate is
// bounded: a text chunk is kilobytes, a deflate bomb is not.
#include "src/io/png_codec.hpp"

#if IMGPAR_HAVE_LIBPNG
#include <algorithm>
#include <cstdio>
#include <cstring>

#include <zlib.h>

namespace imgpar {

namespace {

const std::string kXmpKeyword = "XML:com.adobe.xmp";
const std::string kRawProfile = "Raw profile type ";
constexpr std::size_t kMaxProfile = std::size_t{64} << 20;  // an ICC profile, inflated
// A raw profile's text: two hex digits a byte and a newline every 36, for
// the largest kind it may carry (XMP's 16 MiB).
constexpr std::size_t kMaxRawProfileText = 2 * kMaxXmpBytes + kMaxXmpBytes / 36 + 64;

enum class Inflated { Ok, TooLarge, Corrupt };

// zlib data inflated in steps into `out`, up to `max` bytes.
Inflated inflate_bounded(const std::uint8_t* data, std::size_t size, std::size_t max, std::vector<std::uint8_t>& out) {
    out.clear();
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return Inflated::Corrupt;
    z.next_in = const_cast<Bytef*>(data);
    z.avail_in = static_cast<uInt>(size);
    int status = Z_OK;
    while (status == Z_OK && out.size() <= max) {
        const std::size_t had = out.size();
        out.resize(had + 65536);
        z.next_out = out.data() + had;
        z.avail_out = 65536;
        status = inflate(&z, Z_NO_FLUSH);
        out.resize(had + 65536 - z.avail_out);
        if (status == Z_BUF_ERROR && z.avail_in == 0) break;  // the data ended early
    }
    inflateEnd(&z);
    if (status == Z_STREAM_END && out.size() <= max) return Inflated::Ok;
    out.clear();
    return status == Z_STREAM_END || status == Z_OK ? Inflated::TooLarge : Inflated::Corrupt;
}

// ImageMagick's raw profile: "\n<type>\n<spaces><length>\n<hex digits, in
// lines>". The bytes, or nothing when malformed.
std::vector<std::uint8_t> raw_profile_bytes(const std::string& text) {
    std::size_t i = 0;
    while (i < text.size() && text[i] == '\n') ++i;
    i = text.find('\n', i);  // past the type's line
    if (i == std::string::npos) return {};
    while (i < text.size() && (text[i] == '\n' || text[i] == ' ')) ++i;
    std::size_t length = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        length = length * 10 + static_cast<std::size_t>(text[i] - '0');
        if (length > text.size() / 2) return {};
    }
    std::vector<std::uint8_t> out;
    out.reserve(length);
    int high = -1;
    for (; i < text.size() && out.size() < length; ++i) {
        const char c = text[i];
        const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0) {
            if (c == '\n' || c == ' ' || c == '\r') continue;
            return {};
        }
        if (high < 0) {
            high = v;
        } else {
            out.push_back(static_cast<std::uint8_t>(high << 4 | v));
            high = -1;
        }
    }
    if (out.size() != length) return {};
    return out;
}

// A raw profile's bytes into the field it belongs to, when that is empty.
void take_raw_profile(const std::string& type, const std::string& text, ImageMetadata& m) {
    std::vector<std::uint8_t> bytes = raw_profile_bytes(text);
    if (bytes.empty()) {
        m.problems.push_back("PNG text \"" + kRawProfile + type + "\": malformed; dropped");
        return;
    }
    if (type == "iptc" && m.iptc.empty()) {
        if (bytes.size() > kMaxIptcBytes) m.problems.push_back("IPTC: over the limit of 1 MiB; dropped");
        else m.iptc = std::move(bytes);
    } else if (type == "exif" && m.exif.empty()) {
        const std::size_t skip = bytes.size() > 6 && std::memcmp(bytes.data(), "Exif\0\0", 6) == 0 ? 6 : 0;
        m.exif.assign(bytes.begin() + static_cast<std::ptrdiff_t>(skip), bytes.end());
    } else if (type == "xmp" && m.xmp.empty()) {
        if (bytes.size() > kMaxXmpBytes) m.problems.push_back("XMP: over the limit of 16 MiB; dropped");
        else m.xmp = std::move(bytes);
    } else if ((type == "icc" || type == "icm") && m.icc.empty()) {
        m.icc = std::move(bytes);
    } else if (type != "iptc" && type != "exif" && type != "xmp" && type != "icc" && type != "icm") {
        m.problems.push_back("PNG text \"" + kRawProfile + type + "\": a raw profile imgpar does not keep; dropped");
    }
}

// One text chunk: its keyword and text, the text inflated where compressed.
void read_text(const PngTextChunk& chunk, ImageMetadata& m) {
    const std::uint8_t* d = chunk.data;
    const std::size_t n = chunk.size;
    const void* nul = std::memchr(d, 0, std::min<std::size_t>(n, 80));
    if (!nul) return;  // no keyword: not a text chunk libpng would keep either
    const std::size_t key_end = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - d);
    Comment c;
    c.keyword.assign(d, d + key_end);
    std::size_t at = key_end + 1;
    bool compressed = chunk.type == 'z';
    if (chunk.type == 'z') ++at;  // compression method
    if (chunk.type == 'i') {
        // Compression flag and method, then a language tag and a translated
        // keyword, each ending in NUL.
        if (at + 2 > n) return;
        compressed = d[at] != 0;
        at += 2;
        for (int field = 0; field < 2; ++field) {
            const void* end = at < n ? std::memchr(d + at, 0, n - at) : nullptr;
            if (!end) return;
            at = static_cast<std::size_t>(static_cast<const std::uint8_t*>(end) - d) + 1;
        }
        c.utf8 = true;
    }
    if (at > n) return;
    const bool xmp = chunk.type == 'i' && c.keyword == kXmpKeyword;
    const bool raw = c.keyword.compare(0, kRawProfile.size(), kRawProfile) == 0;
    const std::size_t limit = xmp ? kMaxXmpBytes : raw ? kMaxRawProfileText : kMaxCommentBytes;
    std::vector<std::uint8_t> text;
    const Inflated r = compressed ? inflate_bounded(d + at, n - at, limit, text)
                       : n - at > limit ? Inflated::TooLarge
                                        : Inflated::Ok;
    if (r != Inflated::Ok) {
        m.problems.push_back("PNG text \"" + shortened_text(c.keyword, 40) + "\": " +
                             (r == Inflated::TooLarge ? "over the limit of " + std::to_string(limit >> 20) + " MiB"
                                                      : std::string("its compressed data is corrupt")) +
                             "; dropped");
        return;
    }
    if (!compressed) text.assign(d + at, d + n);
    if (xmp) {
        if (m.xmp.empty()) m.xmp = std::move(text);
        return;
    }
    c.text.assign(text.begin(), text.end());
    if (raw) {
        take_raw_profile(c.keyword.substr(kRawProfile.size()), c.text, m);
        return;
    }
    add_comment(m, std::move(c));
}

void put_chunk(std::vector<std::uint8_t>& out, const char* type, const std::vector<std::uint8_t>& data) {
    const std::size_t n = data.size();
    out.insert(out.end(), {static_cast<std::uint8_t>(n >> 24), static_cast<std::uint8_t>(n >> 16),
                           static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)});
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    const auto crc = static_cast<std::uint32_t>(crc32_z(0, out.data() + start, out.size() - start));
    out.insert(out.end(), {static_cast<std::uint8_t>(crc >> 24), static_cast<std::uint8_t>(crc >> 16),
                           static_cast<std::uint8_t>(crc >> 8), static_cast<std::uint8_t>(crc)});
}

bool deflate_into(std::vector<std::uint8_t>& out, const std::uint8_t* data, std::size_t size) {
    uLongf n = compressBound(static_cast<uLong>(size));
    const std::size_t had = out.size();
    out.resize(had + n);
    if (compress2(out.data() + had, &n, data, static_cast<uLong>(size), 6) != Z_OK) return false;
    out.resize(had + n);
    return true;
}

bool is_ascii(const std::string& s) {
    for (const char c : s)
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
}

bool is_utf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

// A comment as tEXt (Latin-1, short), zTXt (Latin-1, long) or iTXt (UTF-8:
// declared so, or a COM's text that is UTF-8 beyond ASCII).
void put_comment(std::vector<std::uint8_t>& out, const Comment& c) {
    std::vector<std::uint8_t> d(c.keyword.begin(), c.keyword.end());
    d.push_back(0);
    const bool long_text = c.text.size() > 1024;
    // An iTXt under the XMP keyword is read as the XMP packet, so a comment
    // with that keyword (it came from a tEXt or zTXt) goes back into one.
    const bool itxt = c.keyword != kXmpKeyword && (c.utf8 || (!is_ascii(c.text) && is_utf8(c.text)));
    if (itxt) {
        d.insert(d.end(), {static_cast<std::uint8_t>(long_text ? 1 : 0), 0, 0, 0});  // flag, method, no language, no translation
        if (!long_text || !deflate_into(d, reinterpret_cast<const std::uint8_t*>(c.text.data()), c.text.size())) {
            d[c.keyword.size() + 1] = 0;
            d.resize(c.keyword.size() + 5);
            d.insert(d.end(), c.text.begin(), c.text.end());
        }
        put_chunk(out, "iTXt", d);
    } else if (long_text) {
        d.push_back(0);  // method
        if (!deflate_into(d, reinterpret_cast<const std::uint8_t*>(c.text.data()), c.text.size())) return;
        put_chunk(out, "zTXt", d);
    } else {
        d.insert(d.end(), c.text.begin(), c.text.end());
        put_chunk(out, "tEXt", d);
    }
}

// ImageMagick's raw profile text: a newline, the type, the length in 8
// columns, then the bytes in hex, 36 to a line.
std::string raw_profile_text(const char* type, const std::vector<std::uint8_t>& bytes) {
    static const char kHex[] = "0123456789abcdef";
    char head[64];
    std::snprintf(head, sizeof head, "\n%s\n%8zu", type, bytes.size());
    std::string s = head;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % 36 == 0) s += '\n';
        s += kHex[bytes[i] >> 4];
        s += kHex[bytes[i] & 15];
    }
    return s + "\n";
}

}  // namespace

ImageMetadata png_read_metadata(const std::vector<std::uint8_t>& bytes) {
    const PngMetadataChunks chunks = find_png_metadata_chunks(bytes.data(), bytes.size());
    ImageMetadata m;
    m.exif = chunks.exif;
    if (!chunks.icc_deflated.empty()) {
        std::vector<std::uint8_t> icc;
        const Inflated r = inflate_bounded(chunks.icc_deflated.data(), chunks.icc_deflated.size(), kMaxProfile, icc);
        if (r == Inflated::Ok) m.icc = std::move(icc);
        else m.problems.push_back(std::string("ICC profile: ") +
                                  (r == Inflated::TooLarge ? "inflates past 64 MiB" : "its compressed data is corrupt") +
                                  "; dropped");
    }
    for (const PngTextChunk& t : chunks.texts) read_text(t, m);
    if (chunks.texts_skipped)
        m.problems.push_back(std::to_string(chunks.texts_skipped) + " text chunks past the first " +
                             std::to_string(chunks.texts.size()) + " not read");
    return m;
}

std::vector<std::uint8_t> png_metadata_chunks(const ImageMetadata& m, std::vector<std::string>* left_out) {
    std::vector<std::uint8_t> out;
    const auto say = [&](const std::string& what) {
        if (left_out) left_out->push_back(what);
    };
    if (!m.icc.empty()) {
        static const char kName[] = "ICC profile";  // with its NUL, then method 0
        std::vector<std::uint8_t> d(kName, kName + sizeof kName);
        d.push_back(0);
        if (deflate_into(d, m.icc.data(), m.icc.size())) put_chunk(out, "iCCP", d);
    }
    if (!m.exif.empty()) put_chunk(out, "eXIf", m.exif);
    if (!m.xmp.empty()) {
        // Uncompressed, as the XMP specification asks (scanners find it).
        std::vector<std::uint8_t> d(kXmpKeyword.begin(), kXmpKeyword.end());
        d.insert(d.end(), {0, 0, 0, 0, 0});
        d.insert(d.end(), m.xmp.begin(), m.xmp.end());
        put_chunk(out, "iTXt", d);
    }
    if (!m.xmp_extended.empty())
        say("extended XMP (" + std::to_string(m.xmp_extended.size()) +
            " bytes): a PNG holds one XMP packet and imgpar does not merge JPEG's two");
    if (!m.iptc.empty()) {
        const std::string text = raw_profile_text("iptc", m.iptc);
        static const char kKey[] = "Raw profile type iptc";
        std::vector<std::uint8_t> d(kKey, kKey + sizeof kKey);
        d.push_back(0);  // method
        if (deflate_into(d, reinterpret_cast<const std::uint8_t*>(text.data()), text.size())) put_chunk(out, "zTXt", d);
    }
    for (const Comment& c : m.comments) {
        const bool keyword_ok = !c.keyword.empty() && c.keyword.size() <= 79 && c.keyword.find('\0') == std::string::npos;
        if (keyword_ok && c.text.find('\0') == std::string::npos)
            put_comment(out, c);
        else
            say("comment \"" + shortened_text(c.keyword, 40) + "\": " +
                (keyword_ok ? "its text holds a NUL byte" : "its keyword is not a PNG keyword (1-79 bytes)"));
    }
    return out;
}

}  // namespace imgpar
#else

namespace imgpar {

// Without libpng, PNGs are written by stb, which takes no chunks of ours.
std::vector<std::uint8_t> png_metadata_chunks(const ImageMetadata&, std::vector<std::string>*) { return {}; }

}  // namespace imgpar
#endif
