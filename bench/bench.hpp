// The benchmark harness: each bench/*.cu file registers cases with
// IMGPAR_BENCH; main runs them (or those matching --only) and prints one
// table. Kernels are timed with CUDA events after warm-up, as the median of
// many runs, on inputs larger than L2; every row also shows a device-to-device
// copy of the same bytes measured in the same run, and peers (NPP, CUB) where
// installed. Work runs on a GPU session's stream, as in imgpar itself.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench/photo_like.hpp"
#include "src/gpu/session.hpp"
#include "src/image.hpp"

namespace imgpar::bench {

struct Options {
    bool quick = false;      // fewer runs, for smoke tests
    bool cpu = true;         // also time the CPU reference (slow on big images)
    bool npp_filters = true; // also time NPP's filters (its large-radius Gaussians take seconds)
    std::string only;        // run cases whose name contains this
    std::vector<std::string> operations;  // --operations: the operations case times only these (empty: all)
    // --param NAME=VALUE: set in every timed example of an operation that has the parameter
    std::vector<std::pair<std::string, std::string>> params;
};

struct Timing {
    double median_ms = NAN;
    double min_ms = NAN;
    int runs = 0;
};

struct Row {
    std::string group;       // "copy", "gaussian", ...
    std::string name;        // "gaussian sigma=2"
    std::string image;       // "8192x8192 gray"
    double bytes = 0;        // bytes the operation must read + write once
    Timing gpu;
    double copy_ms = NAN;    // device copy of the same image, this run
    double cpu_ms = NAN;     // CPU reference, NaN if not timed
    std::string peer;        // "NPP FilterGaussAdvancedBorder" or empty
    double peer_ms = NAN;
    std::string note;
};

// The second row of a case timed against another peer: "NAME (vs LABEL)",
// the same GPU time, no CPU column.
inline Row vs_peer_row(const Row& r, const std::string& label, const std::string& peer, double peer_ms, std::string note) {
    Row n = r;
    n.name += " (vs " + label + ")";
    n.cpu_ms = NAN;
    n.peer = peer;
    n.peer_ms = peer_ms;
    n.note = std::move(note);
    return n;
}

class Context {
public:
    explicit Context(Options o);
    ~Context();
    const Options& options() const { return options_; }
    // GPU 0's session; its stream is the one everything is timed on.
    gpu::Session& session() { return session_; }
    cudaStream_t stream() const { return stream_; }

    // Times fn(stream) with events: `warmup` untimed calls, then the median of
    // `runs` timed calls (fewer with --quick).
    Timing time(const std::function<void(cudaStream_t)>& fn, int warmup = 3, int runs = 25);
    // Median time of a device-to-device copy of `bytes` (read + write), cached per size.
    double copy_ms(std::size_t bytes);
    // Times a host function (median of `runs`).
    static double time_host_ms(const std::function<void()>& fn, int runs = 3);

    void add(const Row& row);
    const std::vector<Row>& rows() const { return rows_; }

private:
    Options options_;
    gpu::Session session_{0};
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    std::vector<std::pair<std::size_t, double>> copy_cache_;
    std::vector<Row> rows_;
};

// The two images the filter-like rows run on: 8K RGB (95 MiB) and 8K gray
// (64 MiB), both larger than L2.
struct ImageShape {
    int w, h, c;
    const char* label;
};
inline constexpr ImageShape kImageShapes[] = {{7680, 4320, 3, "7680x4320 RGB"}, {8192, 8192, 1, "8192x8192 gray"}};

using CaseFn = void (*)(Context&);
// Cases run, and their rows print, in the order of `rank`.
struct Registrar {
    Registrar(int rank, const char* name, CaseFn fn);
};
struct Case {
    int rank;
    const char* name;
    CaseFn fn;
};
// Sorted by rank.
std::vector<Case>& registry();

}  // namespace imgpar::bench

#define IMGPAR_BENCH_CAT2(a, b) a##b
#define IMGPAR_BENCH_CAT(a, b) IMGPAR_BENCH_CAT2(a, b)
// Registers `void fn(imgpar::bench::Context&)` under `name`.
#define IMGPAR_BENCH(rank, name, fn) \
    static ::imgpar::bench::Registrar IMGPAR_BENCH_CAT(imgpar_bench_registrar_, __LINE__)(rank, name, fn)
