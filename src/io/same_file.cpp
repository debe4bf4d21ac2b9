#include "src/io/same_file.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>

namespace imgpar {

std::string normal_path(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(path, ec);
    return (ec ? std::filesystem::path(path) : abs).lexically_normal().string();
}

std::optional<std::pair<dev_t, ino_t>> file_id(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return std::make_pair(st.st_dev, st.st_ino);
}

bool same_file(const std::string& a, const std::string& b) {
    const auto ia = file_id(a), ib = file_id(b);
    if (ia && ib) return *ia == *ib;
    return normal_path(a) == normal_path(b);
}

}  // namespace imgpar
