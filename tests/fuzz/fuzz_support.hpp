// What the libFuzzer targets share: the limits they decode under and the rule
// for what counts as a finding.
//
// imgpar::Error of the kind the entry point documents (input, for files) is
// the expected answer to bad bytes and is swallowed. Anything else is a
// finding: another exception (it reaches std::terminate and aborts), an error
// of the wrong kind (it would give the wrong exit code), a broken invariant
// (FUZZ_CHECK aborts), a crash, a leak, or a sanitizer report.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "src/error.hpp"
#include "src/io/load.hpp"
#include "src/parallel.hpp"

namespace imgpar::fuzz {

// 512x512: every layout and every code path of the decoders fits in far
// less, and a larger limit only lets the fuzzer spend its time (and memory)
// on huge allocations that the pixel limit exists to bound. The memory
// budget is fixed too, so that what is refused does not depend on the
// machine's memory (the default is a share of it).
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 18;
constexpr std::uint64_t kMaxMemory = std::uint64_t{256} << 20;

// `images`: 1 to decode, 0 to read the header only, as `imgpar info` does.
inline LoadOptions load_options(double images = 1) {
    LoadOptions options;
    options.max_pixels = kMaxPixels;
    options.max_memory = kMaxMemory;
    options.images = images;
    return options;
}

[[noreturn]] inline void invariant_broken(const char* what, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: fuzz invariant broken: %s\n", file, line, what);
    std::abort();
}

// Runs `body` on one thread (the decoders and filters split large work over
// the cores; a fuzz input is never large, and threads only slow each run),
// swallowing imgpar::Error of the kinds listed.
template <typename Body>
void expect_errors_of(std::initializer_list<ErrorKind> expected, Body&& body) {
    CpuThreadLimit one_thread(1);
    try {
        body();
    } catch (const Error& e) {
        for (ErrorKind kind : expected)
            if (e.kind() == kind) return;
        std::fprintf(stderr, "unexpected kind of imgpar::Error: %s\n", e.what());
        std::abort();
    }
}

}  // namespace imgpar::fuzz

#define FUZZ_CHECK(condition) \
    ((condition) ? static_cast<void>(0) : ::imgpar::fuzz::invariant_broken(#condition, __FILE__, __LINE__))
