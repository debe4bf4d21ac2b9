// Main of the GPU suite. Without a usable GPU the cases cannot run: the suite
// lists how many there are, says why they are skipped, and exits 77, which
// CTest reports as "Skipped" (never as passed).
#include <doctest/doctest.h>

#include <cstdio>

#include "src/gpu_runtime.hpp"
#include "tests/support/gpu_session.hpp"

int main(int argc, char** argv) {
    const imgpar::GpuStatus& status = imgpar::gpu_status();
    doctest::Context context;
    context.applyCommandLine(argc, argv);
    if (!status.usable()) {
        // Filter every case out: doctest then lists them all as skipped in its summary.
        context.addFilter("test-case-exclude", "*");
        context.run();
        std::printf("[imgpar] GPU test cases SKIPPED: no usable GPU: %s\n", status.reason.c_str());
        return 77;
    }
    const imgpar::GpuInfo& g = status.devices[0];
    std::printf("[imgpar] GPU test cases run on GPU 0: %s (compute %d.%d)\n", g.name.c_str(), g.compute_major,
                g.compute_minor);
    const int failed = context.run();
    imgpar::test::close_session();
    return failed;
}
