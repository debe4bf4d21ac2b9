#include "cli/device_choice.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/parallel.hpp"

namespace imgpar::cli {

namespace {

// Seconds per sample of the job on one CPU thread, from one run on a
// 192x192 image of the run's channel count.
double cpu_seconds_per_sample(int channels, const std::function<void(ConstViewU8)>& run_cpu) {
    constexpr int kSide = 192;
    const ImageU8 sample(kSide, kSide, channels);
    CpuThreadLimit one(1);
    const auto t0 = std::chrono::steady_clock::now();
    run_cpu(sample.view());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return s / (static_cast<double>(kSide) * kSide * channels);
}

}  // namespace

DeviceRequest choose_device(const DeviceRequest& request, const RunShape& shape,
                            const std::function<void(ConstViewU8)>& run_cpu, const Diagnostics& diag) {
    if (request.kind != DeviceRequest::Kind::Auto || !shape.first || shape.files == 0) return request;
    const ImageHeader& h = *shape.first;
    const double samples = static_cast<double>(h.width) * h.height * h.channels * static_cast<double>(shape.files);
    const int threads = cpu_thread_count();
    const double cpu_seconds = samples * cpu_seconds_per_sample(h.channels, run_cpu) / threads;
    const bool cpu = cpu_seconds < kGpuStartSeconds;
    char line[320];
    std::snprintf(line, sizeof line,
                  "device auto: %s: %s of %zu file%s (%.1f MP%s) is about %.3f s of work for %d CPU thread%s, %s than "
                  "starting the GPU (about %.2f s)",
                  cpu ? "the CPU" : "the GPU if usable", shape.what.c_str(), shape.files, shape.files == 1 ? "" : "s",
                  static_cast<double>(h.width) * h.height / 1e6, shape.files == 1 ? "" : " each, as the first",
                  cpu_seconds, threads, threads == 1 ? "" : "s", cpu ? "less" : "more", kGpuStartSeconds);
    diag.info(line);
    return cpu ? DeviceRequest{DeviceRequest::Kind::Cpu} : request;
}

std::optional<ImageHeader> peek_header(const std::string& path, const LoadOptions& load) {
    if (path == "-") return std::nullopt;
    try {
        return read_image_header(path, read_input_bytes(path), load);
    } catch (const Error&) {
        return std::nullopt;  // the run reports it when it gets to the file
    }
}

}  // namespace imgpar::cli
