#include "src/io/byte_size.hpp"

#include <cctype>
#include <cstdio>

#include "src/error.hpp"

namespace imgpar {

std::string byte_size_text(std::uint64_t bytes) {
    static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    double value = static_cast<double>(bytes) / 1024.0;
    int unit = 0;
    while (value >= 1024.0 && unit < 5) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

std::string byte_size_argument(std::uint64_t bytes) {
    static const char units[] = "TGMK";
    for (int i = 0; i < 4; ++i) {
        const std::uint64_t unit = std::uint64_t{1} << (10 * (4 - i));
        if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + units[i];
    }
    return std::to_string(bytes);
}

std::uint64_t parse_byte_size(const std::string& option, const std::string& text, std::uint64_t min, std::uint64_t max) {
    const auto bad = [&](const std::string& why) {
        return usage_error(option, "'" + text + "' " + why + " (a byte count: a number with an optional unit K, M, G "
                                                             "or T, binary: 1K = 1024 bytes; e.g. 4G, 1.5G, 512M)");
    };
    // Digits, an optional fraction, an optional unit; nothing else, no sign,
    // no spaces. The value is kept exact: whole part and fraction apart.
    std::size_t i = 0;
    std::uint64_t whole = 0;
    std::uint64_t fraction = 0, scale = 1;  // fraction / scale
    bool digits = false;
    const std::uint64_t huge = std::uint64_t{1} << 62;  // beyond every max: stop counting
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        digits = true;
        if (whole < huge) whole = whole * 10 + static_cast<std::uint64_t>(text[i] - '0');
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        bool fraction_digits = false;
        for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
            fraction_digits = true;
            if (scale < 1000000000) {
                fraction = fraction * 10 + static_cast<std::uint64_t>(text[i] - '0');
                scale *= 10;
            }
        }
        if (!fraction_digits) throw bad("is not a byte count");
    }
    if (!digits) throw bad("is not a byte count");
    std::uint64_t unit = 1;
    if (i < text.size()) {
        switch (std::toupper(static_cast<unsigned char>(text[i]))) {
            case 'K': unit = std::uint64_t{1} << 10; break;
            case 'M': unit = std::uint64_t{1} << 20; break;
            case 'G': unit = std::uint64_t{1} << 30; break;
            case 'T': unit = std::uint64_t{1} << 40; break;
            default: throw bad("is not a byte count");
        }
        ++i;
    }
    if (i != text.size()) throw bad("is not a byte count");
    if (fraction != 0 && unit == 1) throw bad("is not a whole number of bytes");
    // whole * unit + fraction * unit / scale, saturating above max.
    const long double value = static_cast<long double>(whole) * static_cast<long double>(unit) +
                              static_cast<long double>(fraction) * static_cast<long double>(unit) /
                                  static_cast<long double>(scale);
    if (value < static_cast<long double>(min) || value > static_cast<long double>(max))
        throw usage_error(option, "'" + text + "' is outside " + byte_size_text(min) + " to " + byte_size_text(max));
    return static_cast<std::uint64_t>(value);
}

}  // namespace imgpar
