// The backend of a run: what --device asks for, with `auto` made cost-aware.
// Results are byte-identical on both backends, so `auto` picks the one that
// finishes first. One file: the CPU when its stages on all threads take less
// time than the GPU would add (its start-up, which overlaps the file's
// decode, and the copies). A batch: the time of the run on the CPU's threads
// against the run with the GPU, which takes the compute (and, when it
// encodes JPEGs, the encoding) off the cores but costs its start-up and its
// release at exit. The CPU's compute is measured, not guessed: each stage of
// the chain runs on a made-up 512x512 image (never on a user's file), on all
// threads for one file and on one for a batch, whose workers take a file
// each, and is scaled to the first file's images (src/run/engine.hpp);
// decoding and encoding are rates measured on photos.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "src/backend.hpp"
#include "src/image.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/run/diagnostics.hpp"

namespace imgpar {

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
    // Its image as decoded (smaller by `shrink` with shrink-on-load) and the
    // run's output image: what the copies move and the encoder writes.
    int shrink = 1;
    ImageShape decoded, output;
    // A core's encoding time per output pixel that the GPU takes over when
    // it encodes the outputs (JPEG with the GPU encoder); 0 otherwise.
    double encode_seconds_saved_per_pixel = 0;
    // The first file's compute on the CPU from its decoded image, in
    // seconds, on this many threads (measured on made-up images; the faster
    // of `runs` runs).
    std::function<double(int threads, int runs)> cpu_seconds;
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
// with the numbers).
DeviceDecision choose_device(const DeviceRequest& request, const RunShape& shape, const Diagnostics& diag);

// When `auto` finds no usable GPU: one short notice that says how to skip it
// (IMGPAR_DEVICE=cpu), at most once per process; -v adds `reason`, the long
// explanation (no driver, no device, built without CUDA...).
void note_cpu_fallback(const std::string& reason, const Diagnostics& diag);

}  // namespace imgpar
