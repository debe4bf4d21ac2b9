#include "src/ops/border.hpp"

#include <cctype>

#include "src/error.hpp"

namespace imgpar {

Border parse_border(const std::string& text) {
    Border b;
    if (text == "replicate") return b;
    if (text == "reflect") {
        b.mode = BorderMode::Reflect;
        return b;
    }
    if (text == "reflect101") {
        b.mode = BorderMode::Reflect101;
        return b;
    }
    if (text == "wrap") {
        b.mode = BorderMode::Wrap;
        return b;
    }
    if (text == "constant" || text.rfind("constant:", 0) == 0) {
        b.mode = BorderMode::Constant;
        if (text.size() > 9) {
            std::string v = text.substr(9);
            bool digits = !v.empty() && v.size() <= 3;
            for (char c : v) digits = digits && std::isdigit(static_cast<unsigned char>(c));
            int value = digits ? std::stoi(v) : -1;
            if (value < 0 || value > 255)
                throw usage_error("--border", "constant value '" + v + "' must be an integer from 0 to 255");
            b.value = static_cast<std::uint8_t>(value);
        } else if (text.size() == 9) {
            throw usage_error("--border", "'constant:' needs a value from 0 to 255");
        }
        return b;
    }
    throw usage_error("--border", "'" + text + "' is not a border rule (allowed: replicate, reflect, reflect101, wrap, constant[:V])");
}

std::string border_name(const Border& b) {
    switch (b.mode) {
        case BorderMode::Replicate: return "replicate";
        case BorderMode::Reflect: return "reflect";
        case BorderMode::Reflect101: return "reflect101";
        case BorderMode::Wrap: return "wrap";
        case BorderMode::Constant: return "constant:" + std::to_string(b.value);
    }
    return "unknown";
}

}  // namespace imgpar
