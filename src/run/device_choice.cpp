#include "src/run/device_choice.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/parallel.hpp"

namespace imgpar {

namespace {

// How long decoding a file of this many pixels takes on one core (measured
// with libjpeg-turbo and libpng on 16 MP photos); the GPU starts meanwhile.
// Shrink-on-load still decodes every coefficient: it saves the inverse DCT
// and the colour conversion of what it drops, a quarter of the time at 1/2,
// a third at 1/4, 40% at 1/8 (bench/TUNING.md, "Shrink-on-load on the GPU").
double decode_seconds(const ImageHeader& h, int shrink) {
    const double pixels = static_cast<double>(h.width) * h.height;
    // WebP and AVIF: a 16 MP photo's `imgpar stats` on one thread took 0.08
    // and 0.38 s longer than the same photo's as JPEG (2-core machine).
    // TIFF: a 16 MP RGB photo, Deflate with the predictor, took 0.26 s of
    // one core (libtiff 4.5, the 2-core machine), as PNG does.
    const double full = pixels * (h.format == ImageFormat::Jpeg                                   ? 3.5e-9
                                  : h.format == ImageFormat::Png || h.format == ImageFormat::Tiff ? 15e-9
                                  : h.format == ImageFormat::Webp                                 ? 12e-9
                                  : h.format == ImageFormat::Avif                                 ? 25e-9
                                                                                                  : 1e-9);
    return full * (shrink >= 8 ? 0.6 : shrink >= 4 ? 0.65 : shrink >= 2 ? 0.75 : 1.0);
}

// Host to device and back through pinned staging, as measured on an H100
// machine for whole images (the host copies included).
constexpr double kHostDeviceBytesPerSecond = 2e9;

// A batch worker's host copies to and from the staging buffers, on its one
// thread (about what one core copies).
constexpr double kWorkerCopyBytesPerSecond = 8e9;

// One file of a batch on one CPU thread: the stages a worker does.
struct FileSeconds {
    double decode = 0, compute = 0, encode = 0, copies = 0;
};

// The one-file case: the job on all threads against the GPU's start-up
// (less the first file's decode, which overlaps it) and the pixels' trip
// there and back.
DeviceDecision choose_for_one_file(const DeviceRequest& request, const RunShape& shape, const Diagnostics& diag) {
    const ImageHeader& h = *shape.first;
    const double bytes = static_cast<double>(shape.decoded.bytes() + shape.output.bytes());
    const int threads = cpu_thread_count();
    const double cpu_seconds = shape.cpu_seconds(threads, 1);
    const double gpu_wait =
        std::max(0.0, kGpuStartSeconds - decode_seconds(h, shape.shrink)) + bytes / kHostDeviceBytesPerSecond;
    const bool cpu = cpu_seconds < gpu_wait;
    char line[400];
    std::snprintf(line, sizeof line,
                  "device auto: %s: %s of 1 file (%.1f MP%s) is about %.3f s of work for %d CPU thread%s, %s than "
                  "the GPU would add (about %.2f s: its %.2f s start-up, less the file's decode, and the copies)",
                  cpu ? "the CPU" : "the GPU if usable", shape.what.c_str(), static_cast<double>(h.width) * h.height / 1e6,
                  shape.shrink > 1 ? (", decoded at 1/" + std::to_string(shape.shrink)).c_str() : "",
                  cpu_seconds, threads, threads == 1 ? "" : "s", cpu ? "less" : "more", gpu_wait, kGpuStartSeconds);
    diag.info(line);
    return {cpu ? parse_device_request("cpu") : request, false};
}

// A batch: each worker takes a file at a time on one thread, so the run
// lasts about files x (one file's stages on one thread) / threads. On the
// CPU a file is decoded, computed and encoded there; with the GPU its
// compute (and a JPEG's encoding, when the GPU encodes) leaves the cores for
// host copies, but the GPU first starts (the files that come meanwhile
// compute on the CPU when one takes a thread less than the start-up and
// those files are at least a quarter of the run) and is released at exit.
// The GPU is chosen when that finishes first.
DeviceDecision choose_for_batch(const DeviceRequest& request, const RunShape& shape, const Diagnostics& diag) {
    const ImageHeader& h = *shape.first;
    const double pixels = static_cast<double>(h.width) * h.height;
    const double files = static_cast<double>(shape.files);
    const int threads = cpu_thread_count();
    FileSeconds f;
    f.decode = decode_seconds(h, shape.shrink);
    // The faster of two runs: the first may pay for what runs once (code
    // paths chosen, tables built).
    f.compute = shape.cpu_seconds(1, 2);
    f.encode = shape.encode_seconds_saved_per_pixel * static_cast<double>(shape.output.width) * shape.output.height;
    // Up the decoded image, back the output (unless the GPU encodes it).
    f.copies = static_cast<double>(shape.decoded.bytes() + (f.encode > 0 ? 0 : shape.output.bytes())) /
               kWorkerCopyBytesPerSecond;
    const double cpu_rate = threads / (f.decode + f.compute + f.encode);  // files per second
    const double gpu_rate = threads / (f.decode + f.copies);
    const double cpu_seconds = files / cpu_rate;
    // Files done on the CPU while the GPU starts (none when they wait for
    // it). In a long run they do not pay: a file computed and encoded on a
    // core holds it several times as long as the GPU path's share of the
    // same file, and those cores are what the GPU path's files then wait
    // for (520 photos on 16 cores and an H200: 1.83 s with them, 1.55 s
    // waiting).
    const double could = std::min(files, kGpuStartSeconds * cpu_rate);
    const bool early = f.compute < kGpuStartSeconds && could >= 0.25 * files;
    const double before = early ? could : 0.0;
    const double gpu_seconds =
        (before >= files ? std::max(cpu_seconds, kGpuStartSeconds) : kGpuStartSeconds + (files - before) / gpu_rate) +
        kGpuReleaseSeconds;
    const bool cpu = cpu_seconds <= gpu_seconds;
    char line[600];
    std::snprintf(line, sizeof line,
                  "device auto: %s: %s of %zu files (%.1f MP each, as the first%s) takes about %.2f s on %d CPU "
                  "thread%s (%.3f s a file on one: decode %.3f, compute %.3f, encode %.3f) and about %.2f s with the "
                  "GPU (%.2f s to start it%s, %.2f s to release it at exit, host copies of %.3f s a file)",
                  cpu ? "the CPU" : "the GPU if usable", shape.what.c_str(), shape.files, pixels / 1e6,
                  shape.shrink > 1 ? (", decoded at 1/" + std::to_string(shape.shrink)).c_str() : "", cpu_seconds,
                  threads, threads == 1 ? "" : "s", f.decode + f.compute + f.encode, f.decode, f.compute, f.encode,
                  gpu_seconds, kGpuStartSeconds,
                  early ? ", files computing on the CPU meanwhile" : "", kGpuReleaseSeconds, f.copies);
    // For timing runs that weigh the rule (the estimate and the choice of
    // device stay the rule's): 1 computes the first files on the CPU whenever
    // the GPU is chosen, 0 never.
    bool cpu_first = early;
    if (const char* v = std::getenv("IMGPAR_CPU_WHILE_GPU_STARTS"); v && (!std::strcmp(v, "0") || !std::strcmp(v, "1")))
        cpu_first = v[0] == '1';
    std::string text = line;
    if (!cpu && cpu_first) text += "; until it is up, files compute on the CPU";
    diag.info(text);
    return {cpu ? parse_device_request("cpu") : request, !cpu && cpu_first};
}

}  // namespace

double cpu_jpeg_encode_seconds_per_pixel(int channels, ChromaSubsampling chroma) {
    if (channels < 3) return 3e-9;
    return chroma == ChromaSubsampling::S444 ? 8.9e-9 : chroma == ChromaSubsampling::S422 ? 7e-9 : 5.2e-9;
}

void note_cpu_fallback(const std::string& reason, const Diagnostics& diag) {
    // A machine without a GPU hears this on every run that could use one:
    // a short line, said once, that names the setting that silences it.
    static std::atomic<bool> said{false};
    if (said.exchange(true)) return;
    diag.notice("no usable GPU: running on the CPU (IMGPAR_DEVICE=cpu skips this note)");
    diag.info("device auto: no usable GPU: " + reason + " (imgpar devices says more)");
}

DeviceDecision choose_device(const DeviceRequest& request, const RunShape& shape, const Diagnostics& diag) {
    if (request.kind != DeviceRequest::Kind::Auto || !shape.first || shape.files == 0 || !shape.cpu_seconds)
        return {request};
    return shape.files == 1 ? choose_for_one_file(request, shape, diag) : choose_for_batch(request, shape, diag);
}

}  // namespace imgpar
