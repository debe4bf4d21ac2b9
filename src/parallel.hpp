// A small thread pool-free parallel loop for the CPU backend: the CPU paths
// are real fallbacks, so they use every core.
#pragma once

#include <functional>

namespace imgpar {

// Number of worker threads the CPU backend uses (hardware concurrency, at
// least 1; IMGPAR_THREADS in the environment overrides it).
int cpu_thread_count();

// Calls body(begin, end) on disjoint chunks covering [0, count), spread over
// cpu_thread_count() threads. Chunks are at least `grain` long. An exception
// thrown by any chunk is rethrown on the calling thread after all finish.
void parallel_for(int count, int grain, const std::function<void(int begin, int end)>& body);

}  // namespace imgpar
