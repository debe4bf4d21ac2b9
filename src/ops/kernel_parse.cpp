// Reading custom kernels: the inline form given on the command line and
// libvips' matrix file format. Numbers are parsed with std::from_chars, which
// ignores the locale, after a strict syntax check that keeps out NaN,
// infinities and hexadecimal floats.
#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/ops/filter.hpp"

namespace imgpar {

namespace {

// A kernel file holds at most 63x63 numbers; anything far larger is not one.
constexpr long long kMaxKernelFileBytes = 1 << 20;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_separator(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == ','; }

// Decimal number: [+-] (digits [. digits] | . digits) [(e|E) [+-] digits].
bool decimal_syntax(const std::string& t) {
    std::size_t i = 0, n = t.size();
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    std::size_t int_digits = 0, frac_digits = 0;
    while (i < n && is_digit(t[i])) ++i, ++int_digits;
    if (i < n && t[i] == '.') {
        ++i;
        while (i < n && is_digit(t[i])) ++i, ++frac_digits;
    }
    if (int_digits + frac_digits == 0) return false;
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
        std::size_t exp_digits = 0;
        while (i < n && is_digit(t[i])) ++i, ++exp_digits;
        if (exp_digits == 0) return false;
    }
    return i == n;
}

// The value of a token, or a reason it is not an acceptable number.
std::optional<double> parse_number(const std::string& token, std::string& why) {
    if (!decimal_syntax(token)) {
        why = "'" + token + "' is not a number";
        return std::nullopt;
    }
    const char* first = token.data() + (token[0] == '+' ? 1 : 0);
    const char* last = token.data() + token.size();
    double v = 0.0;
    auto res = std::from_chars(first, last, v);
    if (res.ec == std::errc::result_out_of_range) {
        why = "'" + token + "' is out of range";
        return std::nullopt;
    }
    if (res.ec != std::errc() || res.ptr != last) {
        why = "'" + token + "' is not a number";
        return std::nullopt;
    }
    return v;
}

std::vector<std::string> split_values(const std::string& line) {
    std::vector<std::string> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_separator(line[i])) ++i;
        std::size_t start = i;
        while (i < line.size() && !is_separator(line[i])) ++i;
        if (i > start) tokens.push_back(line.substr(start, i - start));
    }
    return tokens;
}

std::string side_limit_text() { return "each side must be from 1 to " + std::to_string(kMaxKernelSide); }

// Header sizes are plain integers.
std::optional<int> parse_side(const std::string& token) {
    if (token.empty() || token.size() > 6) return std::nullopt;
    std::size_t i = token[0] == '+' ? 1 : 0;
    if (i == token.size()) return std::nullopt;
    int v = 0;
    for (; i < token.size(); ++i) {
        if (!is_digit(token[i])) return std::nullopt;
        v = v * 10 + (token[i] - '0');
    }
    return v;
}

}  // namespace

KernelMatrix parse_kernel_text(const std::string& text) {
    const std::string subject = "--kernel";
    KernelMatrix k;
    std::size_t start = 0;
    int row_number = 0;
    while (start <= text.size()) {
        std::size_t end = text.find_first_of(";\n", start);
        if (end == std::string::npos) end = text.size();
        std::vector<std::string> tokens = split_values(text.substr(start, end - start));
        start = end + 1;
        if (tokens.empty()) continue;  // blank rows (a trailing ';', empty lines) are harmless
        ++row_number;
        if (tokens.size() > static_cast<std::size_t>(kMaxKernelSide))
            throw usage_error(subject, "row " + std::to_string(row_number) + " has " + std::to_string(tokens.size()) +
                                           " values; " + side_limit_text());
        if (row_number > kMaxKernelSide)
            throw usage_error(subject, "more than " + std::to_string(kMaxKernelSide) + " rows; " + side_limit_text());
        if (row_number == 1) k.width = static_cast<int>(tokens.size());
        if (static_cast<int>(tokens.size()) != k.width)
            throw usage_error(subject, "row " + std::to_string(row_number) + " has " + std::to_string(tokens.size()) +
                                           " values but row 1 has " + std::to_string(k.width) +
                                           "; every row needs the same number of values");
        for (const std::string& t : tokens) {
            std::string why;
            std::optional<double> v = parse_number(t, why);
            if (!v) throw usage_error(subject, "row " + std::to_string(row_number) + ": " + why);
            k.values.push_back(*v);
        }
    }
    if (row_number == 0)
        throw usage_error(subject, "the kernel is empty; give rows of numbers, e.g. \"1 2 1; 2 4 2; 1 2 1\"");
    k.height = row_number;
    return k;
}

