// Whether an output would be written onto an input: compared as files, not
// as names, so "./x.png", "x.png", a symbolic link to it and another hard
// link of it all count.
#pragma once

#include <string>

namespace imgpar {

// The same device and inode when both exist; otherwise the same path once
// made absolute and normal ("a/./b.png" is "a/b.png").
bool same_file(const std::string& a, const std::string& b);

}  // namespace imgpar
