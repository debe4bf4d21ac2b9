#include "tests/support/json_check.hpp"

#include <cctype>
#include <cstdint>
#include <cstring>

namespace imgpar::test {
namespace {

struct Parser {
    const std::string& s;
    std::size_t i = 0;
    std::string err;

    void ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
    }
    bool fail(const char* what) {
        if (err.empty()) err = std::string(what) + " at offset " + std::to_string(i);
        return false;
    }
    bool literal(const char* word) {
        std::size_t n = std::strlen(word);
        if (s.compare(i, n, word) != 0) return fail("bad literal");
        i += n;
        return true;
    }
    bool string() {
        if (i >= s.size() || s[i] != '"') return fail("expected string");
        ++i;
        while (i < s.size() && s[i] != '"') {
            unsigned char c = static_cast<unsigned char>(s[i]);
            if (c < 0x20) return fail("control character in string");
            if (c == '\\') {
                ++i;
                if (i >= s.size()) return fail("bad escape");
                char e = s[i];
                if (e == 'u') {
                    for (int k = 1; k <= 4; ++k)
                        if (i + k >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + k]))) return fail("bad \\u escape");
                    i += 4;
                } else if (!std::strchr("\"\\/bfnrt", e)) {
                    return fail("bad escape");
                }
            }
            ++i;
        }
        if (i >= s.size()) return fail("unterminated string");
        ++i;
        return true;
    }
    bool number() {
        std::size_t start = i;
        if (i < s.size() && s[i] == '-') ++i;
        if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return fail("bad number");
        if (s[i] == '0') ++i;
        else while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (i < s.size() && s[i] == '.') {
            ++i;
            if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return fail("bad fraction");
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        }
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
            ++i;
            if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
            if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return fail("bad exponent");
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        }
        return i > start;
    }
    bool value() {
        ws();
        if (i >= s.size()) return fail("unexpected end");
        char c = s[i];
        bool ok;
        if (c == '{') ok = object();
        else if (c == '[') ok = array();
        else if (c == '"') ok = string();
        else if (c == 't') ok = literal("true");
        else if (c == 'f') ok = literal("false");
        else if (c == 'n') ok = literal("null");
        else ok = number();
        ws();
        return ok;
    }
    bool object() {
        ++i;
        ws();
        if (i < s.size() && s[i] == '}') {
            ++i;
            return true;
        }
        for (;;) {
            ws();
            if (!string()) return false;
            ws();
            if (i >= s.size() || s[i] != ':') return fail("expected ':'");
            ++i;
            if (!value()) return false;
            if (i < s.size() && s[i] == ',') {
                ++i;
                continue;
            }
            if (i < s.size() && s[i] == '}') {
                ++i;
                return true;
            }
            return fail("expected ',' or '}'");
        }
    }
    bool array() {
        ++i;
        ws();
        if (i < s.size() && s[i] == ']') {
            ++i;
            return true;
        }
        for (;;) {
            if (!value()) return false;
            if (i < s.size() && s[i] == ',') {
                ++i;
                continue;
            }
            if (i < s.size() && s[i] == ']') {
                ++i;
                return true;
            }
            return fail("expected ',' or ']'");
        }
    }
};

}  // namespace

// JSON text is UTF-8 (RFC 8259, section 8.1). Checked here independently of
// the writer's own check: by code point ranges, not by sequence tables.
static std::size_t first_bad_utf8(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return i;
        std::uint32_t cp = n == 1 ? c : c & (0x7F >> n);
        for (int k = 1; k < n; ++k) {
            const unsigned char d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) return i;
            cp = cp << 6 | (d & 0x3F);
        }
        const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += n;
    }
    return std::string::npos;
}

bool is_valid_json(const std::string& text, std::string* error) {
    if (const std::size_t bad = first_bad_utf8(text); bad != std::string::npos) {
        if (error) *error = "not UTF-8 at offset " + std::to_string(bad);
        return false;
    }
    Parser p{text, 0, {}};
    bool ok = p.value() && p.i == text.size();
    if (!ok && p.err.empty()) p.err = "trailing characters at offset " + std::to_string(p.i);
    if (!ok && error) *error = p.err;
    return ok;
}

std::map<std::string, std::string> json_members(const std::string& text) {
    std::map<std::string, std::string> out;
    Parser p{text, 0, {}};
    p.ws();
    if (p.i >= text.size() || text[p.i] != '{') return out;
    ++p.i;
    for (;;) {
        p.ws();
        std::size_t ks = p.i;
        if (!p.string()) return out;
        std::string key = text.substr(ks + 1, p.i - ks - 2);
        p.ws();
        if (p.i >= text.size() || text[p.i] != ':') return out;
        ++p.i;
        p.ws();
        std::size_t vs = p.i;
        if (!p.value()) return out;
        std::size_t ve = p.i;
        while (ve > vs && std::isspace(static_cast<unsigned char>(text[ve - 1]))) --ve;
        out[key] = text.substr(vs, ve - vs);
        if (p.i < text.size() && text[p.i] == ',') {
            ++p.i;
            continue;
        }
        return out;
    }
}

std::vector<std::string> json_array_objects(const std::string& array) {
    std::vector<std::string> out;
    int depth = 0;
    bool in_string = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < array.size(); ++i) {
        const char c = array[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        if (c == '{' && depth++ == 0) start = i;
        if (c == '}' && --depth == 0) out.push_back(array.substr(start, i - start + 1));
    }
    return out;
}

}  // namespace imgpar::test
