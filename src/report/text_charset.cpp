#include "src/report/text_charset.hpp"

#include <langinfo.h>
#include <locale.h>

#include <cctype>
#include <cstdlib>
#include <initializer_list>

namespace imgpar {

bool locale_is_utf8(const std::string& name) {
    if (name.empty()) return false;
    // A locale object of its own (newlocale, not setlocale), so asking
    // changes nothing else in the process.
    if (const locale_t loc = newlocale(LC_CTYPE_MASK, name.c_str(), static_cast<locale_t>(nullptr))) {
        const std::string codeset = nl_langinfo_l(CODESET, loc);
        freelocale(loc);
        return codeset == "UTF-8";
    }
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::size_t dot = lower.find('.');
    if (dot == std::string::npos) return false;
    const std::string charset = lower.substr(dot + 1, lower.find('@', dot) - dot - 1);
    return charset == "utf-8" || charset == "utf8";
}

bool environment_is_utf8() {
    static const bool utf8 = [] {
        for (const char* variable : {"LC_ALL", "LC_CTYPE", "LANG"})
            if (const char* value = std::getenv(variable); value && *value) return locale_is_utf8(value);
        return false;
    }();
    return utf8;
}

}  // namespace imgpar