KernelMatrix parse_kernel_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw input_error(path, std::string("cannot open kernel file: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw input_error(path, "is a directory, not a kernel file");
    if (S_ISREG(st.st_mode) && st.st_size > kMaxKernelFileBytes)
        throw input_error(path, "is too large for a kernel file (" + std::to_string(st.st_size) +
                                    " bytes; a 63x63 matrix needs far less)");
    // The same bound for what has no size: a pipe or a device (/dev/zero) is
    // read only this far.
    ReadBound bound;
    bound.max_bytes = static_cast<std::uint64_t>(kMaxKernelFileBytes);
    bound.limit = "1 MiB, the most a kernel file may have (a 63x63 matrix needs far less)";
    const std::vector<std::uint8_t> bytes = read_file_bytes(path, bound);
    const std::string text(bytes.begin(), bytes.end());

    auto fail = [&](int line, const std::string& why) {
        return input_error(path, "line " + std::to_string(line) + ": " + why);
    };

    KernelMatrix k;
    bool have_header = false;
    int rows = 0;
    int line_number = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::vector<std::string> tokens = split_values(text.substr(start, end - start));
        start = end + 1;
        ++line_number;
        if (tokens.empty()) continue;

        if (!have_header) {
            if (tokens.size() < 2 || tokens.size() > 4)
                throw fail(line_number, "the header must be 'width height [scale [offset]]'");
            std::optional<int> w = parse_side(tokens[0]);
            std::optional<int> h = parse_side(tokens[1]);
            if (!w || !h)
                throw fail(line_number, "width and height must be whole numbers (header 'width height [scale [offset]]')");
            if (*w < 1 || *w > kMaxKernelSide || *h < 1 || *h > kMaxKernelSide)
                throw fail(line_number, "kernel size " + std::to_string(*w) + "x" + std::to_string(*h) +
                                            " is not allowed; " + side_limit_text());
            k.width = *w;
            k.height = *h;
            std::string why;
            if (tokens.size() >= 3) {
                std::optional<double> s = parse_number(tokens[2], why);
                if (!s) throw fail(line_number, "scale " + why);
                if (*s == 0.0) throw fail(line_number, "scale must be non-zero");
                k.scale = *s;
            }
            if (tokens.size() == 4) {
                std::optional<double> o = parse_number(tokens[3], why);
                if (!o) throw fail(line_number, "offset " + why);
                k.offset = *o;
            }
            have_header = true;
            continue;
        }

        if (rows == k.height)
            throw fail(line_number, "unexpected extra row; the header says " + std::to_string(k.height) + " rows");
        if (static_cast<int>(tokens.size()) != k.width)
            throw fail(line_number, "expected " + std::to_string(k.width) + " values, found " +
                                        std::to_string(tokens.size()));
        for (const std::string& t : tokens) {
            std::string why;
            std::optional<double> v = parse_number(t, why);
            if (!v) throw fail(line_number, why);
            k.values.push_back(*v);
        }
        ++rows;
    }
    if (!have_header)
        throw input_error(path, "empty kernel file; expected a header line 'width height [scale [offset]]' and rows");
    if (rows < k.height)
        throw input_error(path, "expected " + std::to_string(k.height) + " rows of values after the header, found " +
                                    std::to_string(rows) + " (file ends at line " + std::to_string(line_number) + ")");
    return k;
}

}  // namespace imgpar
