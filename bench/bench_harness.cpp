#include <algorithm>
#include <chrono>

#include "bench/bench.hpp"
#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/session.hpp"

namespace imgpar::bench {

std::vector<Case>& registry() {
    static std::vector<Case> cases;
    return cases;
}

Registrar::Registrar(int rank, const char* name, CaseFn fn) {
    auto& r = registry();
    r.push_back({rank, name, fn});
    std::stable_sort(r.begin(), r.end(), [](const Case& a, const Case& b) { return a.rank < b.rank; });
}

Context::Context(Options o) : options_(std::move(o)), stream_(cuda::enter(session_)) {
    IMGPAR_CUDA_CHECK(cudaEventCreate(&start_));
    IMGPAR_CUDA_CHECK(cudaEventCreate(&stop_));
}

Context::~Context() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
}

Timing Context::time(const std::function<void(cudaStream_t)>& fn, int warmup, int runs) {
    if (options_.quick) {
        warmup = 1;
        runs = std::min(runs, 3);
    }
    for (int i = 0; i < warmup; ++i) fn(stream_);
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        IMGPAR_CUDA_CHECK(cudaEventRecord(start_, stream_));
        fn(stream_);
        IMGPAR_CUDA_CHECK(cudaEventRecord(stop_, stream_));
        IMGPAR_CUDA_CHECK(cudaEventSynchronize(stop_));
        float t = 0;
        IMGPAR_CUDA_CHECK(cudaEventElapsedTime(&t, start_, stop_));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    Timing r;
    r.runs = runs;
    r.min_ms = ms.front();
    r.median_ms = ms[ms.size() / 2];
    return r;
}

double Context::copy_ms(std::size_t bytes) {
    for (auto& [b, t] : copy_cache_)
        if (b == bytes) return t;
    cuda::DeviceBuffer<unsigned char> a(bytes), b(bytes);
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(a.get(), 0x5a, bytes, stream_));
    Timing t = time([&](cudaStream_t s) {
        IMGPAR_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, s));
    }, 5, 50);
    copy_cache_.push_back({bytes, t.median_ms});
    return t.median_ms;
}

double Context::time_host_ms(const std::function<void()>& fn, int runs) {
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        fn();
        auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

void Context::add(const Row& row) { rows_.push_back(row); }

}  // namespace imgpar::bench
