#include "src/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace imgpar {

namespace {
thread_local int thread_limit = 0;  // 0: none
std::atomic<int> chosen_count{0};   // 0: the default
}  // namespace

CpuThreadLimit::CpuThreadLimit(int threads) : previous_(thread_limit) { thread_limit = std::max(threads, 1); }
CpuThreadLimit::~CpuThreadLimit() { thread_limit = previous_; }

int default_cpu_thread_count() {
    static const int count = [] {
        if (const char* env = std::getenv("IMGPAR_THREADS")) {
            int n = std::atoi(env);
            if (n > 0) return std::min(n, 256);
        }
        unsigned hc = std::thread::hardware_concurrency();
        return hc == 0 ? 1 : static_cast<int>(hc);
    }();
    return count;
}

void set_cpu_thread_count(int threads) { chosen_count = std::clamp(threads, 0, 256); }

int cpu_thread_count() {
    const int chosen = chosen_count.load(std::memory_order_relaxed);
    const int count = chosen > 0 ? chosen : default_cpu_thread_count();
    return thread_limit > 0 ? std::min(count, thread_limit) : count;
}

void parallel_for(int count, int grain, const std::function<void(int, int)>& body) {
    if (count <= 0) return;
    grain = std::max(grain, 1);
    int workers = std::min(cpu_thread_count(), (count + grain - 1) / grain);
    if (workers <= 1) {
        body(0, count);
        return;
    }
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto run = [&](int begin, int end) {
        try {
            body(begin, end);
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(workers - 1);
    int chunk = (count + workers - 1) / workers;
    for (int w = 1; w < workers; ++w) {
        int begin = w * chunk;
        int end = std::min(count, begin + chunk);
        if (begin < end) threads.emplace_back(run, begin, end);
    }
    run(0, std::min(count, chunk));
    for (auto& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace imgpar
