#include "src/ops/colour_spec.hpp"

#include <cctype>
#include <cstdio>
#include <vector>

#include "src/error.hpp"
#include "src/image.hpp"
#include "src/ops/pixel_math.hpp"

namespace imgpar {

const char* const kColourForms =
    "#rgb, #rrggbb, #rrggbbaa, r,g,b[,a] (0 to 255), black, white, gray, red, green, blue or transparent";

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// A decimal 0..255 with 1 to 3 digits, nothing else.
int decimal_byte(const std::string& s) {
    if (s.empty() || s.size() > 3) return -1;
    int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    return v <= 255 ? v : -1;
}

}  // namespace

Rgba parse_colour(const std::string& text, const std::string& option) {
    std::string t;
    for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto refuse = [&]() -> Error {
        return usage_error(option, "'" + text + "' is not a colour (allowed: " + kColourForms + ")");
    };
    if (t == "black") return {0, 0, 0, 255};
    if (t == "white") return {255, 255, 255, 255};
    if (t == "gray" || t == "grey") return {128, 128, 128, 255};
    if (t == "red") return {255, 0, 0, 255};
    if (t == "green") return {0, 128, 0, 255};
    if (t == "blue") return {0, 0, 255, 255};
    if (t == "transparent") return {0, 0, 0, 0};
    if (!t.empty() && t[0] == '#') {
        const std::string h = t.substr(1);
        std::vector<int> d;
        for (char c : h) {
            const int v = hex_digit(c);
            if (v < 0) throw refuse();
            d.push_back(v);
        }
        if (d.size() == 3)
            return {static_cast<std::uint8_t>(d[0] * 17), static_cast<std::uint8_t>(d[1] * 17),
                    static_cast<std::uint8_t>(d[2] * 17), 255};
        if (d.size() == 6 || d.size() == 8) {
            std::uint8_t v[4] = {0, 0, 0, 255};
            for (std::size_t i = 0; i < d.size() / 2; ++i) v[i] = static_cast<std::uint8_t>(d[2 * i] * 16 + d[2 * i + 1]);
            return {v[0], v[1], v[2], v[3]};
        }
        throw refuse();
    }
    // r,g,b[,a]
    std::vector<std::string> parts(1);
    for (char c : t) {
        if (c == ',')
            parts.emplace_back();
        else
            parts.back() += c;
    }
    if (parts.size() != 3 && parts.size() != 4) throw refuse();
    int v[4] = {0, 0, 0, 255};
    for (std::size_t i = 0; i < parts.size(); ++i) {
        v[i] = decimal_byte(parts[i]);
        if (v[i] < 0) throw refuse();
    }
    return {static_cast<std::uint8_t>(v[0]), static_cast<std::uint8_t>(v[1]), static_cast<std::uint8_t>(v[2]),
            static_cast<std::uint8_t>(v[3])};
}

std::string colour_text(const Rgba& c) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x%02x", c.r, c.g, c.b, c.a);
    return buf;
}

std::array<std::uint8_t, 4> colour_pixel(const Rgba& c, int channels) {
    std::array<std::uint8_t, 4> p{};
    if (channels <= 2) {
        p[0] = static_cast<std::uint8_t>(luma601(c.r, c.g, c.b));
    } else {
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
    }
    if (has_alpha(channels)) p[static_cast<std::size_t>(channels - 1)] = c.a;
    return p;
}

std::array<std::uint16_t, 4> colour_pixel16(const Rgba& c, int channels) {
    const std::array<std::uint8_t, 4> p = colour_pixel(c, channels);
    std::array<std::uint16_t, 4> wide{};
    for (std::size_t i = 0; i < 4; ++i) wide[i] = static_cast<std::uint16_t>(p[i] * 257);
    return wide;
}

}  // namespace imgpar
