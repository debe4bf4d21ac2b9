#include "src/op/param.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "src/error.hpp"
#include "src/number_text.hpp"

namespace imgpar {
namespace {

std::string option(const std::string& name) { return "--" + name; }

ParamSpec declared(std::string name, ParamKind kind, std::string value_name, std::string help) {
    ParamSpec p;
    p.name = std::move(name);
    p.kind = kind;
    p.value_name = std::move(value_name);
    p.help = std::move(help);
    return p;
}

}  // namespace

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

std::string ParamSpec::range_text() const {
    switch (kind) {
        case ParamKind::Integer:
        case ParamKind::Real:
            if (min && max) {
                if (min_open) return number_text(*min) + " < " + value_name + " <= " + number_text(*max);
                return number_text(*min) + " to " + number_text(*max);
            }
            if (min) return (min_open ? "above " : "at least ") + number_text(*min);
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
    it->second.text = std::move(value);
    it->second.given = true;
}

const ParamValues::Value& ParamValues::at(const std::string& name) const {
    auto it = values_.find(name);
    // Asking for an undeclared parameter is a bug in a declaration, not a user error.
    if (it == values_.end()) throw std::logic_error("parameter '" + name + "' is not declared");
    return it->second;
}

bool ParamValues::has(const std::string& name) const { return values_.count(name) > 0; }

bool ParamValues::given(const std::string& name) const { return at(name).given; }

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
    const std::string& t = *v.text;
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(t.c_str(), &end, 10);
    if (t.empty() || *end != '\0' || errno == ERANGE)
        throw usage_error(option(name), "'" + t + "' is not a whole number");
    return n;
}

std::optional<double> ParamValues::optional_real(const std::string& name) const {
    const Value& v = at(name);
    if (!v.text) return std::nullopt;
    const std::string& t = *v.text;
    char* end = nullptr;
    const double d = std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0' || !std::isfinite(d)) throw usage_error(option(name), "'" + t + "' is not a number");
    return d;
}

}  // namespace imgpar
