// One way to check CUDA calls: any failure becomes an imgpar::Error naming
// the call and where it was made. Launches are checked right after them.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "src/error.hpp"

namespace imgpar::cuda {

// Shortens a compiler-provided path to its project-relative tail
// ("cuda/convolve.cu") so messages do not carry build-machine paths.
inline const char* project_relative(const char* path) {
    const char* best = path;
    for (const char* p = path; *p; ++p)
        if (*p == '/' && (p[1] == 'c' || p[1] == 's' || p[1] == 'b' || p[1] == 't')) {
            std::string rest(p + 1);
            if (rest.rfind("cuda/", 0) == 0 || rest.rfind("src/", 0) == 0 || rest.rfind("bench/", 0) == 0 ||
                rest.rfind("tests/", 0) == 0)
                best = p + 1;
        }
    return best;
}

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
    throw device_error("CUDA", std::string(call) + " failed at " + project_relative(file) + ":" +
                                   std::to_string(line) + ": " + cudaGetErrorString(status) + " (" +
                                   cudaGetErrorName(status) + ")");
}

inline void check(cudaError_t status, const char* call, const char* file, int line) {
    if (status != cudaSuccess) throw_cuda_error(status, call, file, line);
}

}  // namespace imgpar::cuda

#define IMGPAR_CUDA_CHECK(call) ::imgpar::cuda::check((call), #call, __FILE__, __LINE__)
// After every kernel launch: catches bad launch configurations at once.
#define IMGPAR_CUDA_CHECK_LAUNCH(kernel_name) \
    ::imgpar::cuda::check(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
