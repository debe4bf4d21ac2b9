// Backend selection, in one place: which implementation (CPU reference or
// GPU) an operation runs on, from the user's --device request and what the
// machine has. Choosing the GPU opens its session (src/gpu/session.hpp),
// which the caller keeps for all its work. Every command that computes
// reports the choice.
#pragma once

#include <memory>
#include <string>

#include "src/gpu/session.hpp"

namespace imgpar {

enum class Backend { Cpu, Gpu };

const char* backend_name(Backend b);  // "cpu" / "gpu"

struct DeviceRequest {
    enum class Kind { Auto, Cpu, Gpu };
    Kind kind = Kind::Auto;
    int gpu_index = 0;  // for gpu[:N]
    bool index_given = false;
};

// Parses "auto", "cpu", "gpu" or "gpu:N". Throws imgpar::Error (usage).
DeviceRequest parse_device_request(const std::string& text);

struct BackendChoice {
    Backend backend = Backend::Cpu;
    int gpu_index = -1;     // valid when backend == Gpu
    std::string gpu_name;   // valid when backend == Gpu
    // The chosen GPU's session (backend == Gpu), shared by the copies of
    // this choice.
    std::shared_ptr<gpu::Session> session;
    // Set when `auto` fell back to the CPU: why no GPU was used. The CLI
    // prints it once on stderr.
    std::string fallback_reason;
    std::string describe() const;  // "gpu 0 (NVIDIA H100 80GB HBM3)" / "cpu"
};

// The GPU select_backend would open for `request`, found without opening it
// (from the cached gpu_status()); -1 for the CPU or when none is usable.
// Lets a batch start other GPU services (the JPEG decoder) on that device
// while the session opens.
int planned_gpu(const DeviceRequest& request);

// Chooses the backend. `gpu` or `gpu:N` without a usable GPU N throws
// imgpar::Error (device) saying why; `auto` falls back to the CPU. Choosing a
// GPU opens a session on it.
BackendChoice select_backend(const DeviceRequest& request);

}  // namespace imgpar
