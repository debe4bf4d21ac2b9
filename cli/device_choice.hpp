// The backend of a run: what --device asks for, with `auto` made cost-aware.
// Results are byte-identical on both backends, so `auto` picks the one that
// finishes first: the CPU when the run's compute would take it less time than
// waiting for the GPU to start (which overlaps the first file's decode), the
// GPU otherwise (when there is a usable one). The CPU cost is measured, not
// guessed: the job runs once on a 512x512 image on all threads, and that time
// is scaled to the run's pixels.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cli/diagnostics.hpp"
#include "src/backend.hpp"
#include "src/image.hpp"
#include "src/io/load.hpp"

namespace imgpar::cli {

// What starting the GPU costs a process, measured on an H100 machine with
// CUDA 13 (context, stream, loading the kernels' code): about 0.45 s.
constexpr double kGpuStartSeconds = 0.45;

struct RunShape {
    std::string what;       // "blur"
    std::size_t files = 0;
    std::optional<ImageHeader> first;  // the first input's header, when it could be read
};

struct DeviceDecision {
    DeviceRequest request;
    // `auto` chose the GPU for a run over several files whose one file takes
    // a CPU thread a small part of the GPU's start-up: until the GPU is up,
    // the files compute on the CPU instead of waiting (BackendPool).
    bool cpu_while_gpu_starts = false;
};

// `request`, or for `auto` the CPU when the estimate says so (said with -v,
// with the numbers). `run_cpu` runs the job on the CPU on one image.
DeviceDecision choose_device(const DeviceRequest& request, const RunShape& shape,
                             const std::function<void(ConstViewU8)>& run_cpu, const Diagnostics& diag);

// The header of `path` if it can be read (not standard input), for the
// estimate and for readying the GPU.
std::optional<ImageHeader> peek_header(const std::string& path, const LoadOptions& load);

}  // namespace imgpar::cli
