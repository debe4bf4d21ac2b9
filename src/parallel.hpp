// The CPU backend's parallel loop, over a pool of threads that persist for
// the process: the CPU paths are real fallbacks, so they use every core.
#pragma once

#include <functional>

namespace imgpar {

// Number of worker threads the CPU backend uses (hardware concurrency, at
// least 1; IMGPAR_THREADS in the environment or set_cpu_thread_count
// overrides it), or fewer on a thread that set a limit (below).
int cpu_thread_count();

// Sets the process's CPU thread count (--threads); 0 goes back to the
// default. Call it before work starts, not while a parallel_for runs.
void set_cpu_thread_count(int threads);

// The default: IMGPAR_THREADS when set, else every core.
int default_cpu_thread_count();

// Limits cpu_thread_count() on the calling thread while it lives: a batch
// that already runs one file per core does each file's work on one thread
// instead of starting a thread per core for every file.
class CpuThreadLimit {
public:
    explicit CpuThreadLimit(int threads);
    ~CpuThreadLimit();
    CpuThreadLimit(const CpuThreadLimit&) = delete;
    CpuThreadLimit& operator=(const CpuThreadLimit&) = delete;

private:
    int previous_;
};

// Calls body(begin, end) on disjoint chunks covering [0, count), spread over
// cpu_thread_count() threads (the caller and pool threads). Chunks are at
// least `grain` long. An exception thrown by any chunk is rethrown on the
// calling thread after all finish. Calls may nest and may come from several
// threads at once.
void parallel_for(int count, int grain, const std::function<void(int begin, int end)>& body);

}  // namespace imgpar
