// The backend of a run: what --device asks for, with `auto` made cost-aware.
// Results are byte-identical on both backends, so `auto` picks the one that
// finishes first. One file: the CPU when the job on all threads takes less
// time than the GPU would add (its start-up, which overlaps the file's
// decode, and the copies). A batch: the time of the run on the CPU's threads
// against the run with the GPU, which takes the compute (and, when it
// encodes JPEGs, the encoding) off the cores but costs its start-up and its
// release at exit. The CPU's compute is measured, not guessed: the job runs
// once on a 512x512 image (on all threads for one file, on one for a batch,
// whose workers take a file each); decoding and encoding are rates measured
// on photos.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cli/diagnostics.hpp"
#include "src/backend.hpp"
#include "src/image.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"

namespace imgpar::cli {

// What starting the GPU costs a process, measured on an H100 machine with
// CUDA 13 (context, stream, loading the kernels' code): about 0.45 s.
constexpr double kGpuStartSeconds = 0.45;

// What releasing it costs at exit after a batch (the driver freeing the
// sessions' memory): 0.37 s after 520 photos on a two-H200 machine.
constexpr double kGpuReleaseSeconds = 0.3;

struct RunShape {
    std::string what;       // "blur"
    std::size_t files = 0;
    std::optional<ImageHeader> first;  // the first input's header, when it could be read
    // A core's encoding time per pixel that the GPU takes over when it
    // encodes the outputs (JPEG with the GPU encoder); 0 otherwise.
    double encode_seconds_saved_per_pixel = 0;
};

// libjpeg-turbo's encoding on one core, per pixel, at quality 95 (measured
// on 4.5 MP photos on the H100 machine: 40 ms at 4:4:4, 23.5 ms at 4:2:0).
double cpu_jpeg_encode_seconds_per_pixel(int channels, ChromaSubsampling chroma);

struct DeviceDecision {
    DeviceRequest request;
    // `auto` chose the GPU for a run over several files whose one file's
    // compute takes a CPU thread less than the GPU's start-up: until the GPU
    // is up, the files compute on the CPU instead of waiting (BackendPool).
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
