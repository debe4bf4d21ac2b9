// Wall-clock times as the -v lines print them.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

namespace imgpar {

// When the process started (its static initialisation), for -v's start-up
// time: what passes before the first file includes loading the libraries and
// starting the GPU.
std::chrono::steady_clock::time_point process_start();

inline double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Seconds since process_start(), to the microsecond, for the per-file
// times of --json.
inline double seconds_since_start() {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - process_start()).count();
    return std::round(s * 1e6) / 1e6;
}

inline std::string ms_text(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f ms", ms);
    return buf;
}

}  // namespace imgpar
