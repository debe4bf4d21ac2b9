#include "src/gpu_runtime.hpp"

namespace imgpar {

bool GpuStatus::usable() const {
    for (const auto& d : devices)
        if (d.usable) return true;
    return false;
}

std::string cuda_version_string(int version) {
    if (version <= 0) return "none";
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace imgpar
