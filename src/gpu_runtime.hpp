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
    // Whether usable, problem and free_memory are known: the device was
    // opened (gpu_device), or its properties alone rule it out.
    bool probed = false;
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

// Whether this process has initialised CUDA (asked the driver for its
// devices). Such a process ends with _Exit (cli/main.cpp): threads may still
// be in CUDA calls that cannot be cut short (a hardware decoder starting),
// and CUDA's own teardown needs none of the static destructors.
bool cuda_started();

// Whether the CUDA backend is built, and the runtime's and the driver's
// versions, without initialising CUDA (a few tenths of a second on a GPU
// machine); no devices.
GpuStatus gpu_versions();

// The driver's versions and every device's properties, read once per
// process without opening any device (no CUDA context is made); never
// throws. A device's usable, problem and free_memory are known here only
// when `probed` (its compute capability rules it out); `reason` says why
// there are no devices at all.
const GpuStatus& gpu_inventory();

// Device `index` of the inventory (0 <= index < devices.size()) opened once
// per process, on the calling thread, which keeps it as its current device:
// whether this build's kernels run on it, and its free memory. Opening a GPU
// costs a few tenths of a second, so a run asks only about the GPUs it may
// use. Cached, thread-safe, never throws.
const GpuInfo& gpu_device(int index);

// The inventory with every device opened (what `imgpar devices` and the GPU
// tests report); `reason` says why none is usable. Cached; never throws.
const GpuStatus& gpu_status();

// "13.0" from 13000.
std::string cuda_version_string(int version);

}  // namespace imgpar
