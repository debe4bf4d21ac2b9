// Loading nvJPEG (cuda/nvjpeg_library.hpp). A CUDA build without nvjpeg.h
// compiles this file to nothing: nothing calls it there.
#if IMGPAR_HAVE_NVJPEG

#include "cuda/nvjpeg_library.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

// The library of this CUDA major version (the one imgpar was built with):
// another major version's may differ in its functions' signatures.
std::string versioned_name() { return "libnvjpeg.so." + std::to_string(CUDART_VERSION / 1000); }

struct Opened {
    void* handle = nullptr;
    std::string problem;
};

}  // namespace

void* nvjpeg_library(std::string& problem) {
    // Opened once: a static's initialization runs on one thread while others wait.
    static const Opened opened = [] {
        Opened o;
        const std::string name = versioned_name();
        o.handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!o.handle)
            o.problem = name + " not found (it comes with the CUDA toolkit; LD_LIBRARY_PATH may need its lib64 folder)";
        return o;
    }();
    if (!opened.handle) problem = opened.problem;
    return opened.handle;
}

void* nvjpeg_symbol(void* library, const char* symbol) { return library ? dlsym(library, symbol) : nullptr; }

std::string NvjpegSymbols::problem() const {
    return missing_.empty() ? std::string() : versioned_name() + " lacks " + missing_;
}

std::string nvjpeg_status_text(nvjpegStatus_t status) {
    switch (status) {
        case NVJPEG_STATUS_SUCCESS: return "success";
        case NVJPEG_STATUS_NOT_INITIALIZED: return "not initialized";
        case NVJPEG_STATUS_INVALID_PARAMETER: return "invalid parameter";
        case NVJPEG_STATUS_BAD_JPEG: return "bad JPEG";
        case NVJPEG_STATUS_JPEG_NOT_SUPPORTED: return "JPEG not supported";
        case NVJPEG_STATUS_ALLOCATOR_FAILURE: return "allocator failure";
        case NVJPEG_STATUS_EXECUTION_FAILED: return "execution failed";
        case NVJPEG_STATUS_ARCH_MISMATCH: return "not supported on this GPU";
        case NVJPEG_STATUS_INTERNAL_ERROR: return "internal error";
        case NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED: return "not supported by this backend";
        case NVJPEG_STATUS_INCOMPLETE_BITSTREAM: return "incomplete bitstream";
        default: return "status " + std::to_string(static_cast<int>(status));
    }
}

void check_nvjpeg(nvjpegStatus_t status, const char* call) {
    if (status != NVJPEG_STATUS_SUCCESS)
        throw device_error("nvJPEG", std::string(call) + " failed: " + nvjpeg_status_text(status));
}

std::string nvjpeg_version(decltype(&nvjpegGetProperty) get_property) {
    int major = 0, minor = 0, patch = 0;
    check_nvjpeg(get_property(MAJOR_VERSION, &major), "nvjpegGetProperty");
    check_nvjpeg(get_property(MINOR_VERSION, &minor), "nvjpegGetProperty");
    check_nvjpeg(get_property(PATCH_LEVEL, &patch), "nvjpegGetProperty");
    return "nvJPEG " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace imgpar::cuda

#endif  // IMGPAR_HAVE_NVJPEG
