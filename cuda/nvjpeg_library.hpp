// nvJPEG as imgpar reaches it: loaded at run time (dlopen), not linked. It
// ships with the CUDA toolkit, not with the driver, and imgpar must run
// wherever a driver is (its CUDA runtime is linked statically), so a machine
// without the library still runs everything else. The hardware decoder
// (cuda/jpeg_hardware.cpp) takes the functions it calls from the loaded
// library. Compiled only where the build found nvjpeg.h (IMGPAR_HAVE_NVJPEG).
#pragma once

#include <nvjpeg.h>

#include <string>

namespace imgpar::cuda {

// Opens libnvjpeg.so.<major version of the CUDA runtime imgpar was built
// with> the first time it is called (thread-safe) and returns its handle, the
// same on every later call; the library stays loaded until the process ends.
// nullptr when it cannot be opened, with the reason in `problem`.
void* nvjpeg_library(std::string& problem);

// The address of `symbol` in `library`, or nullptr when it lacks it.
void* nvjpeg_symbol(void* library, const char* symbol);

// Fills typed function pointers from the library and remembers the first
// symbol it lacks, so a loader reads as a list of names:
//     NvjpegSymbols symbols(library);
//     symbols.load(api.create, "nvjpegCreateEx");
//     if (!symbols.ok()) problem = symbols.problem();
class NvjpegSymbols {
public:
    explicit NvjpegSymbols(void* library) : library_(library) {}

    // `fn` is a pointer typed as the header declares the function
    // (decltype(&nvjpegCreateEx)); it is set to nullptr when the symbol is missing.
    template <typename Fn>
    void load(Fn& fn, const char* symbol) {
        fn = reinterpret_cast<Fn>(nvjpeg_symbol(library_, symbol));
        if (!fn && missing_.empty()) missing_ = symbol;
    }

    bool ok() const { return missing_.empty(); }
    // "libnvjpeg.so.13 lacks nvjpegXxx" for the first missing symbol.
    std::string problem() const;

private:
    void* library_;
    std::string missing_;
};

// "invalid parameter", "execution failed"...: an nvJPEG status in words, for
// messages that name the call that returned it.
std::string nvjpeg_status_text(nvjpegStatus_t status);

// Throws imgpar::Error (device) "CALL failed: STATUS" unless `status` is success.
void check_nvjpeg(nvjpegStatus_t status, const char* call);

// "nvJPEG 13.0.1": the loaded library's version, read through its
// nvjpegGetProperty (checked).
std::string nvjpeg_version(decltype(&nvjpegGetProperty) get_property);

}  // namespace imgpar::cuda
