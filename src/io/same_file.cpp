#include "src/io/same_file.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>

namespace imgpar {
namespace {

std::string normal_path(const std::string& p) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(p, ec);
    return (ec ? std::filesystem::path(p) : abs).lexically_normal().string();
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa{}, sb{};
    if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return normal_path(a) == normal_path(b);
}

}  // namespace imgpar
