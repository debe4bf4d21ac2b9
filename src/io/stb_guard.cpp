#include "src/io/stb_guard.hpp"

#include <cstring>

namespace imgpar {

namespace {

std::uint32_t le16(const std::uint8_t* p) { return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8); }
std::uint32_t le32(const std::uint8_t* p) { return le16(p) | (le16(p + 2) << 16); }
std::uint32_t be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

// Palette indices of one row of a 1-, 4- or 8-bit image, as stb reads them;
// the first that reaches past `entries`, or -1. Bytes past the file's end
// read as 0 in stb, which every palette has.
long bad_index(const std::uint8_t* row, std::size_t available, std::uint64_t width, int bpp, int entries, int& index) {
    for (std::uint64_t x = 0; x < width; ++x) {
        const std::uint64_t bit = x * static_cast<std::uint64_t>(bpp);
        if (bit / 8 >= available) return -1;
        const int byte = row[bit / 8];
        index = bpp == 8 ? byte : bpp == 4 ? (byte >> (4 - bit % 8)) & 15 : (byte >> (7 - bit % 8)) & 1;
        if (index >= entries) return static_cast<long>(x);
    }
    return -1;
}

}  // namespace

StbGuard check_bmp(const std::uint8_t* d, std::size_t size, bool check_indices) {
    StbGuard g;
    if (size < 18) {
        g.problem = "the BMP headers are cut short (" + std::to_string(size) + " bytes)";
        return g;
    }
    const std::uint32_t offset = le32(d + 10), hsz = le32(d + 14);
    if (hsz != 12 && hsz != 40 && hsz != 56 && hsz != 108 && hsz != 124) return g;  // stb refuses it
    const std::size_t header_end = 14 + hsz;
    if (size < header_end) {
        g.problem = "the BMP headers are cut short (" + std::to_string(size) + " bytes; the info header alone ends at byte " +
                    std::to_string(header_end) + ")";
        return g;
    }
    std::uint64_t width = 0, height = 0;
    int bpp = 0;
    std::uint32_t compression = 0;
    if (hsz == 12) {
        width = le16(d + 18);
        height = le16(d + 20);
        bpp = static_cast<int>(le16(d + 24));
    } else {
        width = le32(d + 18);
        const auto h = static_cast<std::int32_t>(le32(d + 22));  // negative: rows top-down
        height = h < 0 ? static_cast<std::uint64_t>(-static_cast<std::int64_t>(h)) : static_cast<std::uint64_t>(h);
        bpp = static_cast<int>(le16(d + 28));
        compression = le32(d + 30);
    }
    // No pixels: the caller refuses the size (and a zero stride would make
    // the row walk below step over a huge height without advancing).
    if (width == 0 || height == 0) return g;
    // Compressed, odd depths, huge offsets: stb refuses them itself.
    if (compression != 0 && compression != 3) return g;
    if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32) return g;
    if (offset > 0x7fffffff) return g;

    const std::uint64_t stride = (width * static_cast<std::uint64_t>(bpp) + 31) / 32 * 4;
    if (bpp < 16) {
        // stb's own count of palette entries (what it reads before the
        // pixels); the entries past it are left as the stack held them.
        const long long room = static_cast<long long>(offset) - 14 - static_cast<long long>(hsz);
        const long long entries = hsz == 12 ? (static_cast<long long>(offset) - 38) / 3 : (room >= 0 ? room / 4 : -1);
        if (entries < 1) {
            g.problem = "the BMP pixel data starts at byte " + std::to_string(offset) + ", which leaves no room for the palette a " +
                        std::to_string(bpp) + "-bit image needs";
            return g;
        }
        if (entries > 256) {
            g.problem = "the BMP palette would hold " + std::to_string(entries) + " entries (at most 256)";
            return g;
        }
        if (check_indices && entries < (1LL << bpp)) {
            for (std::uint64_t y = 0; y < height; ++y) {
                const std::uint64_t at = offset + y * stride;
                if (at >= size) break;
                int index = 0;
                const long x = bad_index(d + at, size - at, width, bpp, static_cast<int>(entries), index);
                if (x >= 0) {
                    g.problem = "BMP pixel " + std::to_string(x) + " of stored row " + std::to_string(y) + " names palette entry " +
                                std::to_string(index) + ", but the palette has " + std::to_string(entries);
                    return g;
                }
            }
        }
    }
    const std::uint64_t end = offset + stride * height;
    if (end > size)
        g.truncated = "the pixel rows need " + std::to_string(stride * height) + " bytes from byte " + std::to_string(offset) +
                      ", but the file has " + std::to_string(size > offset ? size - offset : 0);
    return g;
}

PngChunks check_png_chunks(const std::uint8_t* d, std::size_t size) {
    PngChunks c;
    std::size_t i = 8;
    bool image_data = false;
    for (;;) {
        if (i + 8 > size) {
            c.guard.truncated = i == size ? "the file ends before the IEND chunk"
                                          : "the file ends inside a chunk header at byte " + std::to_string(i);
            return c;
        }
        const std::uint32_t length = be32(d + i);
        const std::string type(reinterpret_cast<const char*>(d + i + 4), 4);
        if (length > 0x7fffffff) {
            c.guard.problem = "the " + type + " chunk at byte " + std::to_string(i) + " declares " + std::to_string(length) +
                              " bytes (at most 2^31 - 1)";
            return c;
        }
        if (i == 8) {
            if (type != "IHDR" || length != 13) {
                c.guard.problem = "the first chunk is not a 13-byte IHDR";
                return c;
            }
            if (i + 8 + 13 <= size) {
                c.bit_depth = d[i + 16];
                c.color_type = d[i + 17];
            }
        }
        if (i + 12 + static_cast<std::size_t>(length) > size) {
            c.guard.truncated = "the file ends inside the " + type + " chunk at byte " + std::to_string(i);
            return c;
        }
        if (type == "IDAT") image_data = true;
        if (type == "tRNS" && !image_data && (c.color_type == 0 || c.color_type == 2)) c.transparent_color = true;
        if (type == "IEND") return c;
        i += 12 + static_cast<std::size_t>(length);
    }
}

}  // namespace imgpar
