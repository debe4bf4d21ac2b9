#include "cli/device_choice.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/parallel.hpp"

namespace imgpar::cli {

namespace {

// Seconds per sample of the job from one run on a 512x512 image of the
// run's channel count, on `threads` threads (threads started included, so a
// small image does not flatter the CPU).
double cpu_seconds_per_sample(int channels, int threads, const std::function<void(ConstViewU8)>& run_cpu) {
    constexpr int kSide = 512;
    const ImageU8 sample(kSide, kSide, channels);
    CpuThreadLimit limit(threads);
    const auto t0 = std::chrono::steady_clock::now();
    run_cpu(sample.view());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return s / (static_cast<double>(kSide) * kSide * channels);
}

// How long decoding a file of this many pixels takes on one core (measured
// with libjpeg-turbo and libpng on 16 MP photos); the GPU starts meanwhile.
double decode_seconds(const ImageHeader& h) {
    const double pixels = static_cast<double>(h.width) * h.height;
    return pixels * (h.format == ImageFormat::Jpeg ? 3.5e-9 : h.format == ImageFormat::Png ? 15e-9 : 1e-9);
}

// Host to device and back through pinned staging, as measured on an H100
// machine for whole images (the host copies included).
constexpr double kHostDeviceBytesPerSecond = 2e9;

}  // namespace

DeviceDecision choose_device(const DeviceRequest& request, const RunShape& shape,
                             const std::function<void(ConstViewU8)>& run_cpu, const Diagnostics& diag) {
    if (request.kind != DeviceRequest::Kind::Auto || !shape.first || shape.files == 0) return {request};
    const ImageHeader& h = *shape.first;
    const double file_samples = static_cast<double>(h.width) * h.height * h.channels;
    const double samples = file_samples * static_cast<double>(shape.files);
    const int threads = cpu_thread_count();
    const double per_sample = cpu_seconds_per_sample(h.channels, threads, run_cpu);
    const double cpu_seconds = samples * per_sample;
    // The GPU starts while the first files decode: only the rest of its
    // start-up is waited for; then the pixels travel there and back.
    const double gpu_wait = std::max(0.0, kGpuStartSeconds - decode_seconds(h)) + samples * 2 / kHostDeviceBytesPerSecond;
    const bool cpu = cpu_seconds < gpu_wait;
    // A batch's workers take a file each, on one thread: what the file costs
    // there decides whether the files that come while the GPU starts compute
    // on the CPU (measured on one thread: on all of them, starting the
    // threads dominates so small a sample, 20x too pessimistic for a photo).
    const double file_seconds =
        shape.files > 1 && !cpu ? file_samples * cpu_seconds_per_sample(h.channels, 1, run_cpu) : 0.0;
    const bool early = !cpu && shape.files > 1 && file_seconds < kGpuStartSeconds;
    char line[400];
    std::snprintf(line, sizeof line,
                  "device auto: %s: %s of %zu file%s (%.1f MP%s) is about %.3f s of work for %d CPU thread%s, %s than "
                  "the GPU would add (about %.2f s: its %.2f s start-up, less the first file's decode, and the copies)",
                  cpu ? "the CPU" : "the GPU if usable", shape.what.c_str(), shape.files, shape.files == 1 ? "" : "s",
                  static_cast<double>(h.width) * h.height / 1e6, shape.files == 1 ? "" : " each, as the first",
                  cpu_seconds, threads, threads == 1 ? "" : "s", cpu ? "less" : "more", gpu_wait, kGpuStartSeconds);
    std::string text = line;
    if (early) {
        std::snprintf(line, sizeof line, "; until it is up, files compute on the CPU (about %.3f s each on one thread)",
                      file_seconds);
        text += line;
    }
    diag.info(text);
    return {cpu ? parse_device_request("cpu") : request, early};
}

std::optional<ImageHeader> peek_header(const std::string& path, const LoadOptions& load) {
    if (path == "-") return std::nullopt;
    try {
        return read_image_header(path, read_image_file(path, load), load);
    } catch (const Error&) {
        return std::nullopt;  // the run reports it when it gets to the file
    }
}

}  // namespace imgpar::cli
