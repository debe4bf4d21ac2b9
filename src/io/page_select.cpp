#include "src/io/page_select.hpp"

#include <sys/stat.h>

#include <cctype>

namespace imgpar {

namespace {

bool exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

PagedPath split_page_suffix(const std::string& path) {
    PagedPath whole{path, -1};
    if (path.size() < 4 || path.back() != ']' || path == "-") return whole;
    const std::size_t open = path.rfind('[');
    if (open == std::string::npos || open == 0) return whole;
    const std::string digits = path.substr(open + 1, path.size() - open - 2);
    if (digits.empty() || digits.size() > 9) return whole;
    for (char c : digits)
        if (!std::isdigit(static_cast<unsigned char>(c))) return whole;
    if (exists(path)) return whole;
    const std::string file = path.substr(0, open);
    if (!exists(file)) return whole;
    return {file, std::stoi(digits)};
}

}  // namespace imgpar
