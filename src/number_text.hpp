// Numbers as people read them in messages and descriptions.
#pragma once

#include <cstdio>
#include <string>

namespace imgpar {

// The shortest faithful text of a parameter or bound: "2", "0.5", "1e-05".
inline std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace imgpar
