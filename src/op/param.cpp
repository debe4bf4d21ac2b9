#include "src/op/param.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "src/error.hpp"
#include "src/number_text.hpp"

namespace imgpar {
namespace {

std::string option(const std::string& name) { return "--" + name; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The decimal notation parse_decimal takes (see param.hpp); from_chars alone
// would also take "inf", "nan" and hex digits after a "0x" it does not see.
bool decimal_syntax(std::string_view t) {
    std::size_t i = 0, digits = 0;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    for (; i < t.size() && is_digit(t[i]); ++i) ++digits;
    if (i < t.size() && t[i] == '.')
        for (++i; i < t.size() && is_digit(t[i]); ++i) ++digits;
    if (digits == 0) return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        std::size_t exponent_digits = 0;
        for (; i < t.size() && is_digit(t[i]); ++i) ++exponent_digits;
        if (exponent_digits == 0) return false;
    }
    return i == t.size();
}

// " (allowed: ...)" for a message, or nothing when the declaration has no range.
std::string allowed_suffix(const ParamSpec& s) {
    const std::string range = s.range_text();
    return range.empty() ? std::string() : " (allowed: " + range + ")";
}

// Why `text` is not a number, with a hint for a decimal comma ("2,5").
std::string not_a_number(const ParamSpec& s, const std::string& text, const char* what) {
    std::string why = "'" + text + "' is not " + what;
    const std::size_t comma = text.find(',');
    if (s.kind == ParamKind::Real && comma != std::string::npos && text.find(',', comma + 1) == std::string::npos) {
        std::string point = text;
        point[comma] = '.';
        if (parse_decimal(point)) return why + " (decimals take a point: " + point + ")";
    }
    return why + allowed_suffix(s);
}

// A given value checked against its declaration (usage error naming the option).
void check_declared(const ParamSpec& s, const std::string& text) {
    double value = 0.0;
    bool out_of_range = false;
    switch (s.kind) {
        case ParamKind::Integer: {
            const std::optional<long long> v = parse_whole_number(text, &out_of_range);
            if (!v && !out_of_range) throw usage_error(option(s.name), not_a_number(s, text, "a whole number"));
            value = v ? static_cast<double>(*v) : 0.0;
            break;
        }
        case ParamKind::Real: {
            const std::optional<double> v = parse_decimal(text, &out_of_range);
            if (!v && !out_of_range) throw usage_error(option(s.name), not_a_number(s, text, "a number"));
            value = v ? *v : 0.0;
            break;
        }
        case ParamKind::Choice:
            for (const std::string& c : s.choices)
                if (text == c) return;
            throw usage_error(option(s.name), "'" + text + "' is not allowed (allowed: " + s.range_text() + ")");
        default: return;
    }
    const bool below = s.min && (s.min_open ? value <= *s.min : value < *s.min);
    const bool above = s.max && value > *s.max;
    const bool tiny = text.find("e-") != std::string::npos || text.find("E-") != std::string::npos;
    if (out_of_range && tiny)
        throw usage_error(option(s.name), text + " is too close to 0 to be represented" + allowed_suffix(s));
    if (out_of_range || below || above) {
        const std::string range = s.range_text();
        throw usage_error(option(s.name), text + " is out of range" +
                                              (range.empty() ? std::string(" (too large or too small to represent)")
                                                             : " (allowed: " + range + ")"));
    }
}

ParamSpec declared(std::string name, ParamKind kind, std::string value_name, std::string help) {
    ParamSpec p;
    p.name = std::move(name);
    p.kind = kind;
    p.value_name = std::move(value_name);
    p.help = std::move(help);
    return p;
}

}  // namespace

std::optional<long long> parse_whole_number(std::string_view text, bool* out_of_range) {
    if (out_of_range) *out_of_range = false;
    const std::size_t start = !text.empty() && text[0] == '+' ? 1 : 0;  // from_chars takes '-' only
    const std::size_t digits_at = start + (start == 0 && !text.empty() && text[0] == '-' ? 1 : 0);
    if (digits_at >= text.size()) return std::nullopt;
    for (std::size_t i = digits_at; i < text.size(); ++i)
        if (!is_digit(text[i])) return std::nullopt;
    long long v = 0;
    const auto r = std::from_chars(text.data() + start, text.data() + text.size(), v, 10);
    if (r.ec == std::errc::result_out_of_range) {
        if (out_of_range) *out_of_range = true;
        return std::nullopt;
    }
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
    return v;
}

std::optional<double> parse_decimal(std::string_view text, bool* out_of_range) {
    if (out_of_range) *out_of_range = false;
    if (!decimal_syntax(text)) return std::nullopt;
    const std::size_t start = text[0] == '+' ? 1 : 0;
    double v = 0.0;
    // from_chars ignores the locale: "2.5" is 2.5 under a German LC_NUMERIC too.
    const auto r = std::from_chars(text.data() + start, text.data() + text.size(), v, std::chars_format::general);
    if (r.ec == std::errc::result_out_of_range || (r.ec == std::errc() && !std::isfinite(v))) {
        if (out_of_range) *out_of_range = true;
        return std::nullopt;
    }
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
    return v;
}

ParamSpec ParamSpec::flag(std::string name, std::string help) {
    return declared(std::move(name), ParamKind::Flag, "", std::move(help));
}

ParamSpec ParamSpec::integer(std::string name, std::string value_name, std::string help, long long min, long long max) {
    ParamSpec p = declared(std::move(name), ParamKind::Integer, std::move(value_name), std::move(help));
    p.min = static_cast<double>(min);
    p.max = static_cast<double>(max);
    return p;
}

ParamSpec ParamSpec::real(std::string name, std::string value_name, std::string help, double min, double max) {
    ParamSpec p = real(std::move(name), std::move(value_name), std::move(help));
    p.min = min;
    p.max = max;
    return p;
}

ParamSpec ParamSpec::real(std::string name, std::string value_name, std::string help) {
    return declared(std::move(name), ParamKind::Real, std::move(value_name), std::move(help));
}

ParamSpec ParamSpec::choice(std::string name, std::string value_name, std::string help, std::vector<std::string> choices) {
    ParamSpec p = declared(std::move(name), ParamKind::Choice, std::move(value_name), std::move(help));
    p.choices = std::move(choices);
    return p;
}

ParamSpec ParamSpec::text(std::string name, std::string value_name, std::string help, std::string allowed) {
    ParamSpec p = declared(std::move(name), ParamKind::Text, std::move(value_name), std::move(help));
    p.allowed = std::move(allowed);
    return p;
}

ParamSpec ParamSpec::path(std::string name, std::string value_name, std::string help) {
    return declared(std::move(name), ParamKind::Path, std::move(value_name), std::move(help));
}

ParamSpec&& ParamSpec::above(double v) && {
    min = v;
    min_open = true;
    return std::move(*this);
}

ParamSpec&& ParamSpec::defaults(std::string v) && {
    default_value = std::move(v);
    return std::move(*this);
}

ParamSpec&& ParamSpec::noting(std::string v) && {
    note = std::move(v);
    return std::move(*this);
}

ParamSpec&& ParamSpec::abbreviated(std::string letter) && {
    short_name = std::move(letter);
    return std::move(*this);
}

ParamSpec&& ParamSpec::only_with(std::vector<std::string> options) && {
    needs_one_of = std::move(options);
    return std::move(*this);
}

ParamSpec&& ParamSpec::unused_beside(std::vector<std::string> options) && {
    unused_with = std::move(options);
    return std::move(*this);
}

ParamSpec&& ParamSpec::suggesting(std::vector<std::string> words) && {
    suggestions = std::move(words);
    return std::move(*this);
}

ParamSpec&& ParamSpec::naming_a_folder() && {
    folder = true;
    return std::move(*this);
}

ParamSpec&& ParamSpec::documented_default(std::string text) && {
    default_doc = std::move(text);
    return std::move(*this);
}

std::string ParamSpec::default_text() const {
    if (!default_doc.empty()) return default_doc;
    return default_value ? *default_value : std::string();
}

std::string ParamSpec::range_text() const {
    // An integer's largest bound, the most a whole number holds, is 2^63 as
    // a double: said as the number a user may give.
    const auto bound = [&](double v) {
        return kind == ParamKind::Integer && v >= 9223372036854775807.0 ? std::string("2^63-1") : number_text(v);
    };
    switch (kind) {
        case ParamKind::Integer:
        case ParamKind::Real:
            if (min && max) {
                if (min_open) return bound(*min) + " < " + value_name + " <= " + bound(*max);
                return bound(*min) + " to " + bound(*max);
            }
            if (min) return (min_open ? "above " : "at least ") + bound(*min);
            return "";
        case ParamKind::Choice: {
            std::string s;
            for (std::size_t i = 0; i < choices.size(); ++i) {
                if (i > 0) s += i + 1 == choices.size() ? " or " : ", ";
                s += choices[i];
            }
            return s;
        }
        case ParamKind::Text: return allowed;
        default: return "";
    }
}

std::string ParamSpec::help_text() const {
    std::string s = help;
    const std::string range = range_text();
    if (!range.empty()) s += ": " + range;
    if (!note.empty()) s += "; " + note;
    return s;
}

ParamValues::ParamValues(const std::vector<ParamSpec>& specs,
                         const std::vector<std::pair<std::string, std::string>>& given) {
    for (const ParamSpec& s : specs) {
        Value v;
        v.spec = &s;
        v.text = s.default_value;
        values_[s.name] = v;
    }
    for (const auto& [name, text] : given) set(name, text);
}

void ParamValues::set(const std::string& name, std::string value) {
    auto it = values_.find(name);
    if (it == values_.end()) throw usage_error(option(name), "is not a parameter of this operation");
    check_declared(*it->second.spec, value);
    it->second.all.push_back(value);
    it->second.text = std::move(value);
    it->second.given = true;
    it->second.order = ++sets_;
}

std::string ParamValues::last_given(const std::vector<std::string>& names) const {
    std::string last;
    std::size_t latest = 0;
    for (const std::string& name : names) {
        const Value& v = at(name);
        if (v.given && v.order > latest) {
            latest = v.order;
            last = name;
        }
    }
    return last;
}

std::vector<std::string> ParamValues::unused_options() const {
    const auto alternatives = [](const std::vector<std::string>& names) {
        std::string s;
        for (std::size_t i = 0; i < names.size(); ++i)
            s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + option(names[i]);
        return s;
    };
    std::vector<std::string> lines;
    for (const auto& [name, v] : values_) {
        if (!v.given) continue;
        const ParamSpec& s = *v.spec;
        std::vector<std::string> declared;
        bool any_given = false;
        for (const std::string& other : s.needs_one_of)
            if (has(other)) {
                declared.push_back(other);
                any_given = any_given || given(other);
            }
        if (!declared.empty() && !any_given) {
            lines.push_back(option(name) + " has no effect without " + alternatives(declared));
            continue;
        }
        for (const std::string& other : s.unused_with)
            if (has(other) && given(other)) {
                lines.push_back(option(name) + " has no effect with " + option(other));
                break;
            }
    }
    return lines;
}

const ParamValues::Value& ParamValues::at(const std::string& name) const {
    auto it = values_.find(name);
    // Asking for an undeclared parameter is a bug in a declaration, not a user error.
    if (it == values_.end()) throw std::logic_error("parameter '" + name + "' is not declared");
    return it->second;
}

bool ParamValues::has(const std::string& name) const { return values_.count(name) > 0; }

bool ParamValues::given(const std::string& name) const { return at(name).given; }

const std::vector<std::string>& ParamValues::all(const std::string& name) const { return at(name).all; }

bool ParamValues::flag(const std::string& name) const { return at(name).given; }

long long ParamValues::integer(const std::string& name) const {
    const std::optional<long long> v = optional_integer(name);
    if (!v) throw usage_error(option(name), "needs a value");
    return *v;
}

int ParamValues::int_value(const std::string& name) const {
    const long long v = integer(name);
    if (v > std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
    if (v < std::numeric_limits<int>::min()) return std::numeric_limits<int>::min();
    return static_cast<int>(v);
}

double ParamValues::real(const std::string& name) const {
    const std::optional<double> v = optional_real(name);
    if (!v) throw usage_error(option(name), "needs a value");
    return *v;
}

const std::string& ParamValues::text(const std::string& name) const {
    const Value& v = at(name);
    if (!v.text) throw usage_error(option(name), "needs a value");
    if (v.spec->kind == ParamKind::Choice) {
        for (const std::string& c : v.spec->choices)
            if (*v.text == c) return *v.text;
        throw usage_error(option(name), "'" + *v.text + "' is not allowed (allowed: " + v.spec->range_text() + ")");
    }
    return *v.text;
}

std::optional<long long> ParamValues::optional_integer(const std::string& name) const {
    const Value& v = at(name);
    if (!v.text) return std::nullopt;
    check_declared(*v.spec, *v.text);  // a default too: a declaration's mistake is caught where it is read
    const std::optional<long long> n = parse_whole_number(*v.text);
    if (!n) throw usage_error(option(name), "'" + *v.text + "' is not a whole number");
    return n;
}

std::optional<double> ParamValues::optional_real(const std::string& name) const {
    const Value& v = at(name);
    if (!v.text) return std::nullopt;
    check_declared(*v.spec, *v.text);
    const std::optional<double> d = parse_decimal(*v.text);
    if (!d) throw usage_error(option(name), "'" + *v.text + "' is not a number");
    return d;
}

}  // namespace imgpar
