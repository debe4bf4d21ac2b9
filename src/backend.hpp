// Backend selection, in one place: which implementation (CPU reference or
// GPU) an operation runs on, from the user's --device request and what the
// machine has. Choosing the GPU opens its session (src/gpu/session.hpp),
// which the caller keeps for all its work. Every command that computes
// reports the choice.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/gpu/session.hpp"

namespace imgpar {

enum class Backend { Cpu, Gpu };

const char* backend_name(Backend b);  // "cpu" / "gpu"

struct DeviceRequest {
    enum class Kind { Auto, Cpu, Gpu };
    Kind kind = Kind::Auto;
    // gpu:N and gpu:A,B,...: the GPUs named, as given (no GPU twice; empty
    // for gpu and gpu:all). A run over several files spreads them over these
    // GPUs (BackendPool); a single file runs on the first.
    std::vector<int> gpu_list;
    bool all_gpus = false;  // gpu:all: every usable GPU
};

// Parses "auto", "cpu", "gpu", "gpu:N", "gpu:A,B,..." or "gpu:all". Throws
// imgpar::Error (usage).
DeviceRequest parse_device_request(const std::string& text);

struct BackendChoice {
    Backend backend = Backend::Cpu;
    int gpu_index = -1;     // valid when backend == Gpu
    std::string gpu_name;   // valid when backend == Gpu
    // Every GPU the run may use (backend == Gpu), gpu_index first: one for
    // gpu and gpu:N, several for gpu:all and gpu:A,B,...
    std::vector<int> gpus;
    // The chosen GPU's session (backend == Gpu), shared by the copies of
    // this choice.
    std::shared_ptr<gpu::Session> session;
    // Set when `auto` fell back to the CPU: why no GPU was used. The CLI
    // prints it once on stderr.
    std::string fallback_reason;
    std::string describe() const;  // "gpu 0 (NVIDIA H100 80GB HBM3)" / "cpu"
};

// Every GPU select_backend would give the run (BackendChoice::gpus); empty
// for the CPU or when none is usable. Opens only the GPUs that decide it
// (gpu_device), as select_backend does. Lets a batch start other GPU services
// (the JPEG decoder) on those devices while the sessions open.
std::vector<int> planned_gpus(const DeviceRequest& request);

// Chooses the backend. `gpu`, `gpu:N` or a list without a usable GPU (each
// listed GPU must be usable) throws imgpar::Error (device) saying why; `auto`
// falls back to the CPU. Choosing the GPU opens a session on the run's first
// GPU; BackendPool opens the others' sessions.
BackendChoice select_backend(const DeviceRequest& request);

}  // namespace imgpar
