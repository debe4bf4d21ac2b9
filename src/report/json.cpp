#include "src/report/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "src/report/text_escape.hpp"

namespace imgpar {

std::string json_quote(const std::string& s) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const std::size_t n = utf8_sequence_length(s, i);
        char buf[8];
        if (n == 0) {
            // Not UTF-8 (a file name is any bytes): the byte as a lone low
            // surrogate, Python's "surrogateescape" convention, so the output
            // stays valid UTF-8 and os.fsencode() gives the name back.
            std::snprintf(buf, sizeof buf, "\\u%04x", 0xDC00 + c);
            out += buf;
            ++i;
            continue;
        }
        if (n > 1) {
            out.append(s, i, n);
            i += n;
            continue;
        }
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
        ++i;
    }
    return out + "\"";
}

std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return buf;
    }
    // The shortest of %.15g..%.17g that reads back as the same double.
    char buf[32];
    for (int digits = 15; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

JsonObject& JsonObject::raw(const std::string& key, const std::string& json) {
    if (!body_.empty()) body_ += ",";
    body_ += json_quote(key) + ":" + json;
    return *this;
}
JsonObject& JsonObject::add(const std::string& key, const std::string& v) { return raw(key, json_quote(v)); }
JsonObject& JsonObject::add(const std::string& key, const char* v) { return raw(key, json_quote(v ? v : "")); }
JsonObject& JsonObject::add(const std::string& key, bool v) { return raw(key, v ? "true" : "false"); }
JsonObject& JsonObject::add_signed(const std::string& key, long long v) { return raw(key, std::to_string(v)); }
JsonObject& JsonObject::add_unsigned(const std::string& key, unsigned long long v) { return raw(key, std::to_string(v)); }
JsonObject& JsonObject::add(const std::string& key, double v) { return raw(key, json_number(v)); }
JsonObject& JsonObject::add(const std::string& key, const JsonObject& v) { return raw(key, v.str()); }
JsonObject& JsonObject::add(const std::string& key, const JsonArray& v) { return raw(key, v.str()); }
JsonObject& JsonObject::add_null(const std::string& key) { return raw(key, "null"); }
JsonObject& JsonObject::merge(const JsonObject& other) {
    if (!other.body_.empty()) body_ += (body_.empty() ? "" : ",") + other.body_;
    return *this;
}

JsonArray& JsonArray::raw(const std::string& json) {
    if (!body_.empty()) body_ += ",";
    body_ += json;
    return *this;
}
JsonArray& JsonArray::push(const std::string& v) { return raw(json_quote(v)); }
JsonArray& JsonArray::push(long long v) { return raw(std::to_string(v)); }
JsonArray& JsonArray::push(double v) { return raw(json_number(v)); }
JsonArray& JsonArray::push(const JsonObject& v) { return raw(v.str()); }
JsonArray& JsonArray::push(const JsonArray& v) { return raw(v.str()); }

}  // namespace imgpar
