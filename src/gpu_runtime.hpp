// What the process can learn about GPUs without depending on CUDA headers:
// the CLI, backend selection and the tests use this, whether or not the
// build has the CUDA backend.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace imgpar {

struct GpuInfo {
    int index = 0;
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    int multiprocessors = 0;
    std::size_t total_memory = 0;  // bytes
    std::size_t free_memory = 0;   // bytes, at query time
    bool usable = false;           // this build has code that runs on it
    std::string problem;           // why not, when !usable
};

struct GpuStatus {
    bool built_with_cuda = false;
    int driver_version = 0;   // e.g. 13000 for 13.0; 0 when no driver
    int runtime_version = 0;  // the CUDA runtime linked into imgpar
    std::vector<GpuInfo> devices;
    // True when at least one device is usable. When false, `reason` says why
    // in words a user can act on.
    bool usable() const;
    std::string reason;
};

// Queries the driver once per process and caches the answer; never throws.
const GpuStatus& gpu_status();

// "13.0" from 13000.
std::string cuda_version_string(int version);

}  // namespace imgpar
