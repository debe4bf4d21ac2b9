// The CPU backend's parallel loop (src/parallel.hpp): every index once,
// exceptions back on the caller, nesting and concurrent callers, the thread
// count honoured, and threads reused from call to call.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "src/parallel.hpp"

using namespace imgpar;

namespace {

// Restores the process's thread count when a case ends.
struct ThreadCount {
    explicit ThreadCount(int n) { set_cpu_thread_count(n); }
    ~ThreadCount() { set_cpu_thread_count(0); }
};

// Runs parallel_for and returns how often each index of [0, count) was visited.
std::vector<int> visits(int count, int grain) {
    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(count));
    parallel_for(count, grain, [&](int b, int e) {
        CHECK(b < e);
        for (int i = b; i < e; ++i) seen[static_cast<std::size_t>(i)]++;
    });
    std::vector<int> out;
    for (auto& s : seen) out.push_back(s.load());
    return out;
}

}  // namespace

TEST_CASE("parallel_for: every index exactly once, for any count, grain and thread count") {
    for (int threads : {1, 2, 3, 8}) {
        ThreadCount tc(threads);
        for (int count : {0, 1, 2, 7, 64, 1000})
            for (int grain : {1, 3, 100}) {
                CAPTURE(threads);
                CAPTURE(count);
                CAPTURE(grain);
                const std::vector<int> v = visits(count, grain);
                for (int i = 0; i < count; ++i) REQUIRE(v[static_cast<std::size_t>(i)] == 1);
            }
    }
}

TEST_CASE("parallel_for: chunks respect the grain and the thread count") {
    ThreadCount tc(4);
    std::mutex m;
    std::vector<std::pair<int, int>> chunks;
    parallel_for(100, 30, [&](int b, int e) {
        std::lock_guard<std::mutex> lock(m);
        chunks.emplace_back(b, e);
    });
    CHECK(chunks.size() <= 4);
    for (auto [b, e] : chunks)
        if (e != 100) CHECK(e - b >= 30);
    CpuThreadLimit limit(2);
    chunks.clear();
    parallel_for(100, 1, [&](int b, int e) {
        std::lock_guard<std::mutex> lock(m);
        chunks.emplace_back(b, e);
    });
    CHECK(chunks.size() == 2);
}

TEST_CASE("parallel_for: a chunk's exception reaches the caller after every chunk ran") {
    ThreadCount tc(4);
    std::atomic<int> ran{0};
    CHECK_THROWS_AS(parallel_for(4, 1,
                                 [&](int b, int) {
                                     ran++;
                                     if (b == 2) throw std::runtime_error("chunk 2");
                                 }),
                    std::runtime_error);
    CHECK(ran.load() == 4);
    // The pool is still usable afterwards.
    const std::vector<int> v = visits(50, 1);
    for (int x : v) CHECK(x == 1);
}

TEST_CASE("parallel_for: nested calls and calls from several threads at once finish") {
    ThreadCount tc(3);
    std::atomic<long> total{0};
    std::vector<std::thread> callers;
    for (int t = 0; t < 4; ++t)
        callers.emplace_back([&] {
            for (int round = 0; round < 50; ++round)
                parallel_for(6, 1, [&](int b, int e) {
                    for (int i = b; i < e; ++i)
                        parallel_for(10, 1, [&](int b2, int e2) { total += e2 - b2; });
                });
        });
    for (auto& c : callers) c.join();
    CHECK(total.load() == 4L * 50 * 6 * 10);
}

// Counts the threads that ever ran a chunk: a thread-local's constructor runs
// once per thread, where a thread id can be handed to the next new thread.
std::atomic<int> threads_seen{0};
struct SeenThread {
    SeenThread() { threads_seen++; }
};
thread_local SeenThread seen_thread;

TEST_CASE("parallel_for: threads are reused, not started per call") {
    ThreadCount tc(4);
    parallel_for(4, 1, [&](int, int) { (void)&seen_thread; });
    const int before = threads_seen.load();
    for (int call = 0; call < 200; ++call) parallel_for(4, 1, [&](int, int) { (void)&seen_thread; });
    // The pool's threads, which other cases may have grown (to 8 or every
    // core), each counted at most once; a new thread per chunk would add 600.
    CHECK(threads_seen.load() - before <= std::max(8, default_cpu_thread_count()));
}
