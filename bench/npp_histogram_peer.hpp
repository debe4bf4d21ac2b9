// NPP's HistogramEven as a benchmark peer of imgpar's histogram. The NPP code
// is compiled only where the toolkit has NPP (IMGPAR_HAVE_NPP, set by
// bench/CMakeLists.txt); elsewhere the peer reports itself unavailable.
#pragma once

#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "cuda/device_image.hpp"

namespace imgpar::bench {

struct NppHistogramRun {
    bool available = false;
    std::string name;                        // e.g. "NPP HistogramEven_8u_C3R"
    Timing timing;
    std::vector<unsigned long long> counts;  // channels * 256, for a correctness check
    std::string note;                        // why it did not run, when it did not
};

// Times nppiHistogramEven_8u_C1R_Ctx / _C3R_Ctx (256 even bins over 0..255)
// on a 1- or 3-channel device image, on ctx's stream, scratch allocated
// outside the timed region.
NppHistogramRun time_npp_histogram(Context& ctx, const DeviceViewU8& image);

}  // namespace imgpar::bench
