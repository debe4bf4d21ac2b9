// NPP's convolution filters as benchmark peers of imgpar's. The NPP code is
// compiled only where the toolkit has NPP (IMGPAR_HAVE_NPP, set by
// bench/CMakeLists.txt); elsewhere every peer reports itself unavailable.
#pragma once

#include <string>

#include "bench/bench.hpp"
#include "cuda/device_image.hpp"
#include "src/ops/filter.hpp"

namespace imgpar::bench {

struct NppFilterRun {
    bool available = false;
    std::string name;  // e.g. "NPP FilterGaussAdvancedBorder_8u_C3R"
    Timing timing;
    std::string note;  // what differs from imgpar's operation, or why it did not run
};

// Times NPP's nearest equivalent of `plan` from src into dst (same shape, 1
// or 3 channels) on ctx's stream, with NPP's replicate border (the only one
// these NPP filters support):
//   Gaussian          nppiFilterGaussAdvancedBorder (the plan's taps as floats)
//   Box               nppiFilterBoxBorder
//   Custom            nppiFilterBorder (the plan's fixed-point kernel and a divisor)
//   Edges (Sobel)     nppiFilterBorder twice (gx and gy; NPP has no magnitude step)
// Kernels are uploaded outside the timed region. Every NPP status is checked.
NppFilterRun time_npp_filter(Context& ctx, const FilterPlan& plan, const DeviceViewU8& src,
                             const DeviceViewU8& dst);

}  // namespace imgpar::bench
