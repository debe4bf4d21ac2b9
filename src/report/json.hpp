// A small JSON writer for reports. Output is always valid JSON: strings are
// escaped, non-finite numbers become null, and objects print on one line
// (so several inputs make JSON Lines).
#pragma once

#include <cstdint>
#include <string>

namespace imgpar {

// `s` as a quoted JSON string.
std::string json_quote(const std::string& s);

class JsonArray;

class JsonObject {
public:
    JsonObject& add(const std::string& key, const std::string& value);
    JsonObject& add(const std::string& key, const char* value);
    // `value`, or null where it is empty (a field that does not apply).
    JsonObject& add_text_or_null(const std::string& key, const std::string& value) {
        return value.empty() ? add_null(key) : add(key, value);
    }
    JsonObject& add(const std::string& key, bool value);
    JsonObject& add(const std::string& key, int value) { return add_signed(key, value); }
    JsonObject& add(const std::string& key, long value) { return add_signed(key, value); }
    JsonObject& add(const std::string& key, long long value) { return add_signed(key, value); }
    JsonObject& add(const std::string& key, unsigned value) { return add_unsigned(key, value); }
    JsonObject& add(const std::string& key, unsigned long value) { return add_unsigned(key, value); }
    JsonObject& add(const std::string& key, unsigned long long value) { return add_unsigned(key, value); }
    JsonObject& add(const std::string& key, double value);
    JsonObject& add(const std::string& key, const JsonObject& value);
    JsonObject& add(const std::string& key, const JsonArray& value);
    JsonObject& add_null(const std::string& key);
    // Appends the members of `other` (keys must not repeat ours).
    JsonObject& merge(const JsonObject& other);
    std::string str() const { return "{" + body_ + "}"; }

private:
    JsonObject& add_signed(const std::string& key, long long value);
    JsonObject& add_unsigned(const std::string& key, unsigned long long value);
    JsonObject& raw(const std::string& key, const std::string& json);
    std::string body_;
};

class JsonArray {
public:
    JsonArray& push(const std::string& value);
    JsonArray& push(long long value);
    JsonArray& push(int value) { return push(static_cast<long long>(value)); }
    JsonArray& push(double value);
    JsonArray& push(const JsonObject& value);
    JsonArray& push(const JsonArray& value);
    std::string str() const { return "[" + body_ + "]"; }

private:
    JsonArray& raw(const std::string& json);
    std::string body_;
};

// A JSON number for `v`, or "null" if it is NaN or infinite. Doubles print
// with enough digits to round-trip.
std::string json_number(double v);

}  // namespace imgpar
