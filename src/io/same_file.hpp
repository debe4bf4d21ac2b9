// Whether an output would be written onto an input: compared as files, not
// as names, so "./x.png", "x.png", a symbolic link to it and another hard
// link of it all count.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>

namespace imgpar {

// The path made absolute and lexically normal ("a/./b.png" is "a/b.png"),
// or only normal where the working folder cannot be read.
std::string normal_path(const std::string& path);

// The device and inode of an existing file (symbolic links followed).
std::optional<std::pair<dev_t, ino_t>> file_id(const std::string& path);

// The same device and inode when both exist; otherwise the same normal path.
bool same_file(const std::string& a, const std::string& b);

}  // namespace imgpar
