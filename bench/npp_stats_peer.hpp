// NPP's Mean_StdDev and MinMax as a benchmark peer of imgpar's statistics:
// the two calls NPP needs for what stats computes in one pass (NPP has no
// sum of squares or non-zero count, and MinMax gives no positions). The NPP
// code is compiled only where the toolkit has NPP (IMGPAR_HAVE_NPP);
// elsewhere the peer reports itself unavailable.
#pragma once

#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "cuda/device_image.hpp"

namespace imgpar::bench {

struct NppStatsRun {
    bool available = false;
    std::string name;  // "NPP Mean_StdDev_8u_C1R + MinMax_8u_C1R"
    Timing timing;     // both calls (three Mean_StdDev_8u_C3CR, one per channel, for RGB)
    std::vector<double> mean, stddev;  // per channel, for a correctness check
    std::vector<int> min, max;
    std::string note;  // why it did not run, when it did not
};

// Times NPP's mean and deviation and its min and max, together, on a 1- or
// 3-channel device image on ctx's stream; scratch allocated outside the
// timed region.
NppStatsRun time_npp_stats(Context& ctx, const DeviceViewU8& image);

}  // namespace imgpar::bench
