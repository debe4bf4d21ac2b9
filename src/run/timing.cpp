#include "src/run/timing.hpp"

namespace imgpar {
namespace {

// Set during static initialisation, before main runs.
const std::chrono::steady_clock::time_point kProcessStart = std::chrono::steady_clock::now();

}  // namespace

std::chrono::steady_clock::time_point process_start() { return kProcessStart; }

}  // namespace imgpar
