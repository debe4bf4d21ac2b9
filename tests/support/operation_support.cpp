#include "tests/support/operation_support.hpp"

#include <regex>

namespace imgpar::test {

std::string markdown_parameters(const Operation& op) {
    const auto cell = [](std::string s) {
        std::string out;
        for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
        return out;
    };
    std::string s = "| option | meaning | allowed | default |\n|---|---|---|---|\n";
    for (const ParamSpec& p : op.params) {
        std::string allowed = p.range_text();
        if (!p.note.empty()) allowed += (allowed.empty() ? "" : "; ") + p.note;
        const std::string option = "`--" + p.name + (p.value_name.empty() ? "" : " " + p.value_name) + "`";
        s += "| " + option + " | " + cell(p.help) + " | " + cell(allowed) + " | " +
             (p.default_value ? cell(*p.default_value) : std::string()) + " |\n";
    }
    return s;
}

Values base_values_for(const Operation& op, const std::string& param) {
    for (const Example& e : op.examples)
        for (const auto& [name, value] : e.values)
            if (name == param) return e.values;
    return op.examples.empty() ? Values{} : op.examples.front().values;
}

std::unique_ptr<ImageJob> image_job(const std::string& name, const Values& values) {
    const Operation& o = *find_operation(name);
    return o.make_image_job(o.values(values));
}

Values with(Values values, const std::string& name, const std::string& value) {
    for (auto& [n, v] : values)
        if (n == name) {
            v = value;
            return values;
        }
    values.emplace_back(name, value);
    return values;
}

std::string without_backend(const std::string& json) {
    static const std::regex member(R"RE("(backend|kernel)":("([^"\\]|\\.)*"|null),?)RE");
    return std::regex_replace(json, member, "");
}

}  // namespace imgpar::test
